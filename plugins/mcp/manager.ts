// The servers of one plugin instance: which are declared, which run, which sessions need them,
// and their tools in the registry. Servers start when the first session starts (never at app
// start) and stop when the last session ends or the plugin is disposed.
import type { Disposable } from '@seam/sdk'
import type { ToolDefinition } from '@seam/sdk'
import { claudeEntryToSpec, codexEntryToSpec, isWorkspaceCode, targetOf, type McpServerSpec, type McpSourceKind, type McpTransport } from './config'
import { ServerConnection, type ConnectionOptions, type McpServerState } from './connection'
import { resourceTools } from './resource-tools'
import { mcpToolName } from './names'
import { adaptTool, type ResultLimits } from './tool-adapter'

export interface McpToolStatus {
  /** The Seam tool name, `mcp__<server>__<tool>`. */
  name: string
  /** The name the server gave it. */
  serverName: string
  description: string
}

export interface McpServerStatus {
  name: string
  source: McpSourceKind
  file: string
  transport: McpTransport
  /** The exact command line or URL. */
  target: string
  state: McpServerState
  reason?: string
  enabled: boolean
  tools: McpToolStatus[]
  /** Tools that could not be offered (bad name, invalid schema, collision), with why. */
  problems: string[]
  /** The last stderr lines (stdio servers). */
  stderr: string[]
  /** Set for servers a caller started for one session. */
  sessionId?: string
  /** Set for a subagent's own servers (startForAgent): its tools are that subagent's only. */
  agentId?: string
  /** The names under its `capabilities.experimental` (Claude Code's `claude/channel`, ...), once connected. */
  experimental: string[]
  /** Its `instructions` (initialize), once connected. */
  instructions?: string
  /** A Claude Code plugin's server: the plugin, its marketplace and the server's own name. */
  plugin?: { name: string; marketplace?: string; server: string }
}

/** How a subagent's inline server is written: Claude Code's `.mcp.json` entry, or Codex's `[mcp_servers.NAME]` table. */
export type AgentServerShape = 'mcp.json' | 'codex'

/** One server given to startForSession: a name plus the .mcp.json entry shape. */
export type McpSessionServer = { name: string } & Record<string, unknown>

export interface ManagerOptions {
  connection: Omit<ConnectionOptions, 'changed'>
  toolTimeoutMs: number
  limits: ResultLimits
  trusted: boolean
  /** In a trusted workspace, whether a workspace server is what the user approved (trust pinning); default: all are. */
  approved?: (spec: McpServerSpec) => boolean
  disabled: readonly string[]
  register(tool: ToolDefinition<never>, agentId?: string): Disposable
  /** Something a UI shows changed (state, tools, stderr). */
  changed(): void
  env: Readonly<Record<string, string | undefined>>
}

interface Entry {
  connection: ServerConnection
  sessionId?: string
  agentId?: string
  registered: Map<string, Disposable>
  /** The tool list the registrations were made from (to skip re-registering an unchanged list). */
  registeredFrom: unknown
  problems: string[]
}

export class McpManager {
  private readonly entries = new Map<string, Entry>()
  /** Subagents' own servers, by agent id: not in `entries`, so their names never clash with the configured ones or each other's. */
  private readonly agentEntries = new Map<string, Entry[]>()
  private resourceToolsRegistered: Disposable[] = []
  private disposed = false

  /**
   * `sessions`: the sessions open now, shared by successive instances of the plugin (a trust
   * change restarts it): a new instance starts its servers at once for the sessions already open.
   */
  constructor(
    specs: readonly McpServerSpec[],
    private readonly options: ManagerOptions,
    private readonly sessions: Set<string> = new Set()
  ) {
    for (const spec of specs) this.add(spec)
    if (this.sessions.size > 0) {
      this.ensureResourceTools()
      for (const entry of this.entries.values()) void entry.connection.ensureStarted()
    }
  }

  status(): McpServerStatus[] {
    return [...this.entries.values(), ...[...this.agentEntries.values()].flat()].map((entry) => this.statusOf(entry))
  }

