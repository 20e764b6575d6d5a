// @seam/hooks-claude: runs a user's Claude Code hooks (the "hooks" of ~/.claude/settings.json,
// <workspace>/.claude/settings{,.local}.json and Seam's own settings) on Seam's seams, with
// Claude Code's input JSON, exit codes, JSON answers and wording. See README.md.
import { homedir } from 'node:os'
import { join } from 'node:path'
import { definePlugin, type Logger } from '@seam/sdk'
import { claudeUserSettingsPath, defaultKeyGuard } from '@seam/sdk/node'
import { claudePermissionMode, sharedHookLimiter } from '../hook-protocol/index'
import type {} from '../permission-policy/index'
import type { Bridge } from './bridge'
import { HooksClaudeConfigSchema } from './config'
import { HookInvoker } from './invoke'
import { onPostCompact, onPreCompact } from './compact'
import { onInstructionsLoaded } from './instructions-loaded'
import { mcpServerOf } from './mcp-server'
import { watchNotifications } from './notification'
import { onPostExecute } from './post-tool'
import { onInputRewrite, onPreExecute } from './pre-tool'
import { onPermissionRequest } from './permission-request'
import { onPromptSubmit } from './prompt-submit'
import { onPromptExpansion } from './prompt-expansion'
import { onSessionEnd } from './session-end'
import { onSessionStart } from './session-start'
import { sessionRegistry, subagentRegistry } from './sessions'
import { onSubagentEnd, onSubagentStart } from './subagent-start'
import { ScopedHookRegistry } from './scoped-hooks'
import { HookSources, type HooksSnapshot } from './sources'
import { onTurnContinuation } from './stop'
import { onTurnFailure } from './stop-failure'
import { ToolCallStates } from './tool-calls'
import { onToolBatch } from './tool-batch'
import { onWorktreeCreate, onWorktreeRemove } from './worktree'
import { showReloadNotices, workspaceTrustItems } from './trust'

export { HooksClaudeConfigSchema, type HooksClaudeConfig, type HooksClaudeConfigInput } from './config'
export type { HooksSnapshot } from './sources'
export type { ConfiguredHandler, LoadedSource, SourceKind } from './settings-loader'

/** What the bridge exposes to other plugins (and tests): the loaded configuration and the limiter's numbers. */
export interface ClaudeHooksService {
  snapshot(): HooksSnapshot
  /** Re-reads every source now (edits are also picked up by the file watcher). */
  reload(): HooksSnapshot
  /** Hook runs holding a slot now, the most seen at once, runs waiting, and the cap. */
  stats(): { active: number; peak: number; waiting: number; limit: number }
}

declare module '@seam/sdk' {
  interface Services {
    claudeHooks: ClaudeHooksService
  }
}

