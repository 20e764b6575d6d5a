// The searchable text of a session file, read by streaming it: the prompts, the assistant's
// replies, user steering and the names of the tools called. Each line's type is read from its
// first bytes (`{"type":"tool/result",...`, the order the log writes), so the lines that make up
// most of a log's bytes (tool results, model context) are skipped without being decoded, copied
// or parsed; only the few kinds that hold searchable text are JSON-parsed.
import { open } from 'node:fs/promises'

export type SearchDocKind = 'user' | 'assistant' | 'tool'

/** One event's searchable text. */
export interface SearchDoc {
  seq: number
  kind: SearchDocKind
  text: string
  /** A `subagent/start`: the subagent whose own log (its text is searched too) this event opens. */
  agentId?: string
}

export interface ScanResult {
  docs: SearchDoc[]
  /** Bytes read as complete lines: a later scan of the grown file continues here. */
  scannedTo: number
}

const CHUNK_BYTES = 1 << 20
const NEWLINE = 0x0a
const TYPE_PREFIX = Buffer.from('{"type":"')
/** Enough bytes to read any event type after the prefix. */
const TYPE_PROBE_BYTES = TYPE_PREFIX.length + 40
/** A line whose type could not be read from its start is parsed in full only up to this size. */
const MAX_UNTYPED_LINE_BYTES = 8 << 20
const SEARCHABLE = new Set(['user/message', 'assistant/message', 'steering/message', 'tool/call', 'subagent/start'])

/**
 * Reads `path` from byte `from` (a line start) to its end and returns the searchable text of the
 * complete lines. A torn or unparsable line is skipped (search is best effort; opening the session
 * reports damage), and an unterminated last line is left for the next scan.
 */
export async function scanSearchText(path: string, from: number, size?: number): Promise<ScanResult> {
  const handle = await open(path, 'r')
  try {
    const docs: SearchDoc[] = []
    // A small file (or a few appended lines) needs no full-size chunk.
    const chunk = Buffer.allocUnsafe(size === undefined ? CHUNK_BYTES : Math.max(4096, Math.min(CHUNK_BYTES, size - from + 1)))
    const chunkBytes = chunk.length
    let position = from
    let scannedTo = from
    /** The start of the line in progress, copied out of the reused chunk (only for lines worth reading). */
    let carry: Buffer[] = []
    let carryBytes = 0
    /** The line in progress is not searchable: its bytes are dropped up to its newline. */
    let skipping = false
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, position)
      if (bytesRead === 0) break
      const view = chunk.subarray(0, bytesRead)
      let at = 0
      while (at < bytesRead) {
        const newline = view.indexOf(NEWLINE, at)
        const end = newline === -1 ? bytesRead : newline
        if (!skipping) {
          if (carryBytes === 0 && newline !== -1) {
            // The common case: a whole line inside this chunk.
            readLine(view.subarray(at, end), docs)
          } else {
            carry.push(Buffer.from(view.subarray(at, end)))
            carryBytes += end - at
            if (newline !== -1) {
              readLine(Buffer.concat(carry, carryBytes), docs)
              carry = []
              carryBytes = 0
            } else if (carryBytes >= TYPE_PROBE_BYTES && !worthReading(Buffer.concat(carry, carryBytes))) {
              skipping = true
              carry = []
              carryBytes = 0
            }
          }
        }
        if (newline === -1) break
        skipping = false
        at = newline + 1
        scannedTo = position + at
      }
      position += bytesRead
    }
    return { docs, scannedTo }
  } finally {
    await handle.close()
  }
}

/** False when the line's first bytes name a type that holds no searchable text. */
function worthReading(start: Buffer): boolean {
  const type = typeFromPrefix(start)
  return type === undefined ? start.length <= MAX_UNTYPED_LINE_BYTES : SEARCHABLE.has(type)
}

function typeFromPrefix(line: Buffer): string | undefined {
  if (line.length < TYPE_PREFIX.length + 1 || line.compare(TYPE_PREFIX, 0, TYPE_PREFIX.length, 0, TYPE_PREFIX.length) !== 0) return undefined
  const close = line.indexOf(0x22, TYPE_PREFIX.length)
  if (close === -1 || close > TYPE_PROBE_BYTES) return undefined
  return line.toString('latin1', TYPE_PREFIX.length, close)
}

function readLine(line: Buffer, docs: SearchDoc[]): void {
  if (line.length === 0) return
  const type = typeFromPrefix(line)
  if (type !== undefined && !SEARCHABLE.has(type)) return
  if (type === 'tool/call') {
    // Only the name is wanted: read it without parsing the call's arguments.
    const doc = toolCallDoc(line)
    if (doc !== undefined) docs.push(doc)
    return
  }
  if (type === undefined && line.length > MAX_UNTYPED_LINE_BYTES) return
  let value: unknown
  try {
    value = JSON.parse(line.toString('utf8'))
  } catch {
    return // a torn line: open() reports it
  }
  const doc = docOf(value)
  if (doc !== undefined) docs.push(doc)
}

const SEQ_KEY = Buffer.from(',"seq":')
const NAME_KEY = Buffer.from(',"name":"')

/**
 * A tool/call line is written `{"type":"tool/call","seq":N,"ts":..,"turnId":"..","callId":"..","token":"..","name":"..",`:
 * the strings before the name cannot hold an unescaped `"`, so the first `,"name":"` is the key.
 * Any other shape is parsed in full.
 */
function toolCallDoc(line: Buffer): SearchDoc | undefined {
  const seqAt = line.indexOf(SEQ_KEY)
  const nameAt = line.indexOf(NAME_KEY)
  if (seqAt !== -1 && nameAt !== -1) {
    const seq = Number.parseInt(line.toString('latin1', seqAt + SEQ_KEY.length, Math.min(line.length, seqAt + SEQ_KEY.length + 16)), 10)
    const start = nameAt + NAME_KEY.length
    const end = line.indexOf(0x22, start)
    const name = end === -1 ? '' : line.toString('utf8', start, end)
    if (Number.isSafeInteger(seq) && seq > 0 && /^[A-Za-z0-9_-]+$/.test(name)) return { seq, kind: 'tool', text: name }
  }
  try {
    return docOf(JSON.parse(line.toString('utf8')))
  } catch {
    return undefined
  }
}

function docOf(value: unknown): SearchDoc | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const event = value as Record<string, unknown>
  const seq = event.seq
  if (typeof seq !== 'number') return undefined
  const text = (kind: SearchDocKind, field: unknown): SearchDoc | undefined => (typeof field === 'string' && field.length > 0 ? { seq, kind, text: field } : undefined)
  switch (event.type) {
    case 'user/message':
      // What the user typed, when a prompt policy rewrote it.
      return text('user', event.originalContent ?? event.content)
    case 'steering/message':
      return event.source === 'user' ? text('user', event.text) : undefined
    case 'assistant/message':
      return text('assistant', event.text)
    case 'tool/call':
      return text('tool', event.name)
    case 'subagent/start':
      // Its type and task, and where a match inside its own log scrolls to.
      return typeof event.agentId === 'string' && typeof event.agentType === 'string' && typeof event.description === 'string'
        ? { seq, kind: 'tool', text: `${event.agentType} ${event.description}`, agentId: event.agentId }
        : undefined
    default:
      return undefined
  }
}
