// The model's history, derived from the session log alone ("Model-visible means logged").
// Visible: user/message, assistant/message, tool/result, context/message, steering/message,
// instructions/loaded, skill/loaded, mentions/attached (the files mentioned with @path); a compaction replaces
// everything before it with its summary; a rewind takes out everything from the user message it
// rewound to up to itself (`liveEvents`).
// Everything else (headers, turns, approvals, grants, hooks, notices, blocked prompts) is not.
//
// Shape guarantees, whatever the log holds after a crash or a cancel:
// - every tool call in an assistant message has exactly one tool message after it, in call order;
//   a call without a result in the log is dropped from the assistant message (and noted), since
//   providers reject a call without an answer and nothing should be invented for it;
// - user-side messages logged while calls were still open (context from a post-tool hook, a
//   steering message) come after all of that step's results;
// - consecutive user-side messages are merged into one user message, joined by a blank line.
//
// The derivation is a left fold over the events plus one closing step at the end: everything up
// to the last assistant message with calls still unanswered is settled, and only that open step
// (its assistant message, results and deferred user-side text) depends on what comes later.
// `IncrementalHistory` keeps the fold's state, so a log that grows one event at a time costs
// O(new events) per update instead of a re-derivation of the whole log. Settled messages are
// frozen and built once: answers share them (a step does not copy the history it extends).
import type { ModelImage, ModelMessage, ModelToolCall } from '../../src-shared/model'
import { mentionedFilesText } from '../../src-shared/session/mention-events'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'

export interface DerivedHistory {
  messages: ModelMessage[]
  /** What was left out to keep the history well-formed (dangling calls, orphan results), by seq. */
  notes: string[]
}

export function deriveModelMessages(events: readonly SessionEvent[]): ModelMessage[] {
  return deriveModelHistory(events).messages
}

export function deriveModelHistory(events: readonly SessionEvent[]): DerivedHistory {
  const state = foldFrom(events)
  if (state.open !== undefined) closeStep(state.open, state.messages, state.notes)
  return { messages: state.messages, notes: state.notes }
}

/** The fold over the live events (rewound spans left out) from the last live compaction on; the last step left open. */
function foldFrom(events: readonly SessionEvent[]): FoldState {
  const live = liveEvents(events)
  const state = newFoldState()
  const start = compactionStart(live)
  state.context = start.context
  for (let i = start.index; i < live.length; i++) foldEvent(state, live[i])
  return state
}

/**
 * The events a rewind left in the conversation: a `rewind` takes out every event from its `toSeq`
 * (the user message it went back to) up to itself, rewinds inside a span already taken out
 * included. `model/context` and `instructions/loaded` stay wherever they are: they say what the
 * system prompt, the tools and the instructions files are now, not what was said, and the
 * plugins that log them go by the whole log. The same array when the log has no rewind.
 */
export function liveEvents(events: readonly SessionEvent[]): readonly SessionEvent[] {
  let dropFrom = Number.POSITIVE_INFINITY
  let kept: SessionEvent[] | undefined
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.seq >= dropFrom && event.type !== 'model/context' && event.type !== 'instructions/loaded') {
      continue
    }
    if (event.type === 'rewind' && event.seq < dropFrom) {
      dropFrom = Math.min(dropFrom, event.toSeq)
      kept ??= events.slice(i + 1).reverse()
      continue
    }
    kept?.push(event)
  }
  return kept === undefined ? events : kept.reverse()
}

/** Seqs of the events a rewind took out of the conversation (what the UI greys out). */
export function rewoundSeqs(events: readonly SessionEvent[]): Set<number> {
  const live = new Set(liveEvents(events).map((event) => event.seq))
  const out = new Set<number>()
  for (const event of events) if (!live.has(event.seq) && event.type !== 'rewind') out.add(event.seq)
  return out
}

/** What the model gets in place of the history a compaction replaced. */
export function compactionText(summary: string): string {
  return `This conversation was compacted to free context space. The earlier part is summarised here:\n\n${summary}`
}

/**
 * Where a derivation may start: the last compaction (nothing before it reaches the model) and the
 * model/context in force there. Scans backwards, so a long log with a recent compaction costs only
 * the events after it.
 */
export function compactionStart(events: readonly SessionEvent[]): { index: number; context: SessionEventOf<'model/context'> | undefined } {
  let index = -1
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].type === 'compaction') {
      index = i
      break
    }
  }
  if (index < 0) return { index: 0, context: undefined }
  for (let i = index - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'model/context') return { index, context: event }
  }
  return { index, context: undefined }
}

/** Context and continuation reasons reach the model wrapped like this. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`
}

/**
 * The history of a log that only grows: `add` (or `sync`) consumes the events appended since the
 * last call, and `messages()`/`history()` answer exactly what `deriveModelMessages`/
 * `deriveModelHistory` would for the events consumed so far. Each answer is a fresh array the
 * caller may keep or change; the messages in it are frozen and shared with earlier and later
 * answers, so a turn of N steps builds each message once (linear, not N²). Cost per answer: one
 * array copy of references plus the open step; cost per event: O(1) apart from the open step's calls.
 */
