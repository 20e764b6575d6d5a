// @seam/mcp: the MCP client. Servers declared where Claude Code and Codex users already have
// them become ordinary tools (`mcp__<server>__<tool>`) that go through the whole tool pipeline.
// See README.md.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { definePlugin, type Disposable } from '@seam/sdk'
import { codexHomePath, defaultKeyGuard } from '@seam/sdk/node'
import type { TrustItem } from '@seam/sdk'
import { SEAM_CLIENT_VERSION } from './client-info'
import { isWorkspaceCode, loadServers, mergeByPrecedence, pluginServerSpecs, targetOf, type McpServerSpec } from './config'
import { McpManager, type AgentServerShape, type McpServerStatus, type McpSessionServer } from './manager'

export type { AgentServerShape, McpServerStatus, McpToolStatus, McpSessionServer } from './manager'
export type { McpServerSpec } from './config'

const positiveMs = z.number().int().positive()

export const McpConfigSchema = z
  .object({
    /** User-level servers from Seam's settings.json `mcpServers` (the .mcp.json entry shape). */
    servers: z.record(z.string(), z.unknown()).default({}),
    /** The file `servers` came from, for messages. */
    settingsFile: z.string().default('Seam settings'),
    /** Server names the user disabled (Seam's settings `mcpDisabled`). */
    disabled: z.array(z.string()).default([]),
    /** Codex's home folder (its config.toml). Default: $CODEX_HOME, else ~/.codex. */
    codexHome: z.string().min(1).optional(),
    /** Waiting for a server to start and answer initialize. Default: $MCP_TIMEOUT, else 30000. */
    startupTimeoutMs: positiveMs.optional(),
    /** Deadline of one tool call. Default: $MCP_TOOL_TIMEOUT, else 100000000 (Claude Code's). */
    toolTimeoutMs: positiveMs.optional(),
    /** Output past this many tokens is cut with a note. Default: $MAX_MCP_OUTPUT_TOKENS, else 25000. */
    maxOutputTokens: z.number().int().positive().optional(),
    /** A result larger than this many bytes is an error. */
    maxResultBytes: z.number().int().positive().default(20 * 1024 * 1024),
    /** A stdio message larger than this ends the connection. */
    maxMessageBytes: z.number().int().positive().default(64 * 1024 * 1024),
    /** Crash restarts of stdio servers: first delay, doubled each time, and how many before giving up. */
    restartDelayMs: z.number().int().min(0).default(1_000),
    maxRestarts: z.number().int().min(0).default(3),
    /** stderr lines kept per server. */
    stderrLines: z.number().int().min(0).default(200)
  })
  .strict()
  .prefault({})

export type McpConfig = z.output<typeof McpConfigSchema>

/** What other parts of the host (the settings page, the CLI, the ACP agent) use. */
export interface McpService {
  servers(): McpServerStatus[]
  setEnabled(name: string, enabled: boolean): Promise<McpServerStatus>
  restart(name: string): Promise<McpServerStatus>
  /** Starts every configured server now (as a session start does) and resolves when each is connected or failed. */
  startAll(): Promise<McpServerStatus[]>
  /** Starts servers for one session only; they stop when that session ends. */
  startForSession(sessionId: string, servers: readonly McpSessionServer[]): Promise<McpServerStatus[]>
  /**
   * Starts a subagent's own servers (the inline `mcpServers` of the agent file `file`, or a Codex
   * agent file's `[mcp_servers.NAME]` tables with `shape: 'codex'`): their tools are offered to
   * that subagent only. They stop with `stopForAgent`, or with the session.
   */
  startForAgent(request: { sessionId: string; agentId: string; file: string; servers: readonly McpSessionServer[]; shape?: AgentServerShape }): Promise<McpServerStatus[]>
  stopForAgent(agentId: string): Promise<void>
  /** Problems with whole config files and duplicate names (which declaration won). */
  warnings(): string[]
  /** Called when a server's state, tools or stderr change. */
  onChange(listener: () => void): Disposable
  /**
   * Called for each notification a configured server sends that the client does not handle itself
   * (an extension's, such as Claude Code's `notifications/claude/channel`); `params` is unchecked.
   */
  onNotification(listener: (notification: McpServerNotification) => void): Disposable
  /** Sends a notification to a configured, connected server (a channel's permission request); rejects when it is not connected. */
  notify(server: string, method: string, params: Record<string, unknown>): Promise<void>
}

/** A notification from a server, as it came. */
export interface McpServerNotification {
  server: string
  method: string
  params: unknown
}

declare module '@seam/sdk' {
  interface Services {
    mcp: McpService
  }
}

export const TRUST_SOURCE = 'MCP servers'
const NOTICE_SOURCE = 'mcp'
const CLI_SESSION = 'seam-mcp-command'

/** Open sessions per kernel, kept across restarts of the plugin (see McpManager). */
const openSessions = new WeakMap<object, Set<string>>()
function sessionsOf(kernel: object): Set<string> {
  let sessions = openSessions.get(kernel)
  if (!sessions) openSessions.set(kernel, (sessions = new Set()))
  return sessions
}

function envNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) && number > 0 ? Math.floor(number) : undefined
}

/** Every server the workspace declares, as the trust dialog lists them: the exact command or URL. */
export function workspaceTrustItems(codexHome: string) {
  return (workspace: string) => loadServers({ workspace, codexHome }, {}, '', process.env).servers.filter(isWorkspaceCode).map(serverTrustItem)
}

/** A workspace server as a trust item: its target shown, its whole definition pinned (as a digest: it may hold secrets). */
export function serverTrustItem(spec: McpServerSpec): TrustItem {
  const content = createHash('sha256').update(JSON.stringify(spec)).digest('hex')
  return { source: TRUST_SOURCE, file: spec.file, event: `server "${spec.name}" (${spec.transport})`, command: targetOf(spec), content }
}

