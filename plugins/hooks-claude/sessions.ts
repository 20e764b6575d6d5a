// The sessions the bridge has seen, by id. Tool-stage listeners only get a SealedCall (with its
// sessionId), so the agent handle captured at agent/session-start and agent/prompt-submit is
// how they record hook/* events and notify the user. Kept per kernel, outside the plugin
// instance, so a restart of the plugin (a trust change re-provides `workspace`) keeps them.
import type { AgentHandle, SessionEventInput, SubagentIdentity } from '@seam/sdk'
import type { Logger } from '@seam/sdk'
import { removeEnvFile } from './env'
import type { ClaudeTranscript } from './transcript'

export interface SessionEntry {
  agent: AgentHandle
  /** CLAUDE_ENV_FILE of this session (created at SessionStart). */
  envFile?: { dir: string; file: string }
  /** Load warnings and the untrusted-workspace notice are shown once per session. */
  loadNoticeShown: boolean
  /** Consecutive Stop-hook blocks in `turnId`. */
  stopBlocks: { turnId?: string; count: number }
  /** Cancels this session's async hooks when it ends. */
  readonly asyncHooks: AbortController
  /** The Claude Code-format transcript hooks read (created when a hook first runs). */
  transcript?: ClaudeTranscript
  /** Set once the transcript could not be written (the user is told once). */
  transcriptFailed?: boolean
  /**
   * Set on a subagent's entry: who it is and the session it runs for. Its hooks get the session's
   * `transcript_path` and `prompt_id` plus `agent_id`/`agent_type`; its own transcript is
   * SubagentStop's `agent_transcript_path`.
   */
  subagent?: { identity: SubagentIdentity; parent: SessionEntry }
}

const registries = new WeakMap<object, Map<string, SessionEntry>>()

export function sessionRegistry(kernel: object): Map<string, SessionEntry> {
  let registry = registries.get(kernel)
  if (!registry) registries.set(kernel, (registry = new Map()))
  return registry
}

/** The entry for `agent`'s session, created on first sight; the handle is refreshed each time. */
export function capture(registry: Map<string, SessionEntry>, agent: AgentHandle): SessionEntry {
  let entry = registry.get(agent.sessionId)
  if (!entry) {
    entry = { agent, loadNoticeShown: false, stopBlocks: { count: 0 }, asyncHooks: new AbortController() }
    registry.set(agent.sessionId, entry)
  } else if (!agent.subagent) {
    // A subagent's handle shares its parent's session id but records into its own log: the session's stays.
    entry.agent = agent
  }
  return entry
}

/** Running subagents' entries, by agent id (per kernel, as the sessions). */
const subagentRegistries = new WeakMap<object, Map<string, SessionEntry>>()

export function subagentRegistry(kernel: object): Map<string, SessionEntry> {
  let registry = subagentRegistries.get(kernel)
  if (!registry) subagentRegistries.set(kernel, (registry = new Map()))
  return registry
}

/** A subagent's entry (its handle is the child's), created on first sight under its session's entry. */
export function captureSubagent(subagents: Map<string, SessionEntry>, parent: SessionEntry, agent: AgentHandle & { subagent: SubagentIdentity }): SessionEntry {
  let entry = subagents.get(agent.subagent.agentId)
  if (!entry) {
    entry = { agent, loadNoticeShown: true, stopBlocks: { count: 0 }, asyncHooks: new AbortController(), subagent: { identity: agent.subagent, parent } }
    subagents.set(agent.subagent.agentId, entry)
  }
  return entry
}

/** Forgets a subagent that ended: its async hooks end with it. */
export function releaseSubagent(subagents: Map<string, SessionEntry>, agentId: string): void {
  const entry = subagents.get(agentId)
  if (!entry) return
  subagents.delete(agentId)
  entry.asyncHooks.abort(new Error('the subagent ended'))
}

export function release(registry: Map<string, SessionEntry>, sessionId: string): void {
  const entry = registry.get(sessionId)
  if (!entry) return
  registry.delete(sessionId)
  entry.asyncHooks.abort(new Error('the session ended'))
  if (entry.envFile) removeEnvFile(entry.envFile.dir)
}

/** Where a hook run's records and notices go. */
export interface HookSink {
  record(event: SessionEventInput): void
  notify(level: 'info' | 'warn' | 'error', text: string, source: string): void
}

/** Records into the session when there is one; the log only when there is not (a call outside any agent). Never throws. */
export function sinkFor(entry: SessionEntry | undefined, logger: Logger): HookSink {
  return {
    record(event) {
      if (!entry) return
      try {
        entry.agent.record(event)
      } catch (error) {
        logger.warn(`could not record ${event.type} in session ${entry.agent.sessionId}: ${(error as Error).message}`)
      }
    },
    notify(level, text, source) {
      if (level === 'info') logger.info(text)
      else logger.warn(text)
      if (!entry) return
      try {
        entry.agent.notify(level, text, source)
      } catch (error) {
        logger.warn(`could not notify session ${entry.agent.sessionId}: ${(error as Error).message}`)
      }
    }
  }
}

/**
 * The sink of a tool call's PreToolUse hooks, which run before the call is sealed: `hook/invoked`
 * is written when the hook starts (without a token yet), `hook/result` is held until the call's
 * token is known and carries it; once sealed, both are stamped and pass straight through.
 */
export class CallSink implements HookSink {
  private token: string | undefined
  private held: SessionEventInput[] = []

  constructor(private readonly inner: HookSink) {}

  record(event: SessionEventInput): void {
    if (this.token !== undefined) this.inner.record(this.stamp(event, this.token))
    // A hook that starts is written at once (the UI shows it running, with its statusMessage);
    // its result waits for the call's token, which ties the invocation to the call.
    else if (event.type === 'hook/invoked') this.inner.record(event)
    else this.held.push(event)
  }

  notify(level: 'info' | 'warn' | 'error', text: string, source: string): void {
    this.inner.notify(level, text, source)
  }

  /** Flushes what was held, stamped with `token`; later records pass straight through. */
  seal(token: string): void {
    if (this.token !== undefined) return
    this.token = token
    for (const event of this.held.splice(0)) this.inner.record(this.stamp(event, token))
  }

  private stamp(event: SessionEventInput, token: string): SessionEventInput {
    if (token === '' || (event.type !== 'hook/invoked' && event.type !== 'hook/result') || event.toolCallToken !== undefined) return event
    return { ...event, toolCallToken: token }
  }
}
