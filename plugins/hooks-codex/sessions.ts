// Per-session bridge state, captured from the agent seams (session-start, prompt-submit) so the
// tool-stage listeners, which only see a session id, can record and notify through the agent.
// The registry belongs to the kernel, not to one plugin instance: a restart of the bridge (the
// workspace service is re-provided when trust changes) must not forget running sessions, nor
// run SessionStart a second time.
import { closeSync, openSync, readSync } from 'node:fs'
import type { AgentHandle, SubagentIdentity } from '@seam/sdk'
import type { Kernel } from '@seam/sdk'
import type { CodexRollout } from './rollout'

export interface PreToolEntry {
  /** Set when the call must not run: the deny reason and the text the model reads. */
  deny?: { reason: string; modelText: string }
  /** Context from PreToolUse hooks, delivered with the call's result (S17). */
  context: string[]
}

export interface SessionState {
  agent: AgentHandle
  /** SessionStart ran (or the bridge joined an already running session). */
  started: boolean
  /** SessionStart said `continue: false`: the prompts of the turn that triggered it are dropped. */
  dropTurn?: { reason: string; turnId?: string }
  /** Stop re-entry within one turn. */
  stop: { turnId?: string; active: boolean; blocks: number }
  /** Notices already shown to this session (load warnings, skipped hooks). */
  shown: Set<string>
  model?: string
  /** The rollout-style file hooks read as transcript_path (created when a hook first runs). */
  rollout?: CodexRollout
  rolloutFailed?: boolean
  /** Set on a subagent's state: who it is and its session's state (Codex: the child thread). */
  subagent?: { identity: SubagentIdentity; parent: SessionState }
}

export class SessionRegistry {
  readonly sessions = new Map<string, SessionState>()
  /** PreToolUse results, run once per call in the rewrite stage, by `sessionId\0callId`. */
  readonly preTool = new Map<string, PreToolEntry>()
  /** Running subagents' states, by agent id. */
  readonly subagents = new Map<string, SessionState>()

  /** The session's state (a subagent's own, under its session's), created (or re-pointed at a new handle) as needed. */
  capture(agent: AgentHandle): SessionState {
    const session = this.captureSession(agent)
    if (!agent.subagent) return session
    let child = this.subagents.get(agent.subagent.agentId)
    if (!child) {
      child = { agent, started: true, stop: { active: false, blocks: 0 }, shown: session.shown, subagent: { identity: agent.subagent, parent: session } }
      this.subagents.set(agent.subagent.agentId, child)
    }
    return child
  }

  /** A subagent ended: its state goes. */
  forgetSubagent(agentId: string): void {
    this.subagents.delete(agentId)
  }

  private captureSession(agent: AgentHandle): SessionState {
    let state = this.sessions.get(agent.sessionId)
    if (!state) {
      state = { agent, started: false, stop: { active: false, blocks: 0 }, shown: new Set() }
      this.sessions.set(agent.sessionId, state)
    }
    // A subagent's handle shares its parent's session id but records into its own log: the session's stays.
    if (!agent.subagent) state.agent = agent
    return state
  }

  /** The state a call's hooks run under: the subagent's when a subagent made the call. */
  get(sessionId: string, agent?: Readonly<SubagentIdentity>): SessionState | undefined {
    return (agent ? this.subagents.get(agent.agentId) : undefined) ?? this.sessions.get(sessionId)
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId)
    for (const [agentId, child] of this.subagents) if (child.agent.sessionId === sessionId) this.subagents.delete(agentId)
    for (const key of this.preTool.keys()) if (key.startsWith(`${sessionId}\0`)) this.preTool.delete(key)
  }
}

const registries = new WeakMap<Kernel, SessionRegistry>()

export function sessionRegistry(kernel: Kernel): SessionRegistry {
  let registry = registries.get(kernel)
  if (!registry) registries.set(kernel, (registry = new SessionRegistry()))
  return registry
}

export function callKey(sessionId: string, callId: string): string {
  return `${sessionId}\0${callId}`
}

/** The model named in the session log's header (read once per session), else ''. */
export function sessionModel(state: SessionState): string {
  if (state.subagent) return sessionModel(state.subagent.parent)
  if (state.model !== undefined) return state.model
  state.model = ''
  let fd: number | undefined
  try {
    fd = openSync(state.agent.transcriptPath, 'r')
    const buffer = Buffer.alloc(64 * 1024)
    const read = readSync(fd, buffer, 0, buffer.length, 0)
    const first = buffer.subarray(0, read).toString('utf8').split('\n')[0]
    const header: unknown = JSON.parse(first)
    if (typeof header === 'object' && header !== null && 'model' in header) {
      const model = (header as { model?: { model?: unknown } }).model?.model
      if (typeof model === 'string') state.model = model
    }
  } catch {
    // No readable header: hooks get an empty model name.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  return state.model
}
