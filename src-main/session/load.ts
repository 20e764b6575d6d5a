// Reading a session file, streamed line by line: every line is JSON-parsed and validated, `seq` must run 1, 2, 3, ...
// and the first event is the header. The one tolerated defect is a torn last line (a crash
// mid-write): it is dropped, reported in `warnings`, and `repair` tells the writer how to
// make the file appendable again. Anything else fails the load naming the file, line and field.
import { open } from 'node:fs/promises'
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
const CHUNK_BYTES = 1 << 20

/**
 * Loads a session file by streaming it in 1 MiB chunks: no string or buffer ever holds more than
 * a chunk or one line, so files past V8's longest string (512 MiB) open, and the memory peak
 * stays near what the loaded events retain. Works on anything readable in order (a FIFO too).
 */
export async function readSessionFile(file: string, sessionId: string): Promise<ParsedSessionFile> {
  const handle = await open(file, 'r')
  try {
    const lines = new SessionLines(file, sessionId)
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    /** Bytes of a line that began in an earlier chunk, copied out of the reused chunk buffer. */
    let carry: Buffer[] = []
    /** File offset of the first byte of the line being read. */
    let lineStart = 0
    let position = 0
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null)
      if (bytesRead === 0) break
      const view = chunk.subarray(0, bytesRead)
      const lastNewline = view.lastIndexOf(NEWLINE)
      if (lastNewline === -1) {
        carry.push(Buffer.from(view))
      } else {
        let from = 0
        if (carry.length > 0) {
          const end = view.indexOf(NEWLINE)
          carry.push(view.subarray(0, end))
          if (!lines.add(Buffer.concat(carry).toString('utf8'), true)) lines.tornAt(lineStart)
          carry = []
          from = end + 1
          lineStart = position + from
        }
        // Complete lines only: a newline byte never sits inside a multi-byte character, so the
        // text up to the last newline decodes on its own.
        if (from <= lastNewline) addLines(lines, view.toString('utf8', from, lastNewline + 1), lineStart)
        lineStart = position + lastNewline + 1
        if (lastNewline + 1 < bytesRead) carry.push(Buffer.from(view.subarray(lastNewline + 1)))
      }
      position += bytesRead
    }
    if (carry.length > 0 && !lines.add(Buffer.concat(carry).toString('utf8'), false)) lines.tornAt(lineStart)
    return lines.finish(position)
  } finally {
    await handle.close()
  }
}

/** Feeds each newline-terminated line of `text` (which starts at file offset `byteStart`). */
function addLines(lines: SessionLines, text: string, byteStart: number): void {
  let start = 0
  while (start < text.length) {
    const newline = text.indexOf('\n', start)
    // The byte offset is worked out only for a line that failed to parse (at most once per file).
    if (!lines.add(text.slice(start, newline), true)) lines.tornAt(byteStart + Buffer.byteLength(text.slice(0, start), 'utf8'))
    start = newline + 1
  }
}

/**
 * The line-by-line checks. A line that is not JSON is an error unless it turns out to be the
 * last one (a torn write): `add` answers false for it, the caller tells where it starts, and only
 * a further line makes it fatal.
 */
class SessionLines {
  private readonly events: SessionEvent[] = []
  private readonly warnings: string[] = []
  private repair: FileRepair | undefined
  private lineNo = 0
  private torn: { lineNo: number; error: string; start: number } | undefined

  constructor(
    private readonly file: string,
    private readonly sessionId: string
  ) {}

  add(text: string, complete: boolean): boolean {
    const { file } = this
    if (this.torn !== undefined) throw new SessionFileError(file, this.torn.lineNo, '(line)', `invalid JSON (${this.torn.error})`)
    const lineNo = ++this.lineNo
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.torn = { lineNo, error: (error as Error).message, start: -1 }
      return false
    }
    const check = checkSessionEvent(value)
    if (!check.ok) throw new SessionFileError(file, lineNo, check.field, check.message)
    const event = check.event
    const expected = this.events.length + 1
    if (event.seq !== expected) throw new SessionFileError(file, lineNo, 'seq', `expected ${expected}, found ${event.seq} (events are missing or out of order)`)
    if (expected === 1) {
      if (event.type !== 'session/header') throw new SessionFileError(file, lineNo, 'type', `the first event must be session/header, found ${event.type}`)
      if (event.sessionId !== this.sessionId) throw new SessionFileError(file, lineNo, 'sessionId', `header names session ${JSON.stringify(event.sessionId)}, the file is ${JSON.stringify(this.sessionId)}`)
    } else if (event.type === 'session/header') {
      throw new SessionFileError(file, lineNo, 'type', 'session/header may only be the first event')
    }
    this.events.push(event)
    if (!complete) {
      this.warnings.push(`${file}:${lineNo}: the last line has no trailing newline (a write was cut short after the event); kept it`)
      this.repair = { needsNewline: true }
    }
    return true
  }

  /** Where the line `add` just refused starts, in bytes. */
  tornAt(start: number): void {
    if (this.torn !== undefined) this.torn.start = start
  }

  finish(size: number): ParsedSessionFile {
    const torn = this.torn
    if (torn !== undefined) {
      // A torn write: the bytes of the last line that reached the disk before the crash.
      this.warnings.push(`${this.file}:${torn.lineNo}: ignored a torn last line (${size - torn.start} bytes, not valid JSON); the events before it are intact`)
      this.repair = { truncateTo: torn.start }
    }
    if (this.events.length === 0) throw new SessionFileError(this.file, 1, 'type', 'the file holds no session/header (empty or torn at creation)')
    return { events: this.events, warnings: this.warnings, repair: this.repair }
  }
}
