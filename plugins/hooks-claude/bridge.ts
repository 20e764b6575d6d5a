// What every event mapping shares: the invoker, the sessions seen so far, the configuration,
// and the helpers that build one occurrence of an event for a session.
import path from 'node:path'
import type { AgentHandle, SubagentIdentity } from '@seam/sdk'
import type { Logger } from '@seam/sdk'
import type { KeyGuard } from '@seam/sdk/node'
import { anySignal, claudePermissionMode, type ClaudeHookEvent, type ClaudePermissionMode } from '../hook-protocol/index'
import type { HooksClaudeConfig } from './config'
import { hookEnv } from './env'
import { WITH_EFFORT, baseOf, hookInput, type InputBase } from './input'
import type { HookInvoker, HookRun, Occurrence } from './invoke'
import type { ClaudeMcpServer } from './mcp-server'
import { capture, captureSubagent, sinkFor, type HookSink, type SessionEntry } from './sessions'
import { ClaudeTranscript, claudeTranscriptPath, subagentTranscriptPath } from './transcript'

export interface Bridge {
  readonly invoker: HookInvoker
  readonly sessions: Map<string, SessionEntry>
  /** Running subagents, by agent id (their calls carry `agent`; their turns' handles `subagent`). */
  readonly subagents: Map<string, SessionEntry>
  readonly logger: Logger
  readonly config: HooksClaudeConfig
  /** The workspace folder of the host (CLAUDE_PROJECT_DIR when a call has no session). */
  readonly workspaceRoot: string | null
  /** Aborted when the bridge is disposed: every hook it started is killed. */
  readonly disposed: AbortSignal
  /** Strips Seam's provider keys from every hook's environment, after everything else is merged. */
  readonly keys: () => Pick<KeyGuard, 'childEnv'>
  /** The approval mode in force as Claude Code's `permission_mode`, read per event (settings edits apply at once). */
  permissionMode(sessionId?: string): ClaudePermissionMode
  /** The MCP server a `mcp__…` tool comes from, for `mcp_server` (undefined for other tools). */
  mcpServer(toolName: string, sessionId: string): ClaudeMcpServer | undefined
}

/** `{mcp_server}` for an MCP tool's events, `{}` for any other tool: spread right after `tool_use_id`. */
export function mcpServerField(bridge: Bridge, toolName: string, sessionId: string): { mcp_server?: ClaudeMcpServer } {
  const server = bridge.mcpServer(toolName, sessionId)
  return server ? { mcp_server: server } : {}
}

/** Records the session (tool stages need it later) and returns its entry. */
export function seeSession(bridge: Bridge, agent: AgentHandle): SessionEntry {
  return capture(bridge.sessions, agent)
}

/** The entry hooks of `agent` run under: a subagent's own (under its session's) or the session's. */
export function seeAgent(bridge: Bridge, agent: AgentHandle): SessionEntry {
  const session = capture(bridge.sessions, agent)
  return agent.subagent ? captureSubagent(bridge.subagents, session, agent as AgentHandle & { subagent: SubagentIdentity }) : session
}

/** The entry a tool call's hooks run under: the subagent's when a subagent made the call. */
export function entryOf(bridge: Bridge, call: { sessionId: string; agent?: Readonly<SubagentIdentity> }): SessionEntry | undefined {
  return (call.agent ? bridge.subagents.get(call.agent.agentId) : undefined) ?? bridge.sessions.get(call.sessionId)
}

export interface OccurrenceOptions {
  /** The session id when the bridge has not seen the session (a call outside any agent). */
  sessionId?: string
  /** The directory the hooks run in (a tool call's cwd); default: the session's. */
  cwd?: string
  envFile?: string
  sink?: HookSink
  tool?: Occurrence['tool']
  toolCallToken?: string
  onAsyncDone?(run: HookRun): void
  /** `prompt_id` when the session has no running turn (the turn the event follows). */
  promptId?: string
}

