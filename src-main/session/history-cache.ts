// One IncrementalHistory per open session log, so the agent loop's request at each step only
// consumes the events appended since the previous step instead of re-deriving the whole log; what
// is left per step is one array of references to the shared, frozen messages (the caller's own).
// Keyed weakly by the log: a closed and dropped log takes its history with it.
import type { SessionEvent } from '../../src-shared/session/events'
import { IncrementalHistory } from './history'

/** Anything holding an append-only event list, e.g. a `SessionLog`. */
export interface HistorySource {
  readonly events: readonly SessionEvent[]
}

/** What callers of `historyOf` may use: the answers, not the means to feed it. */
export type HistoryView = Pick<IncrementalHistory, 'length' | 'context' | 'messages' | 'messagesLater' | 'history'>

const histories = new WeakMap<HistorySource, IncrementalHistory>()

/**
 * The history of `source`, brought up to date with its events (only those appended since the last
 * call are consumed). Shared by every caller for that source; its answers are fresh copies.
 */
export function historyOf(source: HistorySource): HistoryView {
  let history = histories.get(source)
  if (history === undefined) {
    history = new IncrementalHistory()
    histories.set(source, history)
  }
  return history.sync(source.events)
}
