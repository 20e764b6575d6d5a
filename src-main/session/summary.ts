// What `SessionStore.list()` shows for a session, computed without loading the whole log:
// a file is scanned once, and afterwards only the bytes appended since (the log is append-only);
// the result per file is kept in a cache (summary-cache.ts). Only the lines that matter are
// parsed: the header, `session/renamed` lines, the first `user/message`, and the last event.
import { open, type FileHandle } from 'node:fs/promises'
import { z } from 'zod'
import { SessionHeaderEvent, SessionRenamedEvent, UserMessageEvent, WorktreeShape, type SessionEvent } from '../../src-shared/session/events'
import { formatZodError } from '../../src-shared/validation'

export interface SessionSummary {
  id: string
  /** The last `session/renamed` title, else the header's title, else the first prompt's first 60 characters, else ''. */
  title: string
  workspace: string
  createdAt: number
  /** `ts` of the last event. */
  lastActivity: number
  eventCount: number
  /** A worktree session's worktree (its header's). */
  worktree?: z.infer<typeof WorktreeShape>
  /** Set when the file's header could not be read; the session cannot be opened as it is. */
  error?: string
}

const TITLE_CHARS = 60

/** The first 60 characters of a prompt, whitespace collapsed. */
export function titleFromPrompt(text: string): string {
  return Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, TITLE_CHARS).join('')
}

/** For a log that is open in memory (its newest events may not be on disk yet). */
export function summarizeEvents(id: string, events: readonly SessionEvent[]): SessionSummary {
  let workspace = ''
  let createdAt = 0
  let headerTitle: string | undefined
  let renamedTitle: string | undefined
  let promptTitle: string | undefined
  let worktree: z.infer<typeof WorktreeShape> | undefined
  for (const event of events) {
    if (event.type === 'session/header') {
      worktree = event.worktree
      workspace = event.workspace
      createdAt = event.createdAt
      headerTitle = event.title
    } else if (event.type === 'session/renamed') renamedTitle = event.title
    else if (event.type === 'user/message' && promptTitle === undefined) promptTitle = titleFromPrompt(event.originalContent ?? event.content)
  }
  const last = events[events.length - 1]
  const summary: SessionSummary = { id, title: renamedTitle ?? headerTitle ?? promptTitle ?? '', workspace, createdAt, lastActivity: last?.ts ?? createdAt, eventCount: last?.seq ?? 0 }
  if (worktree) summary.worktree = worktree
  return summary
}

/** What a scan learned about one file, and how far it got. Persisted by the summary cache. */
export const FileScanSchema = z.object({
  fileSize: z.number(),
  mtimeMs: z.number(),
  /** Bytes read as complete lines; the next scan continues here. */
  scannedTo: z.number().int().nonnegative(),
  workspace: z.string(),
  createdAt: z.number(),
  headerTitle: z.string().optional(),
  renamedTitle: z.string().optional(),
  promptTitle: z.string().optional(),
  lastTs: z.number(),
  lastSeq: z.number(),
  worktree: WorktreeShape.optional(),
  error: z.string().optional()
})
export type FileScan = z.infer<typeof FileScanSchema>

export function summaryFromScan(id: string, scan: FileScan): SessionSummary {
  const summary: SessionSummary = {
    id,
    title: scan.renamedTitle ?? scan.headerTitle ?? scan.promptTitle ?? '',
    workspace: scan.workspace,
    createdAt: scan.createdAt,
    lastActivity: scan.lastTs,
    eventCount: scan.lastSeq
  }
  if (scan.worktree !== undefined) summary.worktree = scan.worktree
  if (scan.error !== undefined) summary.error = scan.error
  return summary
}

const CHUNK_BYTES = 1 << 20
const NEWLINE = 0x0a
const RENAMED = Buffer.from('"session/renamed"')
const USER_MESSAGE = Buffer.from('"user/message"')
const LastEventShape = z.object({ seq: z.number(), ts: z.number() })

/**
 * Brings `previous` up to date with the file (size and mtime from a fresh stat). Reads nothing
 * when the file is unchanged, only the appended bytes when it grew, the whole file otherwise.
 */
export async function scanSessionFile(path: string, fileSize: number, mtimeMs: number, previous: FileScan | undefined): Promise<FileScan> {
  if (previous !== undefined && previous.fileSize === fileSize && previous.mtimeMs === mtimeMs) return previous
  const handle = await open(path, 'r')
  try {
    let scan: FileScan | undefined
    if (previous !== undefined && previous.error === undefined && previous.scannedTo > 0 && previous.scannedTo <= fileSize) {
      // Resume only where the previous scan ended on a line boundary that is still there.
      const probe = Buffer.alloc(1)
      await handle.read(probe, 0, 1, previous.scannedTo - 1)
      if (probe[0] === NEWLINE) scan = { ...previous, fileSize, mtimeMs }
    }
    scan ??= { fileSize, mtimeMs, scannedTo: 0, workspace: '', createdAt: 0, lastTs: 0, lastSeq: 0 }
    await scanFrom(handle, scan, fileSize)
    return scan
  } finally {
    await handle.close()
  }
}