export class IncrementalHistory {
  private state = newFoldState()
  /** Every event consumed, in order: a rewind folds the live ones again from the start. */
  private seen: SessionEvent[] = []

  /** How many events have been consumed. */
  get length(): number {
    return this.seen.length
  }

  /** The latest model/context event consumed (system prompt and tools), if any. Treat it as immutable. */
  get context(): SessionEventOf<'model/context'> | undefined {
    return this.state.context
  }

  /** Consumes the next event of the log. A rewind (rare) re-derives from the live events: O(log). */
  add(event: SessionEvent): void {
    this.seen.push(event)
    if (event.type === 'rewind') this.state = foldFrom(this.seen)
    else foldEvent(this.state, event)
  }

  /**
   * Consumes `events[length..]`. `events` is expected to be the same append-only log as before
   * (checked cheaply: the last consumed event must sit at the same index); when it is not, the
   * history starts over from `events[0]`.
   */
  sync(events: readonly SessionEvent[]): this {
    const consumed = this.seen.length
    if (events.length < consumed || (consumed > 0 && events[consumed - 1] !== this.seen[consumed - 1])) this.reset()
    if (this.seen.length === 0 && events.length > 0) {
      // A fresh fold skips what the last compaction replaced and what rewinds took out.
      this.seen = events.slice()
      this.state = foldFrom(this.seen)
      return this
    }
    for (let i = this.seen.length; i < events.length; i++) this.add(events[i])
    return this
  }

  /** `deriveModelMessages(consumed events)`: a fresh array of frozen, shared messages. */
  messages(): ModelMessage[] {
    return this.settle([]).messages
  }

  /**
   * `messages()` as of now, copied only when called: O(1) plus the open step here, O(messages)
   * in the returned function. Later events do not change what it returns: settled messages only
   * grow at the end (a merge replaces the last one, which is kept aside here), and a compaction or
   * rewind starts a new array. The loop hands this to the model request, so a step's own work does
   * not grow with the history; a model client that reads the messages pays for reading them.
   */
  messagesLater(): () => ModelMessage[] {
    const settled = this.state.messages
    const count = settled.length
    const last = settled[count - 1]
    const closing: ModelMessage[] = []
    if (this.state.open !== undefined) closeStep(this.state.open, closing, [])
    let copy: ModelMessage[] | undefined
    return () => {
      if (copy === undefined) {
        copy = settled.slice(0, count)
        if (count > 0) copy[count - 1] = last
        // Closing the open step may merge into the last settled message, as settle() does on its copy.
        for (const message of closing) {
          if (message.role === 'user') pushUser(copy, message.content, message.images)
          else copy.push(message)
        }
      }
      return copy.slice()
    }
  }

  /** `deriveModelHistory(consumed events)`: fresh arrays of frozen, shared messages and notes. */
  history(): DerivedHistory {
    return this.settle([...this.state.notes])
  }

  /** `notes` receives the notes of closing the open step. */
  private settle(notes: string[]): DerivedHistory {
    const messages = this.state.messages.slice()
    // The open step is closed on the copy; the state keeps it open for the events to come.
    if (this.state.open !== undefined) closeStep(this.state.open, messages, notes)
    return { messages, notes }
  }

  private reset(): void {
    this.state = newFoldState()
    this.seen = []
  }
}

interface OpenStep {
  assistant: SessionEventOf<'assistant/message'>
  results: Map<string, SessionEventOf<'tool/result'>>
  /** User-side text logged before all results were in. */
  deferred: Array<{ text: string; images?: ModelImage[] }>
}

interface FoldState {
  /** Settled messages; only the last one can still change (a user message later text merges into). */
  messages: ModelMessage[]
  notes: string[]
  /** The last assistant message with calls not all answered yet. */
  open: OpenStep | undefined
  context: SessionEventOf<'model/context'> | undefined
}

function newFoldState(): FoldState {
  return { messages: [], notes: [], open: undefined, context: undefined }
}

/** User-side text: deferred while a step's calls are open, merged into the history otherwise. */
function userSide(state: FoldState, text: string, images?: ModelImage[]): void {
  if (state.open !== undefined) state.open.deferred.push(images ? { text, images } : { text })
  else pushUser(state.messages, text, images)
}

/** Settles the open step, if any. */
function closeOpen(state: FoldState): void {
  const open = state.open
  if (open === undefined) return
  state.open = undefined
  closeStep(open, state.messages, state.notes)
}

