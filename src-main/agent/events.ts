// Live pushes of the loop (not durable, never model-visible): stream deltas, tool progress and
// the agent's state for the UI. Durable events go through the session log (`session/appended`).
import type { ToolProgress } from '../../src-shared/host/tools'
import type { SubagentIdentity } from '../../src-shared/host/extensions'
import type { SessionEvent } from '../../src-shared/session/events'

export interface AgentState {
  /** A turn is open or about to open (session start, queued prompts). */
  running: boolean
  turnId?: string
  /** Prompts waiting to open a turn. */
  queued: number
  /** Messages waiting to steer the running turn at its next step. */
  steering: number
}

export interface AgentDelta {
  turnId: string
  step: number
  kind: 'text' | 'thinking'
  text: string
}

export interface AgentToolProgress extends ToolProgress {
  turnId: string
  callId: string
}

declare module '../../src-shared/kernel/types' {
  interface Events {
    /** A fragment of the streaming assistant message; the final message is logged when the stream ends. */
    'agent/delta': (sessionId: string, delta: AgentDelta) => void
    /** Emitted whenever `agent.state` changes. */
    'agent/state': (sessionId: string, state: AgentState) => void
    /** Live output of a running tool (e.g. Bash's stdout). */
    'agent/tool-progress': (sessionId: string, progress: AgentToolProgress) => void
    /** An event a running subagent's log recorded (`sessionId`: its parent session), after it is in the file. */
    'agent/subagent-appended': (sessionId: string, agent: SubagentIdentity, event: SessionEvent) => void
  }
}