async function scanFrom(handle: FileHandle, scan: FileScan, fileSize: number): Promise<void> {
  let position = scan.scannedTo
  let carry = Buffer.alloc(0)
  let lastLine: Buffer | undefined
  let lastLineStart = 0
  let beforeLastLine: Buffer | undefined
  while (position < fileSize) {
    const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, fileSize - position))
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position)
    if (bytesRead === 0) break
    const bufferStart = position - carry.length
    const buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead)
    position += bytesRead
    const completeEnd = buffer.lastIndexOf(NEWLINE) + 1 // bytes of whole lines in `buffer`
    if (completeEnd === 0) {
      carry = buffer
      continue
    }
    const lines = buffer.subarray(0, completeEnd)
    if (bufferStart === 0) readHeader(lines.subarray(0, lines.indexOf(NEWLINE)), scan)
    if (scan.error !== undefined) return
    forEachLineWith(lines, RENAMED, (line) => {
      const renamed = parseLine(line, SessionRenamedEvent)
      if (renamed !== undefined) scan.renamedTitle = renamed.title
      return true
    })
    if (scan.promptTitle === undefined) {
      forEachLineWith(lines, USER_MESSAGE, (line) => {
        const message = parseLine(line, UserMessageEvent)
        if (message !== undefined) scan.promptTitle = titleFromPrompt(message.originalContent ?? message.content)
        return message === undefined
      })
    }
    const lastStart = startOfLineEndingAt(lines, completeEnd - 1)
    if (lastStart > 0) beforeLastLine = Buffer.from(lines.subarray(startOfLineEndingAt(lines, lastStart - 1), lastStart - 1))
    else if (lastLine !== undefined) beforeLastLine = lastLine
    lastLine = Buffer.from(lines.subarray(lastStart, completeEnd - 1))
    lastLineStart = bufferStart + lastStart
    scan.scannedTo = bufferStart + completeEnd
    carry = Buffer.from(buffer.subarray(completeEnd))
  }
  // The newest event: a complete trailing line without its newline counts; a torn line does not,
  // and a scan never continues past a line that is not JSON (the writer may cut it off later).
  const unterminated = carry.length > 0 ? parseLine(carry, LastEventShape) : undefined
  const last = lastLine !== undefined ? parseLine(lastLine, LastEventShape) : undefined
  if (lastLine !== undefined && last === undefined) scan.scannedTo = lastLineStart
  const newest = unterminated ?? last ?? (beforeLastLine !== undefined ? parseLine(beforeLastLine, LastEventShape) : undefined)
  if (newest !== undefined) {
    scan.lastTs = newest.ts
    scan.lastSeq = newest.seq
  }
}

function readHeader(line: Buffer, scan: FileScan): void {
  let value: unknown
  try {
    value = JSON.parse(line.toString('utf8'))
  } catch (error) {
    scan.error = `line 1: (line): invalid JSON (${(error as Error).message})`
    return
  }
  const header = SessionHeaderEvent.safeParse(value)
  if (!header.success) {
    scan.error = formatZodError('line 1 (session/header)', header.error)
    return
  }
  scan.workspace = header.data.workspace
  scan.createdAt = header.data.createdAt
  scan.lastTs = header.data.ts
  scan.lastSeq = header.data.seq
  if (header.data.title !== undefined) scan.headerTitle = header.data.title
  if (header.data.worktree !== undefined) scan.worktree = header.data.worktree
}

/** Calls `visit` for each line of `lines` containing `needle`, while it returns true. */
function forEachLineWith(lines: Buffer, needle: Buffer, visit: (line: Buffer) => boolean): void {
  let at = lines.indexOf(needle)
  while (at !== -1) {
    const start = lines.lastIndexOf(NEWLINE, at) + 1
    const end = lines.indexOf(NEWLINE, at)
    if (!visit(lines.subarray(start, end))) return
    at = lines.indexOf(needle, end)
  }
}

function parseLine<T>(line: Buffer, schema: z.ZodType<T>): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(line.toString('utf8')))
    return result.success ? result.data : undefined
  } catch {
    // Not JSON: a torn line, or text that merely contains the marker. A summary skips it; open() reports it.
    return undefined
  }
}

/** Start of the line whose newline is at `newlineAt`. */
function startOfLineEndingAt(lines: Buffer, newlineAt: number): number {
  return newlineAt > 0 ? lines.lastIndexOf(NEWLINE, newlineAt - 1) + 1 : 0
}