export default definePlugin({
  name: 'hooks-claude',
  schema: HooksClaudeConfigSchema,
  inject: ['workspace'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const home = homedir()
    const sessions = sessionRegistry(ctx.kernel)
    const sources = new HookSources(
      {
        userSettingsPath: claudeUserSettingsPath(config.userSettingsPath, home),
        workspaceRoot: workspace.root,
        trusted: workspace.trusted,
        approved: (item) => workspace.isApproved(item),
        seamHooks: config.seamHooks,
        pluginHooks: () =>
          workspace.root === null
            ? []
            : (ctx.maybe('claudePlugins')?.list(workspace.root) ?? []).flatMap((plugin) => (plugin.hooks ?? []).map((h) => ({ file: h.file, hooks: h.hooks, ...(plugin.env ? { env: plugin.env } : {}) })))
      },
      (snapshot, previous) => {
        ctx.logger.info('Claude Code hooks: settings changed, reloaded')
        workspace.itemsChanged()
        logWarnings(ctx.logger, snapshot, previous)
        showReloadNotices(sessions.values(), snapshot, previous)
      }
    )
    logWarnings(ctx.logger, sources.snapshot)
    ctx.effect(() => sources.watch())
    // A plugin installed, enabled or disabled while Seam runs: its hooks apply from the next event.
    ctx.effect(() => ctx.maybe('claudePlugins')?.onChange(() => sources.reload()) ?? (() => {}))

    const limiter = sharedHookLimiter(ctx.kernel, config.concurrency)
    const scoped = new ScopedHookRegistry()
    const invoker = new HookInvoker({ limiter, logger: ctx.logger, snapshot: () => sources.snapshot, scoped, defaultTimeoutSec: config.defaultTimeoutSec, home })
    // Disposing the bridge (a reload, a trust change, host exit) kills every hook it is running.
    const disposal = new AbortController()
    ctx.onDispose(() => disposal.abort(new Error('the Claude Code hooks bridge was disposed')))
    const bridge: Bridge = {
      invoker,
      sessions,
      subagents: subagentRegistry(ctx.kernel),
      logger: ctx.logger,
      config,
      workspaceRoot: workspace.root,
      disposed: disposal.signal,
      keys: () => ctx.maybe('keys') ?? defaultKeyGuard,
      // The permission policy's mode in force (a session's own, the command line, a settings defaultMode, Seam's setting); the config without one.
      permissionMode: (sessionId) => {
        const policy = ctx.maybe('permissionPolicy')
        return policy ? claudePermissionMode(policy.inForce(sessionId).mode.mode) : config.permissionMode
      },
      mcpServer: (toolName, sessionId) => {
        if (!toolName.startsWith('mcp__')) return undefined
        const mcp = ctx.maybe('mcp')
        return mcp ? mcpServerOf(mcp.servers(), toolName, sessionId) : undefined
      }
    }
    const snapshot = (): HooksSnapshot => sources.snapshot

    workspace.contributeTrustItems(ctx, workspaceTrustItems)

    const calls = new ToolCallStates()
    ctx.on('agent/session-start', onSessionStart(bridge, snapshot))
    ctx.on('agent/prompt-submit', onPromptSubmit(bridge, snapshot))
    ctx.on('agent/prompt-expansion', onPromptExpansion(bridge))
    ctx.on('tools/input-rewrite', onInputRewrite(bridge, calls))
    ctx.on('tools/pre-execute', onPreExecute(bridge, calls))
    ctx.on('tools/permission-request', onPermissionRequest(bridge))
    ctx.on('tools/post-execute', onPostExecute(bridge, calls))
    // A subagent's turn fires these seams too (its handle has `subagent` set): turn-continuation
    // runs SubagentStop there instead of Stop, tool-batch runs PostToolBatch with agent_id and
    // agent_type; StopFailure is the session's only (Claude Code documents it for the main turn).
    const turnFailure = onTurnFailure(bridge)
    ctx.on('agent/subagent-start', onSubagentStart(bridge))
    ctx.on('agent/tool-batch', onToolBatch(bridge))
    ctx.on('agent/turn-continuation', onTurnContinuation(bridge))
    ctx.on('agent/turn-failure', (agent, failure) => (agent.subagent ? undefined : turnFailure(agent, failure)))
    ctx.on('agent/turn-end', onSubagentEnd(bridge))
    // A session's scoped hooks (a skill's) run for its SessionEnd too, then go with it.
    const sessionEnd = onSessionEnd(bridge)
    ctx.on('agent/session-end', async (agent, reason) => {
      try {
        await sessionEnd(agent, reason)
      } finally {
        scoped.release(agent.sessionId)
      }
    })
    ctx.on('agent/instructions-loaded', onInstructionsLoaded(bridge))
    ctx.on('compaction/prepare', onPreCompact(bridge))
    ctx.on('compaction/done', onPostCompact(bridge))
    ctx.on('worktree/create', onWorktreeCreate(bridge, workspace.seamHome))
    ctx.on('worktree/remove', onWorktreeRemove(bridge, workspace.seamHome))
    watchNotifications(ctx, bridge)

    ctx.provide('scopedHooks', { add: (request) => scoped.add(request) })
    ctx.provide('claudeHooks', {
      snapshot,
      reload: () => sources.reload(),
      stats: () => ({ active: limiter.active, peak: limiter.peak, waiting: limiter.waiting, limit: limiter.limit })
    })
  }
})

/** Load problems go to the log once per load (sessions are told at their start, see trust.ts). */
function logWarnings(logger: Logger, snapshot: HooksSnapshot, previous?: HooksSnapshot): void {
  const known = new Set(previous?.warnings ?? [])
  for (const warning of snapshot.warnings) if (!known.has(warning)) logger.warn(warning)
  for (const source of snapshot.sources) {
    if (source.unknownEvents.length > 0) logger.debug(`Claude Code hooks: ${source.file}: ignored unknown event(s) ${source.unknownEvents.join(', ')}`)
  }
  if (snapshot.unmapped.length > 0) logger.info(`Claude Code hooks: hooks on ${snapshot.unmapped.join(', ')} load but never run: Seam does not fire these events yet`)
  if (snapshot.disabledBy !== undefined) logger.info(`Claude Code hooks are off: disableAllHooks is true in ${snapshot.disabledBy}`)
}