/** One occurrence of `event` for `entry`'s session (or for the `fallback` base when there is none). */
export function occurrence(bridge: Bridge, event: ClaudeHookEvent, entry: SessionEntry | undefined, fields: Record<string, unknown>, options: OccurrenceOptions = {}): Occurrence {
  const session = entry?.subagent?.parent ?? entry
  const base: InputBase = entry
    ? { ...baseOf(entry.agent, bridge.permissionMode(entry.agent.sessionId), entry.agent.turnEffort ?? bridge.config.effort), transcriptPath: claudeTranscriptPath(session!.agent) }
    : { sessionId: options.sessionId ?? '', transcriptPath: '', cwd: bridge.workspaceRoot ?? process.cwd(), permissionMode: bridge.permissionMode(options.sessionId), effort: bridge.config.effort }
  if (entry?.subagent) {
    // A subagent's hooks speak for its session: its transcript and prompt, plus who the agent is.
    base.agent = entry.subagent.identity
    // The subagent's own permissionMode, unless the session bypasses permissions (the policy's rule).
    const own = entry.subagent.identity.permissionMode
    if (own !== undefined && base.permissionMode !== 'bypassPermissions') base.permissionMode = claudePermissionMode(own)
    delete base.promptId
    if (session!.agent.currentTurnId !== undefined) base.promptId = session!.agent.currentTurnId
  }
  if (options.cwd !== undefined) base.cwd = options.cwd
  if (base.promptId === undefined && options.promptId !== undefined) base.promptId = options.promptId
  const projectDir = entry?.agent.workspace ?? bridge.workspaceRoot ?? base.cwd
  const envOptions = {
    sessionEnv: entry?.agent.env,
    projectDir,
    sessionId: base.sessionId,
    cwd: base.cwd,
    envFile: options.envFile,
    ...(WITH_EFFORT.has(event) ? { effort: base.effort } : {})
  }
  const result: Occurrence = {
    event,
    input: hookInput(event, base, fields),
    cwd: base.cwd,
    projectDir,
    env: bridge.keys().childEnv(hookEnv(envOptions)),
    sink: options.sink ?? sinkFor(entry, bridge.logger)
  }
  // Synchronous handlers end with the turn (cancel) and with the bridge; async ones with the session and the bridge.
  const signal = anySignal(entry?.agent.turnSignal, bridge.disposed)
  if (signal) result.signal = signal
  const asyncSignal = anySignal(entry?.asyncHooks.signal, bridge.disposed)
  if (asyncSignal) result.asyncSignal = asyncSignal
  if (entry) {
    result.beforeRun = () => {
      if (entry.subagent) syncTranscript(bridge, entry.subagent.parent)
      syncTranscript(bridge, entry)
    }
    result.largeOutputDir = path.join(claudeTranscriptPath(session!.agent).replace(/\.jsonl$/, ''), 'tool-results')
  }
  if (options.tool) result.tool = options.tool
  if (options.toolCallToken !== undefined) result.toolCallToken = options.toolCallToken
  if (options.onAsyncDone) result.onAsyncDone = options.onAsyncDone
  return result
}

/** Brings the session's Claude Code-format transcript up to date before its hooks start (§8). */
function syncTranscript(bridge: Bridge, entry: SessionEntry): void {
  try {
    entry.transcript ??= entry.subagent
      ? new ClaudeTranscript(entry.agent, { path: subagentTranscriptPath(entry.subagent.parent.agent, entry.subagent.identity.agentId), agentId: entry.subagent.identity.agentId })
      : new ClaudeTranscript(entry.agent)
    entry.transcript.sync(entry.agent, bridge.permissionMode(entry.agent.sessionId))
  } catch (error) {
    if (entry.transcriptFailed) return
    entry.transcriptFailed = true
    const text = `Claude Code hooks: could not write the transcript ${entry.transcript?.path ?? ''}: ${(error as Error).message}; hooks that read transcript_path will not find it`
    bridge.logger.warn(text)
    try {
      entry.agent.notify('warn', text, 'hooks-claude')
    } catch {
      // The session closed meanwhile: the log has the warning.
    }
  }
}

/** A hook's `systemMessage` is for the user only (never the model). */
export function showSystemMessages(runs: readonly HookRun[], sink: HookSink, event: ClaudeHookEvent): void {
  for (const run of runs) {
    if (run.outcome.systemMessage) sink.notify('info', run.outcome.systemMessage, `hook:${event}`)
  }
}

/** `continue: false` from any hook: the first stopReason in configuration order. */
export function stopRequest(runs: readonly HookRun[]): { reason: string } | undefined {
  const stoppers = runs.filter((run) => run.outcome.continue === false)
  if (stoppers.length === 0) return undefined
  const reason = stoppers.find((run) => run.outcome.stopReason !== undefined)?.outcome.stopReason
  return { reason: reason ?? 'a hook answered continue: false' }
}

/** The async answer's texts, delivered to the model without a prefix on its next request (as Claude Code does). */
export function deliverAsync(entry: SessionEntry | undefined, run: HookRun, event: ClaudeHookEvent): void {
  if (!entry) return
  const texts = [run.outcome.additionalContext].filter((text): text is string => typeof text === 'string' && text !== '')
  for (const text of texts) {
    try {
      entry.agent.inject(text, `hook:${event}`)
    } catch {
      // The session closed meanwhile: nothing to deliver to.
    }
  }
  if (run.outcome.systemMessage) {
    try {
      entry.agent.notify('info', run.outcome.systemMessage, `hook:${event}`)
    } catch {
      // closed
    }
  }
}
