// Per-call state between the tool stages: PreToolUse runs once, in tools/input-rewrite (before
// sealing, so its updatedInput can go through S18); tools/pre-execute then returns the decision
// it cached, and tools/post-execute reads the call's start time and PreToolUse context.
import type { EventRun } from './invoke'
import type { CallSink } from './sessions'

export interface CallState {
  startedAt: number
  /** PreToolUse, when it has handlers for this call. */
  pre?: { run: Promise<EventRun | undefined>; sink: CallSink }
  /** PreToolUse additionalContext, delivered after the tool result. */
  context: string[]
}

/** Bounded: a call that never reaches post-execute cannot grow this without limit. */
const MAX_CALLS = 10_000

export class ToolCallStates {
  private readonly calls = new Map<string, CallState>()

  static key(sessionId: string, callId: string): string {
    return `${sessionId}\u0000${callId}`
  }

  open(key: string): CallState {
    if (this.calls.size >= MAX_CALLS) {
      const oldest = this.calls.keys().next().value
      if (oldest !== undefined) this.calls.delete(oldest)
    }
    const state: CallState = { startedAt: performance.now(), context: [] }
    this.calls.set(key, state)
    return state
  }

  get(key: string): CallState | undefined {
    return this.calls.get(key)
  }

  /** Removes and returns the state (post-execute is the last stage every sealed call reaches). */
  take(key: string): CallState | undefined {
    const state = this.calls.get(key)
    this.calls.delete(key)
    return state
  }

  get size(): number {
    return this.calls.size
  }
}
