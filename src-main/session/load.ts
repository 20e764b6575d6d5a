// Reading a session file: every line is JSON-parsed and validated, `seq` must run 1, 2, 3, ...
// and the first event is the header. The one tolerated defect is a torn last line (a crash
// mid-write): it is dropped, reported in `warnings`, and `repair` tells the writer how to
// make the file appendable again. Anything else fails the load naming the file, line and field.
import type { SessionEvent } from '../../src-shared/session/events'
import { checkSessionEvent } from './event-check'

export interface ParsedSessionFile {
  events: SessionEvent[]
  warnings: string[]
  repair: FileRepair | undefined
}

/** What the next write must do first so it starts on a fresh line. */
export interface FileRepair {
  /** Cut the file to this many bytes (drops a torn last line). */
  truncateTo?: number
  /** The last line is a complete event without its newline: write one before anything else. */
  needsNewline?: boolean
}

/** A session file that cannot be loaded. `line` is 1-based; `field` is the failing path, `(line)` for bad JSON. */
export class SessionFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    detail: string
  ) {
    super(`${file}:${line}: ${field}: ${detail}`)
    this.name = 'SessionFileError'
  }
}

const NEWLINE = 0x0a

export function parseSessionFile(data: Buffer, file: string, sessionId: string): ParsedSessionFile {
  const text = data.toString('utf8')
  const events: SessionEvent[] = []
  const warnings: string[] = []
  let repair: FileRepair | undefined
  const end = text.length
  let start = 0
  let lineNo = 0
  while (start < end) {
    lineNo++
    const newline = text.indexOf('\n', start)
    const complete = newline !== -1
    const stop = complete ? newline : end
    const isLast = stop + 1 >= end
    let value: unknown
    try {
      value = JSON.parse(text.slice(start, stop))
    } catch (error) {
      if (!isLast) throw new SessionFileError(file, lineNo, '(line)', `invalid JSON (${(error as Error).message})`)
      // A torn write: the bytes of the last line that reached the disk before the crash.
      const truncateTo = complete ? previousLineEnd(data, data.length - 1) : previousLineEnd(data, data.length)
      warnings.push(`${file}:${lineNo}: ignored a torn last line (${data.length - truncateTo} bytes, not valid JSON); the events before it are intact`)
      repair = { truncateTo }
      break
    }
    const check = checkSessionEvent(value)
    if (!check.ok) throw new SessionFileError(file, lineNo, check.field, check.message)
    const event = check.event
    const expected = events.length + 1
    if (event.seq !== expected) throw new SessionFileError(file, lineNo, 'seq', `expected ${expected}, found ${event.seq} (events are missing or out of order)`)
    if (expected === 1) {
      if (event.type !== 'session/header') throw new SessionFileError(file, lineNo, 'type', `the first event must be session/header, found ${event.type}`)
      if (event.sessionId !== sessionId) throw new SessionFileError(file, lineNo, 'sessionId', `header names session ${JSON.stringify(event.sessionId)}, the file is ${JSON.stringify(sessionId)}`)
    } else if (event.type === 'session/header') {
      throw new SessionFileError(file, lineNo, 'type', 'session/header may only be the first event')
    }
    events.push(event)
    if (!complete) {
      warnings.push(`${file}:${lineNo}: the last line has no trailing newline (a write was cut short after the event); kept it`)
      repair = { needsNewline: true }
    }
    start = stop + 1
  }
  if (events.length === 0) throw new SessionFileError(file, 1, 'type', 'the file holds no session/header (empty or torn at creation)')
  return { events, warnings, repair }
}

/** Byte offset just after the last newline strictly before `before` (0 when there is none). */
function previousLineEnd(data: Buffer, before: number): number {
  return before <= 0 ? 0 : data.lastIndexOf(NEWLINE, before - 1) + 1
}
