// What the board shows of a session's activity (last message, files changed, cost, how its last
// turn ended), for the sessions the host holds (from their events in memory) and for those it
// does not (from their log files, so a session run earlier, or by `seam run` in a terminal, shows
// its details too). A file is read once, then only the bytes appended since (the log is
// append-only); an unchanged file is not read at all. An approval asked and not yet decided in the
// open turn is kept too: the status of a session another process runs comes from its log.
import { open, stat } from 'node:fs/promises'
import type { SessionEvent } from '../../src-shared/session/events'
import type { AskingAgent } from '../../src-shared/subagent-label'

export interface SessionActivity {
  lastMessage: string
  filesChanged: number
  costUsd: number
  /** How the last turn stands: none yet, still open (no `turn/end`), ended, or ended with an error. */
  lastTurn: 'none' | 'open' | 'ended' | 'failed'
  /** An approval asked in the open turn and not answered yet (`agent`: asked from inside a subagent). */
  asking?: { agent?: AskingAgent }
}

/** The board shows this much of the last message. */
const LAST_MESSAGE_CHARS = 300

interface Fold {
  lastMessage: string
  files: Set<string>
  costUsd: number
  lastTurn: SessionActivity['lastTurn']
  /** Asks without a decision yet, by request id. */
  asks: Map<string, { agent?: AskingAgent }>
}

const emptyFold = (): Fold => ({ lastMessage: '', files: new Set(), costUsd: 0, lastTurn: 'none', asks: new Map() })

function fold(state: Fold, event: SessionEvent): void {
  if (event.type === 'assistant/message') {
    if (event.text.trim() !== '') state.lastMessage = event.text
  } else if (event.type === 'usage/step' || event.type === 'subagent/end') state.costUsd += event.costUsd ?? 0
  else if (event.type === 'file/changed') state.files.add(event.path)
  else if (event.type === 'turn/start') state.lastTurn = 'open'
  else if (event.type === 'turn/end') {
    state.lastTurn = event.reason === 'error' ? 'failed' : 'ended'
    state.asks.clear()
  } else if (event.type === 'approval/asked') state.asks.set(event.requestId, event.agent ? { agent: event.agent } : {})
  else if (event.type === 'approval/decided') state.asks.delete(event.requestId)
}

function result(state: Fold): SessionActivity {
  const asking = state.lastTurn === 'open' ? state.asks.values().next().value : undefined
  return { lastMessage: state.lastMessage.slice(0, LAST_MESSAGE_CHARS), filesChanged: state.files.size, costUsd: state.costUsd, lastTurn: state.lastTurn, ...(asking ? { asking } : {}) }
}

/** The activity of events held in memory (a session the host has open). */
export function activityOfEvents(events: readonly SessionEvent[]): SessionActivity {
  const state = emptyFold()
  for (const event of events) fold(state, event)
  return result(state)
}

/** Only lines of these types are parsed; the rest (tool results, deltas of text) are skipped unread. */
const WANTED = ['"assistant/message"', '"usage/step"', '"subagent/end"', '"file/changed"', '"turn/start"', '"turn/end"', '"approval/asked"', '"approval/decided"']

interface FileScan {
  fileSize: number
  mtimeMs: number
  /** Bytes read as whole lines; the next read starts here. */
  scannedTo: number
  state: Fold
}

/** Activity read from session log files, kept per file and brought up to date from what was appended. */
export class LogActivity {
  private readonly scans = new Map<string, FileScan>()

  async of(file: string): Promise<SessionActivity> {
    const info = await stat(file)
    let scan = this.scans.get(file)
    if (scan !== undefined && scan.fileSize === info.size && scan.mtimeMs === info.mtimeMs) return result(scan.state)
    // Read from the start again when the file shrank (it was rewritten): appended bytes only otherwise.
    if (scan === undefined || info.size < scan.scannedTo) scan = { fileSize: 0, mtimeMs: 0, scannedTo: 0, state: emptyFold() }
    const handle = await open(file, 'r')
    try {
      const length = info.size - scan.scannedTo
      const bytes = Buffer.alloc(length)
      const { bytesRead } = await handle.read(bytes, 0, length, scan.scannedTo)
      const text = bytes.subarray(0, bytesRead).toString('utf8')
      const whole = text.lastIndexOf('\n') + 1
      for (const line of text.slice(0, whole).split('\n')) {
        if (!WANTED.some((type) => line.includes(type))) continue
        try {
          fold(scan.state, JSON.parse(line) as SessionEvent)
        } catch {
          // A damaged line: the session list reports the file; the board shows what it could read.
        }
      }
      scan.scannedTo += Buffer.byteLength(text.slice(0, whole))
      scan.fileSize = info.size
      scan.mtimeMs = info.mtimeMs
    } finally {
      await handle.close()
    }
    this.scans.set(file, scan)
    return result(scan.state)
  }

  /** Drops what is kept for files no longer shown. */
  retainOnly(files: ReadonlySet<string>): void {
    for (const file of this.scans.keys()) if (!files.has(file)) this.scans.delete(file)
  }
}