export default definePlugin({
  name: 'mcp',
  schema: McpConfigSchema,
  inject: ['workspace', 'tools'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const env = process.env
    const codexHome = codexHomePath(config.codexHome, env)
    const fromSettings = loadServers({ workspace: workspace.root, codexHome }, config.servers, config.settingsFile, env)
    // Claude Code plugins' servers come last: a name the user declared keeps the user's server.
    const pluginSpecs = () => (workspace.root === null ? [] : pluginServerSpecs(ctx.maybe('claudePlugins')?.list(workspace.root) ?? [], env))
    const merged = mergeByPrecedence([...fromSettings.servers, ...pluginSpecs()])
    const loaded = { servers: merged.servers, warnings: [...fromSettings.warnings, ...merged.warnings] }
    for (const warning of loaded.warnings) ctx.logger.warn(warning)

    const listeners = new Set<() => void>()
    let pending = false
    const changed = (): void => {
      // Coalesced: a burst of stderr lines is one notification.
      if (pending) return
      pending = true
      queueMicrotask(() => {
        pending = false
        for (const listener of listeners) listener()
      })
    }
    const notificationListeners = new Set<(notification: McpServerNotification) => void>()
    const manager: McpManager = new McpManager(loaded.servers, {
      connection: {
        clientName: 'seam',
        clientVersion: SEAM_CLIENT_VERSION,
        cwd: workspace.root ?? process.cwd(),
        // Read at each start: settings may change what is stripped or let through.
        childEnv: (serverName) => (ctx.maybe('keys') ?? defaultKeyGuard).childEnv(env, { mcpServer: serverName }),
        startupTimeoutMs: config.startupTimeoutMs ?? envNumber(env.MCP_TIMEOUT) ?? 30_000,
        maxMessageBytes: config.maxMessageBytes,
        restart: { baseDelayMs: config.restartDelayMs, max: config.maxRestarts },
        stderrLines: config.stderrLines,
        log: (level, message) => ctx.logger[level](message),
        notification: (connection, method, params) => {
          if (!manager.isShared(connection)) return
          for (const listener of notificationListeners) {
            try {
              listener({ server: connection.name, method, params })
            } catch (error) {
              ctx.logger.error(`MCP server "${connection.name}": a listener of ${method} failed`, error)
            }
          }
        }
      },
      toolTimeoutMs: config.toolTimeoutMs ?? envNumber(env.MCP_TOOL_TIMEOUT) ?? 100_000_000,
      limits: { maxOutputTokens: config.maxOutputTokens ?? envNumber(env.MAX_MCP_OUTPUT_TOKENS) ?? 25_000, maxResultBytes: config.maxResultBytes },
      trusted: workspace.trusted,
      approved: (spec) => workspace.isApproved(serverTrustItem(spec)),
      disabled: config.disabled,
      register: (tool, agentId) => ctx.tools.register(tool, agentId === undefined ? undefined : { agentId }),
      changed,
      env
    }, sessionsOf(ctx.kernel))
    ctx.effect(() => () => manager.dispose())
    // A plugin installed, enabled or disabled while Seam runs: its servers start or stop.
    ctx.effect(() => ctx.maybe('claudePlugins')?.onChange(() => void manager.replacePluginServers(pluginSpecs()).catch((error) => ctx.logger.error('MCP: applying the plugins\' servers failed', error))) ?? (() => {}))

    workspace.contributeTrustItems(ctx, workspaceTrustItems(codexHome))

    const noticesShown = new Set<string>()
    ctx.on('agent/session-start', async (agent) => {
      await manager.sessionStarted(agent.sessionId)
      if (noticesShown.has(agent.sessionId)) return
      noticesShown.add(agent.sessionId)
      for (const warning of loaded.warnings) agent.notify('warn', warning, NOTICE_SOURCE)
      const untrusted = manager.status().filter((server) => server.state === 'untrusted')
      if (untrusted.length > 0) {
        agent.notify('warn', `MCP: this workspace is not trusted, so ${untrusted.map((s) => `"${s.name}" (${s.target})`).join(', ')} declared in it did not start. Trust the workspace to start them.`, NOTICE_SOURCE)
      }
      // Servers started for one session (startForSession) are reported by whoever started them.
      for (const server of manager.status().filter((s) => s.sessionId === undefined)) {
        if (server.state === 'failed') agent.notify('error', `MCP server "${server.name}" failed: ${server.reason ?? 'unknown reason'}`, NOTICE_SOURCE)
        for (const problem of server.problems) agent.notify('warn', `MCP server "${server.name}": ${problem}`, NOTICE_SOURCE)
      }
    })
    ctx.on('agent/session-end', async (agent) => {
      noticesShown.delete(agent.sessionId)
      await manager.sessionEnded(agent.sessionId)
    })

    ctx.provide('mcp', {
      servers: () => manager.status(),
      setEnabled: (name, enabled) => manager.setEnabled(name, enabled),
      restart: (name) => manager.restart(name),
      startAll: async () => {
        await manager.sessionStarted(CLI_SESSION)
        return manager.status()
      },
      startForSession: (sessionId, servers) => manager.startForSession(sessionId, servers),
      startForAgent: ({ sessionId, agentId, file, servers, shape }) => manager.startForAgent(sessionId, agentId, file, servers, shape),
      stopForAgent: (agentId) => manager.stopForAgent(agentId),
      warnings: () => [...loaded.warnings],
      onChange(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      onNotification(listener) {
        notificationListeners.add(listener)
        return () => notificationListeners.delete(listener)
      },
      notify: (server, method, params) => manager.notify(server, method, params)
    } satisfies McpService)
  }
})
