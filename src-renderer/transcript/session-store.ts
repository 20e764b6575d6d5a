// The open session: its events, the transcript built from them, live deltas, tool progress, the
// agent's state and messages sent but not yet in the log. Fed by sessions/open and host pushes.
import { create } from 'zustand'
import type { AgentStatePublic, MethodOutput } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import { providerHealthActions } from '../app/provider-health'
import { composerActions } from '../composer/composer-store'
import { appendEvents, applyDeltas, buildTranscript, clearLive, emptyTranscript } from './build-transcript'
import type { AgentDelta, Transcript } from './transcript-types'

export interface ProgressChunk { stream: 'stdout' | 'stderr' | 'info'; text: string }
/** sending: chat/send has not replied; steering / turn: the reply's `queued`. */
export interface QueuedMessage { id: number; content: string; mode: 'sending' | 'steering' | 'turn' }

/** An event the view scrolls to and marks once the session is loaded (a search match), with the words to mark. */
export interface TranscriptFocus { seq: number; words: readonly string[] }

export interface SessionViewState {
  sessionId: string | null
  focus: TranscriptFocus | null
  loading: boolean
  error: string | null
  warnings: string[]
  events: readonly SessionEvent[]
  transcript: Transcript
  agent: AgentStatePublic | null
  /** Live tool output by progressKey(turnId, callId). */
  progress: Readonly<Record<string, readonly ProgressChunk[]>>
  queued: readonly QueuedMessage[]
}

/**
 * Live output kept per call: its tail. Laying out a bigger <pre> on every frame janks the whole
 * window, and the final result (the host caps it near 30k characters) replaces it anyway.
 */
const PROGRESS_MAX_CHARS = 20_000

const empty: SessionViewState = {
  sessionId: null, focus: null, loading: false, error: null, warnings: [], events: [], transcript: emptyTranscript, agent: null, progress: {}, queued: []
}

export const useSessionStore = create<SessionViewState>()(() => ({ ...empty }))

/** Events pushed while sessions/open is in flight; applied after the replay (duplicates drop by seq). */
let buffered: SessionEvent[] = []
let nextQueuedId = 1

const set = useSessionStore.setState
const get = useSessionStore.getState

export const sessionActions = {
  begin(sessionId: string, focus?: TranscriptFocus): void {
    buffered = []
    set({ ...empty, sessionId, focus: focus ?? null, loading: true })
  },
  loaded(opened: MethodOutput<'sessions/open'>): void {
    if (opened.id !== get().sessionId) return
    const events = [...opened.events, ...buffered.filter((e) => e.seq > lastSeqOf(opened.events))]
    buffered = []
    set({ loading: false, error: null, warnings: opened.warnings, events, transcript: buildTranscript(events), agent: opened.state })
  },
  failed(sessionId: string, message: string): void {
    if (sessionId === get().sessionId) set({ loading: false, error: message })
  },
  close(): void {
    buffered = []
    set({ ...empty })
  },
  appendEvent(sessionId: string, event: SessionEvent): void {
    const state = get()
    if (sessionId !== state.sessionId) return
    if (state.loading) {
      buffered.push(event)
      return
    }
    const transcript = appendEvents(state.transcript, [event])
    if (transcript === state.transcript) return
    providerHealthActions.observe(event)
    // A failed turn gives its prompt back to the composer, ready to edit or send again.
    if (event.type === 'turn/end' && event.reason === 'error') {
      const prompt = state.events.find((e) => e.type === 'user/message' && e.turnId === event.turnId)
      if (prompt?.type === 'user/message') composerActions.restore(prompt.originalContent ?? prompt.content)
    }
    set({
      events: [...state.events, event],
      transcript,
      queued: withoutLogged(state.queued, event),
      progress: event.type === 'tool/result' ? omit(state.progress, progressKey(event.turnId, event.callId)) : state.progress
    })
  },
  applyDeltas(sessionId: string, deltas: readonly AgentDelta[]): void {
    const state = get()
    if (sessionId !== state.sessionId || state.loading) return
    const transcript = applyDeltas(state.transcript, deltas)
    if (transcript !== state.transcript) set({ transcript })
  },
  setAgent(agent: AgentStatePublic): void {
    const state = get()
    if (agent.sessionId !== state.sessionId) return
    if (agent.running) return set({ agent })
    const idle = agent.queued === 0 && agent.steering === 0
    set({ agent, transcript: clearLive(state.transcript), queued: idle ? state.queued.filter((q) => q.mode === 'sending') : state.queued })
  },
  addProgress(sessionId: string, key: string, chunks: readonly ProgressChunk[]): void {
    const state = get()
    if (sessionId !== state.sessionId || chunks.length === 0) return
    set({ progress: { ...state.progress, [key]: mergeChunks(state.progress[key] ?? [], chunks) } })
  },
  addQueued(content: string): number {
    const id = nextQueuedId++
    set({ queued: [...get().queued, { id, content, mode: 'sending' }] })
    return id
  },
  setQueuedMode(id: number, mode: 'steering' | 'turn'): void {
    set({ queued: get().queued.map((q) => (q.id === id ? { ...q, mode } : q)) })
  },
  removeQueued(id: number): void {
    set({ queued: get().queued.filter((q) => q.id !== id) })
  }
}

/** Where a call's live output is kept: tool/progress names the call by turn and callId. */
export function progressKey(turnId: string, callId: string): string {
  return `${turnId}\n${callId}`
}

function lastSeqOf(events: readonly SessionEvent[]): number {
  return events.length ? events[events.length - 1].seq : -1
}

/** A queued message leaves the list when the log records it (as sent, rewritten or blocked). */
function withoutLogged(queued: readonly QueuedMessage[], event: SessionEvent): readonly QueuedMessage[] {
  if (queued.length === 0) return queued
  const texts: string[] = []
  if (event.type === 'user/message') texts.push(event.content, event.originalContent ?? event.content)
  else if (event.type === 'steering/message' && event.source === 'user') texts.push(event.text)
  else if (event.type === 'prompt/blocked') texts.push(event.prompt)
  else return queued
  const at = queued.findIndex((q) => texts.includes(q.content))
  return at < 0 ? queued : [...queued.slice(0, at), ...queued.slice(at + 1)]
}

function mergeChunks(previous: readonly ProgressChunk[], chunks: readonly ProgressChunk[]): ProgressChunk[] {
  const out = previous.slice()
  for (const chunk of chunks) {
    const last = out[out.length - 1]
    if (last && last.stream === chunk.stream) out[out.length - 1] = { stream: last.stream, text: last.text + chunk.text }
    else out.push({ ...chunk })
  }
  let total = out.reduce((n, c) => n + c.text.length, 0)
  while (total > PROGRESS_MAX_CHARS && out.length > 0) {
    const over = total - PROGRESS_MAX_CHARS
    if (out[0].text.length <= over) total -= out.shift()!.text.length
    else {
      out[0] = { stream: out[0].stream, text: out[0].text.slice(over) }
      total -= over
    }
  }
  return out
}

function omit<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!(key in record)) return record
  const copy = { ...record }
  delete copy[key]
  return copy
}
