// The subagents of the open session as their cards show them: each one's own events (its child
// log, `subagents/events`, plus the `subagent/appended` pushes while it runs), the transcript built
// from them and its streamed text (`agent/delta` names the subagent by its agent id). Emptied when
// the view shows another session.
import { create } from 'zustand'
import type { HostApi } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import { errorText } from '../app/errors'
import { useSessionStore } from '../transcript/session-store'
import { appendEvents, applyDeltas, buildTranscript, clearLive, emptyTranscript } from '../transcript/build-transcript'
import type { AgentDelta, Transcript } from '../transcript/transcript-types'

export interface SubagentLog {
  sessionId: string
  /** Events in seq order (what was loaded, then what was pushed). */
  events: readonly SessionEvent[]
  transcript: Transcript
  /** The child log was read (a card opened); before that only pushed events are known. */
  loaded: boolean
  loading: boolean
  error: string | null
}

interface SubagentState {
  /** The session whose subagents are held. */
  sessionId: string | null
  byAgent: Readonly<Record<string, SubagentLog>>
}

export const useSubagentStore = create<SubagentState>()(() => ({ sessionId: null, byAgent: {} }))

const set = useSubagentStore.setState
const get = useSubagentStore.getState

const blank = (sessionId: string): SubagentLog => ({ sessionId, events: [], transcript: emptyTranscript, loaded: false, loading: false, error: null })

function update(agentId: string, sessionId: string, change: (log: SubagentLog) => SubagentLog): void {
  const state = get()
  // Another session's subagents are dropped when the view moves on.
  const byAgent = state.sessionId === sessionId ? state.byAgent : {}
  const current = byAgent[agentId] ?? blank(sessionId)
  const next = change(current)
  if (next !== current || state.sessionId !== sessionId) set({ sessionId, byAgent: { ...byAgent, [agentId]: next } })
}

export const subagentActions = {
  /** An event a running subagent recorded (the `subagent/appended` push). */
  append(sessionId: string, agentId: string, event: SessionEvent): void {
    if (sessionId !== useSessionStore.getState().sessionId) return
    update(agentId, sessionId, (log) => {
      if (log.events.length > 0 && event.seq <= log.events[log.events.length - 1].seq) return log
      const transcript = appendEvents(log.transcript, [event])
      return { ...log, events: [...log.events, event], transcript: event.type === 'turn/end' ? clearLive(transcript) : transcript }
    })
  },
  /** Streamed text of a subagent's step: `agent/delta` whose session id is a known agent id. */
  applyDelta(agentId: string, delta: AgentDelta): boolean {
    const log = get().byAgent[agentId]
    if (!log) return false
    const transcript = applyDeltas(log.transcript, [delta])
    if (transcript !== log.transcript) set({ byAgent: { ...get().byAgent, [agentId]: { ...log, transcript } } })
    return true
  },
  /** Reads the subagent's own log (once per card); pushed events newer than it are kept. */
  async load(host: HostApi, sessionId: string, agentId: string): Promise<void> {
    const existing = get().sessionId === sessionId ? get().byAgent[agentId] : undefined
    if (existing?.loaded || existing?.loading) return
    update(agentId, sessionId, (log) => ({ ...log, loading: true, error: null }))
    try {
      const { events } = await host.invoke('subagents/events', { sessionId, agentId })
      update(agentId, sessionId, (log) => {
        const last = events.length > 0 ? events[events.length - 1].seq : -1
        const later = log.events.filter((event) => event.seq > last)
        const all = [...events, ...later]
        const built = buildTranscript(all)
        // The step streaming now (agent/delta) stays shown until its message is recorded.
        const live = log.transcript.live
        const transcript = live && !built.index.has(`step:${live.turnId}:${live.step}`) ? { ...built, live } : built
        return { ...log, events: all, transcript, loaded: true, loading: false }
      })
    } catch (error) {
      update(agentId, sessionId, (log) => ({ ...log, loading: false, error: errorText(error) }))
    }
  },
  reset(): void {
    set({ sessionId: null, byAgent: {} })
  }
}

/** A running subagent's usage so far (its usage/step events), before its `subagent/end` sums it. */
export function usageSoFar(events: readonly SessionEvent[]): { inputTokens: number; outputTokens: number; costUsd: number | undefined; toolUseCount: number } {
  let inputTokens = 0
  let outputTokens = 0
  let costUsd: number | undefined
  let toolUseCount = 0
  for (const event of events) {
    if (event.type === 'usage/step') {
      inputTokens += event.usage.inputTokens
      outputTokens += event.usage.outputTokens
      if (event.costUsd !== undefined) costUsd = (costUsd ?? 0) + event.costUsd
    } else if (event.type === 'tool/result') toolUseCount++
  }
  return { inputTokens, outputTokens, costUsd, toolUseCount }
}