function foldEvent(state: FoldState, event: SessionEvent): void {
  switch (event.type) {
    case 'user/message':
      userSide(state, event.content, modelImages(event.images))
      break
    case 'context/message':
      // A channel message is the user side's own words in its <channel> tag (Claude Code's wrapping).
      userSide(state, event.channel ? event.text : systemReminder(event.text))
      break
    case 'steering/message':
      if (event.source === 'continuation') userSide(state, systemReminder(event.text))
      else userSide(state, event.text, modelImages(event.images))
      break
    case 'assistant/message':
      closeOpen(state)
      if (event.toolCalls.length === 0) pushAssistant(state.messages, state.notes, event, [])
      else state.open = { assistant: event, results: new Map(), deferred: [] }
      break
    case 'tool/result': {
      const open = state.open
      if (open === undefined || !open.assistant.toolCalls.some((call) => call.id === event.callId)) {
        state.notes.push(`seq ${event.seq}: left out tool/result ${event.callId} (${event.name}): no open assistant tool call has that id`)
      } else if (open.results.has(event.callId)) {
        state.notes.push(`seq ${event.seq}: left out a second tool/result for ${event.callId} (${event.name})`)
      } else {
        open.results.set(event.callId, event)
        if (open.results.size === open.assistant.toolCalls.length) closeOpen(state)
      }
      break
    }
    case 'model/context':
      state.context = event
      break
    case 'instructions/loaded':
      userSide(state, systemReminder(event.text))
      break
    case 'skill/loaded':
      // One message of its own, as typed skills are (the user/message of their command).
      userSide(state, event.text)
      break
    case 'mentions/attached': {
      const text = mentionedFilesText(event.files)
      if (text !== '') userSide(state, text)
      break
    }
    case 'compaction':
      // Everything before is replaced by the summary (the log keeps it for the UI).
      // Notes too: a derivation that starts at this compaction never sees what came before.
      state.messages = []
      state.notes = []
      state.open = undefined
      pushUser(state.messages, compactionText(event.summary))
      break
    case 'usage/step':
    case 'model/switched':
    case 'session/header':
    case 'session/renamed':
    case 'turn/start':
    case 'turn/end':
    case 'tool/call':
    case 'prompt/blocked':
    case 'approval/asked':
    case 'approval/decided':
    case 'grant/added':
    case 'grant/revoked':
    case 'notice':
    case 'hook/invoked':
    case 'hook/result':
    case 'file/checkpoint':
    case 'file/changed':
    case 'revert':
    case 'rewind':
    case 'restore/journal':
    case 'task/started':
    case 'task/ended':
    case 'subagent/start':
    case 'subagent/end':
      // The child's history is its own log; the parent's model reads only the Agent call's result.
      break
    default: {
      const unhandled: never = event
      throw new Error(`deriveModelHistory: unhandled session event ${JSON.stringify((unhandled as { type?: unknown }).type)}`)
    }
  }
}

/** Appends the step's assistant message, its answered results in call order, then its deferred text. Leaves `open` as it is. */
function closeStep(open: OpenStep, messages: ModelMessage[], notes: string[]): void {
  const { assistant, results, deferred } = open
  const answered: ModelToolCall[] = []
  for (const call of assistant.toolCalls) {
    if (results.has(call.id)) answered.push(copyCall(call))
    else notes.push(`seq ${assistant.seq}: dropped tool call ${call.id} (${call.name}): the log has no tool/result for it`)
  }
  pushAssistant(messages, notes, assistant, answered)
  for (const call of answered) {
    const result = results.get(call.id)
    if (result !== undefined) messages.push(Object.freeze({ role: 'tool', callId: result.callId, toolName: result.name, content: result.content, isError: result.isError }))
  }
  for (const { text, images } of deferred) pushUser(messages, text, images)
}

/** Merging replaces the last message rather than changing it: earlier answers share it. */
/** What the model gets of a message's images: their bytes and type (names and sizes are for the UI). */
function modelImages(images: ReadonlyArray<{ mediaType: ModelImage['mediaType']; data: string }> | undefined): ModelImage[] | undefined {
  return images?.length ? images.map(({ mediaType, data }) => ({ mediaType, data })) : undefined
}

function pushUser(messages: ModelMessage[], text: string, images?: ModelImage[]): void {
  const last = messages[messages.length - 1]
  if (last?.role === 'user') {
    const merged = [...(last.images ?? []), ...(images ?? [])]
    messages[messages.length - 1] = Object.freeze({ role: 'user', content: `${last.content}\n\n${text}`, ...(merged.length > 0 ? { images: merged } : {}) })
  } else messages.push(Object.freeze({ role: 'user', content: text, ...(images?.length ? { images } : {}) }))
}

function pushAssistant(messages: ModelMessage[], notes: string[], event: SessionEventOf<'assistant/message'>, calls: ModelToolCall[]): void {
  if (event.text === '' && (event.thinking ?? '') === '' && calls.length === 0) {
    notes.push(`seq ${event.seq}: left out an assistant message with no text and no answered tool calls`)
    return
  }
  const message: ModelMessage = { role: 'assistant', text: event.text, toolCalls: Object.freeze(calls) as ModelToolCall[] }
  if (event.thinking !== undefined) message.thinking = event.thinking
  messages.push(Object.freeze(message))
}

function copyCall(call: SessionEventOf<'assistant/message'>['toolCalls'][number]): ModelToolCall {
  const copy: ModelToolCall = { id: call.id, name: call.name, args: call.args }
  if (call.argsError !== undefined) copy.argsError = call.argsError
  return Object.freeze(copy)
}
