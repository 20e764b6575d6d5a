// Pages of a session log for sessions/open and sessions/events: bounded by count and by JSON size,
// so a long session reaches the window as several small messages instead of one large one.
import { SESSION_PAGE } from '../../src-shared/contract/session-page'
import type { SessionEvent } from '../../src-shared/session/events'
import type { SessionLog } from '../session/store'

export interface SessionPage {
  events: SessionEvent[]
  /** The seq the next page starts at; null when this page holds the last delivered event. */
  nextSeq: number | null
}

/**
 * Delivered events from `fromSeq` on: at most `limit` of them, and no more once the page's JSON
 * passes `maxBytes` (the first event always goes, however large, so paging always advances).
 */
export function sessionPage(log: Pick<SessionLog, 'deliveredCount' | 'snapshotFrom'>, fromSeq: number, limit: number = SESSION_PAGE.maxEvents, maxBytes: number = SESSION_PAGE.maxBytes): SessionPage {
  const candidates = log.snapshotFrom(fromSeq, Math.min(limit, SESSION_PAGE.maxEvents))
  let bytes = 0
  let taken = 0
  for (const event of candidates) {
    bytes += JSON.stringify(event).length
    if (taken > 0 && bytes > maxBytes) break
    taken++
  }
  const events = taken === candidates.length ? candidates : candidates.slice(0, taken)
  const after = events.length ? events[events.length - 1].seq + 1 : Math.max(1, fromSeq)
  return { events, nextSeq: after <= log.deliveredCount ? after : null }
}
