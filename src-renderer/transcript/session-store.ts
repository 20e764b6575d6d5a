// The open session: its events, the transcript built from them, live deltas, tool progress, the
// agent's state and messages sent but not yet in the log. Fed by sessions/open and host pushes.
import { create } from 'zustand'
import type { AgentStatePublic, MethodOutput } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import type { ImageAttachment } from '../../src-shared/session/attachments'
import { providerHealthActions } from '../app/provider-health'
import { composerActions } from '../composer/composer-store'
import { nextTask } from '../app/next-task'
import { appendEvents, applyDeltas, buildTranscript, clearLive, emptyTranscript } from './build-transcript'
import type { AgentDelta, Transcript } from './transcript-types'

export interface ProgressChunk { stream: 'stdout' | 'stderr' | 'info'; text: string }
/** sending: chat/send has not replied; steering / turn: the reply's `queued`. */
export interface QueuedMessage { id: number; content: string; mode: 'sending' | 'steering' | 'turn'; images?: readonly ImageAttachment[] }

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
  /** Tool cards the user opened (true) or closed (false) by item key; others follow their status. */
  toolOpen: Readonly<Record<string, boolean>>
}

/**
 * Live output kept per call: its tail. Laying out a bigger <pre> on every frame janks the whole
 * window, and the final result (the host caps it near 30k characters) replaces it anyway.
 */
const PROGRESS_MAX_CHARS = 20_000

const empty: SessionViewState = {
  sessionId: null, focus: null, loading: false, error: null, warnings: [], events: [], transcript: emptyTranscript, agent: null, progress: {}, queued: [], toolOpen: {}
}

/** A further page of the open session's log (sessions/events). */
export type SessionPage = MethodOutput<'sessions/events'>
/** A sessions/open reply holding the whole log. */
type OpenedLog = Omit<MethodOutput<'sessions/open'>, 'total' | 'nextSeq'>
const noMorePages = (): Promise<SessionPage> => Promise.resolve({ events: [], nextSeq: null })

export const useSessionStore = create<SessionViewState>()(() => ({ ...empty }))

/** Events pushed while sessions/open is in flight; applied after the replay (duplicates drop by seq). */
let buffered: SessionEvent[] = []
/** Counts begin() and close(): a load started before the latest one shows nothing. */
let loads = 0
let nextQueuedId = 1

const set = useSessionStore.setState
const get = useSessionStore.getState

export const sessionActions = {
  setToolOpen(key: string, open: boolean): void {
    set({ toolOpen: { ...get().toolOpen, [key]: open } })
  },
  begin(sessionId: string, focus?: TranscriptFocus): void {
    buffered = []
    loads++
    set({ ...empty, sessionId, focus: focus ?? null, loading: true })
  },
  /** Replays a whole opened log into the view at once (tests, small logs); paging fields are not needed. */
  loaded(opened: OpenedLog): void {
    if (opened.id !== get().sessionId) return
    show(opened, buildTranscript(opened.events))
  },
  /**
   * The same for a paged log, spread over tasks: each page arrives as its own message (its own
   * task), the transcript is built page by page in the tasks after, and rendered in the last one. A
   * 10k-event session done in one task blocks the window for their sum. The next page is asked for
   * before the current one is built. Events pushed meanwhile are buffered and applied in the last
   * step; a page or push repeating a seq already taken is dropped. Nothing is shown if the view has
   * moved on (another session, or this one opened again) by the time a step runs.
   */
  async loadedInSteps(opened: MethodOutput<'sessions/open'>, nextPage: (fromSeq: number) => Promise<SessionPage> = noMorePages): Promise<void> {
    const load = loads
    const current = () => load === loads && opened.id === get().sessionId && get().loading
    if (!current()) return
    // A page asked for and then not awaited (the view moved on) must not fail as an unhandled rejection.
    const ask = (fromSeq: number) => {
      const page = nextPage(fromSeq)
      page.catch(() => {})
      return page
    }
    let events: SessionEvent[] = opened.events
    let fetching = opened.nextSeq === null ? null : ask(opened.nextSeq)
    await nextTask()
    if (!current()) return
    let built = buildTranscript(opened.events)
    while (fetching) {
      const page = await fetching
      if (!current()) return
      fetching = page.nextSeq === null ? null : ask(page.nextSeq)
      await nextTask()
      if (!current()) return
      const fresh = page.events.filter((event) => event.seq > lastSeqOf(events))
      events = events.concat(fresh)
      built = appendEvents(built, fresh)
    }
    await nextTask()
    if (current()) show({ ...opened, events }, built)
  },
  failed(sessionId: string, message: string): void {
    if (sessionId === get().sessionId) set({ loading: false, error: message })
  },
  close(): void {
    buffered = []
    loads++
    set({ ...empty })
  },
  /** No session is open and the one asked for (a link) does not exist: the view says so. */
  notFound(message: string): void {
    buffered = []
    loads++
    set({ ...empty, error: message })
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
  addQueued(content: string, images: readonly ImageAttachment[] = []): number {
    const id = nextQueuedId++
    set({ queued: [...get().queued, { id, content, mode: 'sending', ...(images.length > 0 ? { images } : {}) }] })
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

/** Shows the opened session: `built` is the transcript of `opened.events`; buffered pushes join it. */
function show(opened: OpenedLog, built: Transcript): void {
  const late = buffered.filter((e) => e.seq > lastSeqOf(opened.events))
  buffered = []
  const events = late.length === 0 ? opened.events : [...opened.events, ...late]
  set({ loading: false, error: null, warnings: opened.warnings, events, transcript: appendEvents(built, late), agent: opened.state })
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