  connections(): ServerConnection[] {
    return [...this.entries.values()].map((entry) => entry.connection)
  }

  /** A session starts: every enabled server starts (or is already running); resolves when each is connected or failed. */
  async sessionStarted(sessionId: string): Promise<void> {
    this.sessions.add(sessionId)
    this.ensureResourceTools()
    await Promise.all([...this.entries.values()].filter((entry) => entry.sessionId === undefined).map((entry) => entry.connection.ensureStarted()))
  }

  /** A session ends: its own servers stop; when no session is left, every server stops. */
  async sessionEnded(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId)
    const stops: Array<Promise<void>> = []
    for (const [name, entry] of this.entries) {
      if (entry.sessionId === sessionId) {
        this.entries.delete(name)
        this.unregister(entry)
        stops.push(entry.connection.stop())
      } else if (this.sessions.size === 0 && entry.sessionId === undefined && isRunning(entry.connection.state)) {
        stops.push(entry.connection.stop())
      }
    }
    for (const [agentId, entries] of this.agentEntries) {
      if (entries.some((entry) => entry.sessionId === sessionId)) stops.push(this.stopForAgent(agentId))
    }
    await Promise.all(stops)
    this.options.changed()
  }

  /**
   * Starts a subagent's own servers (the inline `mcpServers` of its agent file; `file` names it):
   * their tools are registered for that agent only (`ToolRegisterOptions.agentId`), so no other
   * agent or session sees them, and two agents may run servers of the same name. Resolves when
   * each is connected or failed; `stopForAgent` ends them.
   */
  async startForAgent(sessionId: string, agentId: string, file: string, servers: readonly McpSessionServer[], shape: AgentServerShape = 'mcp.json'): Promise<McpServerStatus[]> {
    if (this.disposed) throw new Error('the MCP plugin is closing')
    const entries: Entry[] = []
    this.agentEntries.set(agentId, entries)
    for (const { name, ...raw } of servers) {
      const spec = shape === 'codex' ? codexEntryToSpec(name, raw, 'agent', file, this.options.env) : claudeEntryToSpec(name, raw, 'agent', file, this.options.env)
      const duplicate = entries.some((entry) => entry.connection.name === name)
      if (duplicate) spec.error = `${file}: ${shape === 'codex' ? 'mcp_servers' : 'mcpServers'}: the name "${name}" is given twice`
      entries.push({ connection: new ServerConnection(spec, this.connectionOptions()), sessionId, agentId, registered: new Map(), registeredFrom: undefined, problems: [] })
    }
    await Promise.all(entries.map((entry) => entry.connection.ensureStarted()))
    return entries.map((entry) => this.statusOf(entry))
  }

  /** Stops a subagent's own servers and removes their tools. */
  async stopForAgent(agentId: string): Promise<void> {
    const entries = this.agentEntries.get(agentId)
    if (!entries) return
    this.agentEntries.delete(agentId)
    for (const entry of entries) this.unregister(entry)
    await Promise.all(entries.map((entry) => entry.connection.stop()))
    this.options.changed()
  }

  /** Starts servers for one session only (e.g. the mcpServers an editor passes over ACP). */
  async startForSession(sessionId: string, servers: readonly McpSessionServer[]): Promise<McpServerStatus[]> {
    this.sessions.add(sessionId)
    this.ensureResourceTools()
    const started: Entry[] = []
    for (const { name, ...entry } of servers) {
      const spec = claudeEntryToSpec(name, entry, 'session', `session ${sessionId}`, this.options.env)
      const existing = this.entries.get(name)
      if (existing !== undefined) spec.error = `the name "${name}" is already used by the MCP server declared in ${existing.connection.spec.file}`
      const added = existing === undefined ? this.add(spec, sessionId) : { connection: new ServerConnection(spec, this.connectionOptions()), sessionId, registered: new Map(), registeredFrom: undefined, problems: [] }
      started.push(added)
    }
    await Promise.all(started.map((entry) => entry.connection.ensureStarted()))
    return started.map((entry) => this.statusOf(entry))
  }

  /**
   * Makes the Claude Code plugins' servers (source `plugin`) those of `specs`: a new one is added
   * (and started while a session is open), one that is gone or changed is stopped and its tools
   * removed. A name another source already holds keeps that declaration.
   */
  async replacePluginServers(specs: readonly McpServerSpec[]): Promise<void> {
    const wanted = new Map(specs.map((spec) => [spec.name, spec]))
    const stops: Array<Promise<void>> = []
    for (const [name, entry] of this.entries) {
      if (entry.connection.spec.source !== 'plugin') continue
      const next = wanted.get(name)
      if (next !== undefined && JSON.stringify(next) === JSON.stringify(entry.connection.spec)) {
        wanted.delete(name)
        continue
      }
      this.entries.delete(name)
      this.unregister(entry)
      stops.push(entry.connection.stop())
    }
    await Promise.all(stops)
    for (const spec of wanted.values()) {
      if (this.entries.has(spec.name) || this.disposed) continue
      const entry = this.add(spec)
      if (this.sessions.size > 0) void entry.connection.ensureStarted()
    }
    this.options.changed()
  }

  /** Sends a notification to a configured server (not a subagent's own): it must be connected. */
  async notify(name: string, method: string, params: Record<string, unknown>): Promise<void> {
    await this.require(name).connection.notify(method, params)
  }

  /** Whether `connection` is a configured server's (not a subagent's own, not one replaced since). */
  isShared(connection: ServerConnection): boolean {
    return this.entries.get(connection.name)?.connection === connection
  }

  async setEnabled(name: string, enabled: boolean): Promise<McpServerStatus> {
    const entry = this.require(name)
    if (!enabled) await entry.connection.stop('disabled', 'disabled by the user')
    else if (entry.connection.state === 'disabled') {
      await entry.connection.stop('stopped')
      if (this.sessions.size > 0) await entry.connection.ensureStarted()
    }
    return this.statusOf(entry)
  }

  async restart(name: string): Promise<McpServerStatus> {
    const entry = this.require(name)
    if (entry.connection.state === 'disabled' || entry.connection.state === 'untrusted') {
      throw new Error(`MCP server "${name}" is ${entry.connection.state}: ${entry.connection.state === 'disabled' ? 'enable it first' : 'trust the workspace first'}`)
    }
    await entry.connection.restart()
    return this.statusOf(entry)
  }

  /** Ends every server process now (synchronous: the plugin is being disposed). */
  dispose(): void {
    this.disposed = true
    for (const entry of [...this.entries.values(), ...[...this.agentEntries.values()].flat()]) {
      entry.connection.kill()
      this.unregister(entry)
    }
    for (const dispose of this.resourceToolsRegistered) dispose()
    this.resourceToolsRegistered = []
  }

  /** Ends every server process and waits for them to exit. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.connection.stop()))
  }

  private require(name: string): Entry {
    const entry = this.entries.get(name)
    if (!entry) throw Object.assign(new Error(`no MCP server named "${name}" (configured: ${[...this.entries.keys()].join(', ') || 'none'})`), { code: 'NOT_FOUND' })
    return entry
  }

  private add(spec: McpServerSpec, sessionId?: string): Entry {
    const connection = new ServerConnection(spec, this.connectionOptions())
    const entry: Entry = { connection, sessionId, registered: new Map(), registeredFrom: undefined, problems: [] }
    this.entries.set(spec.name, entry)
    if (isWorkspaceCode(spec) && !this.options.trusted) void connection.stop('untrusted', 'declared in the workspace, which is not trusted: trust it to start this server')
    else if (isWorkspaceCode(spec) && this.options.approved && !this.options.approved(spec)) {
      void connection.stop('untrusted', 'new or changed since you trusted this workspace: approve the change in the workspace trust dialog to start this server')
    }
    else if (!spec.enabled) void connection.stop('disabled', `enabled = false in ${spec.file}`)
    else if (this.options.disabled.includes(spec.name)) void connection.stop('disabled', 'disabled in Seam\'s settings')
    return entry
  }

  private connectionOptions(): ConnectionOptions {
    return { ...this.options.connection, changed: (connection) => this.onChanged(connection) }
  }

  private onChanged(connection: ServerConnection): void {
    if (this.disposed) return
    const shared = this.entries.get(connection.name)
    const entry = shared?.connection === connection ? shared : [...this.agentEntries.values()].flat().find((candidate) => candidate.connection === connection)
    if (entry) this.syncTools(entry)
    this.options.changed()
  }

  /** Registrations follow the connection's tool list. */
  private syncTools(entry: Entry): void {
    const { connection } = entry
    if (entry.registeredFrom === connection.tools) return
    this.unregister(entry)
    entry.registeredFrom = connection.tools
    const timeoutMs = connection.spec.toolTimeoutMs ?? this.options.toolTimeoutMs
    for (const listed of connection.tools) {
      const adapted = adaptTool(connection, listed, timeoutMs, this.options.limits)
      if (!adapted.ok) {
        entry.problems.push(adapted.problem)
        continue
      }
      const clash = this.ownerOf(adapted.tool.name, entry.agentId)
      if (clash !== undefined) {
        entry.problems.push(`tool "${listed.name}" is named ${adapted.tool.name}, which ${clash === connection.name ? 'another of its tools' : `server "${clash}"`} already uses; it is left out`)
        continue
      }
      try {
        entry.registered.set(listed.name, this.options.register(adapted.tool as ToolDefinition<never>, entry.agentId))
      } catch (error) {
        entry.problems.push(`tool "${listed.name}": ${(error as Error).message}`)
      }
    }
    for (const problem of entry.problems) this.options.connection.log('warn', `MCP server "${connection.name}": ${problem}`)
  }

  /** The server already offering `toolName` (among one subagent's own servers when `agentId` is given). */
  private ownerOf(toolName: string, agentId?: string): string | undefined {
    const entries = agentId === undefined ? this.entries.values() : (this.agentEntries.get(agentId) ?? [])
    for (const entry of entries) {
      for (const serverName of entry.registered.keys()) {
        if (mcpToolName(entry.connection.name, serverName) === toolName) return entry.connection.name
      }
    }
    return undefined
  }

  private unregister(entry: Entry): void {
    for (const dispose of entry.registered.values()) dispose()
    entry.registered.clear()
    entry.registeredFrom = undefined
    entry.problems = [...entry.connection.toolProblems]
  }

  private ensureResourceTools(): void {
    if (this.resourceToolsRegistered.length > 0 || this.entries.size === 0) return
    this.resourceToolsRegistered = resourceTools(() => this.connections(), this.options.limits).map((tool) => this.options.register(tool))
  }

  private statusOf(entry: Entry): McpServerStatus {
    const { connection } = entry
    const status: McpServerStatus = {
      name: connection.name,
      source: connection.spec.source,
      file: connection.spec.file,
      transport: connection.spec.transport,
      target: targetOf(connection.spec),
      state: connection.state,
      enabled: connection.state !== 'disabled',
      tools: connection.tools
        .filter((tool) => entry.registered.has(tool.name))
        .map((tool) => ({ name: mcpToolName(connection.name, tool.name), serverName: tool.name, description: tool.description })),
      problems: [...entry.problems],
      stderr: [...connection.stderr],
      experimental: [...connection.experimental]
    }
    if (connection.instructions !== undefined) status.instructions = connection.instructions
    if (connection.spec.plugin !== undefined) status.plugin = { ...connection.spec.plugin }
    if (connection.reason !== undefined) status.reason = connection.reason
    if (entry.sessionId !== undefined) status.sessionId = entry.sessionId
    if (entry.agentId !== undefined) status.agentId = entry.agentId
    return status
  }
}

function isRunning(state: McpServerState): boolean {
  return state === 'connected' || state === 'starting' || state === 'failed'
}
