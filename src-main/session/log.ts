// One open session: its events in memory and the append side of its file. "Printed means
// persisted": `append` validates and records synchronously, but listeners (the UI, `seam run
// --json`, plugins) hear of an event only after its line is in the file. Lines go out by group
// commit: every event appended within one turn of the event loop shares one write(2), done on
// `setImmediate` or at once by `flush()`. `flush({ durable: true })` also fdatasyncs, by group
// commit too: a sync covers every write before it started, a request that finds its writes already
// covered costs nothing, and the requests made while a sync runs share the one that follows it.
// `flush({ durable: 'background' })` starts that sync without waiting for it. Which events need
// which: README "Durability".
import { close as closeFd, closeSync, constants, fdatasync, fsync, open as openFd, openSync, truncateSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { isDeepStrictEqual, promisify } from 'node:util'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { SessionEvent } from '../../src-shared/session/events'
import { checkSessionEvent } from './event-check'
import { eventCopy, eventEntry, NOT_PLAIN, type EventEntry } from './event-copy'
import { ownEventEntry } from './own-entries'
import type { FileRepair } from './load'

export type SessionAppendListener = (event: SessionEvent) => void

/** An event the log refused: nothing was recorded or written. */
export class InvalidSessionEventError extends Error {
  constructor(
    readonly sessionId: string,
    readonly field: string,
    detail: string
  ) {
    super(`session ${sessionId}: invalid event: ${field}: ${detail}`)
    this.name = 'InvalidSessionEventError'
  }
}

export interface SessionLogInit {
  id: string
  path: string
  /** Loaded or freshly created events, all already in the file; the first is the header. */
  events: SessionEvent[]
  warnings?: string[]
  repair?: FileRepair
  /** Applied to each appended event's JSON line before it is recorded (keeps known keys out of the log). */
  redactLine?: (line: string) => string
  /** The file was just created: the first durable flush also syncs its folder (the new name). */
  created?: boolean
  onClose?: (log: SessionLog) => void
}

export interface FlushOptions {
  /**
   * Also fdatasync the file, so the events survive a power loss, not only a crash of Seam: `true`
   * resolves once they are on the device; `'background'` starts the sync and resolves once they
   * are written (a failure of the sync reaches `onFailure` listeners and fails the log).
   */
  durable?: boolean | 'background'
}

export type SessionFailureListener = (error: Error) => void

// Appending without O_CREAT: a deleted file fails loudly instead of restarting headerless.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND

/** `appendOwn` validates too (the test suite sets it): a drift between its callers and the schemas fails tests. */
const CHECK_OWN_EVENTS = process.env.SEAM_CHECK_OWN_EVENTS === '1'

const fdatasyncAsync = promisify(fdatasync)
const fsyncAsync = promisify(fsync)
const openAsync = promisify(openFd)
const closeAsync = promisify(closeFd)
const RESOLVED: Promise<void> = Promise.resolve()

export class SessionLog {
  readonly id: string
  readonly path: string
  /** Problems tolerated while loading (a torn last line); empty for a clean file. */
  readonly warnings: readonly string[]
  private readonly recorded: SessionEvent[]
  private readonly listeners = new Set<SessionAppendListener>()
  private readonly failureListeners = new Set<SessionFailureListener>()
  private readonly onClose: ((log: SessionLog) => void) | undefined
  private readonly redactLine: (line: string) => string
  private repair: FileRepair | undefined
  /** Lines appended but not written yet (concatenated as they come: no array to join), and their events. */
  private pending = ''
  private pendingEvents: SessionEvent[] = []
  /** Written but not yet handed to the listeners. */
  private undelivered: SessionEvent[] = []
  /** How many of `recorded` (a prefix) the listeners have been handed. */
  private delivered: number
  private delivering = false
  private fd: number | undefined
  private failure: Error | undefined
  private writeScheduled = false
  /** The write `written()` scheduled for the end of this run of microtasks. */
  private microWrite: Promise<void> | undefined
  private dirUnsynced: boolean
  /** Group writes done so far, and how many of them the last started sync covers. */
  private writes = 0
  private coveredWrites = 0
  /** The fdatasync running now, and the one queued behind it that every later request shares. */
  private inFlight: Promise<void> | undefined
  private queued: Promise<void> | undefined
  private syncCount = 0
  private closing: Promise<void> | undefined

  constructor(init: SessionLogInit) {
    this.id = init.id
    this.path = init.path
    this.recorded = init.events
    this.delivered = init.events.length
    this.warnings = init.warnings ?? []
    this.repair = init.repair
    this.dirUnsynced = init.created === true
    this.onClose = init.onClose
    this.redactLine = init.redactLine ?? ((line) => line)
  }

  /**
   * Every event recorded, in order (seq = index + 1), including the last few that may still be on
   * their way to the file. Treat the events as immutable.
   */
  /** What each appended line goes through before it is recorded (a child log of this session uses the same). */
  get lineRedaction(): (line: string) => string {
    return this.redactLine
  }

  get events(): readonly SessionEvent[] {
    return this.recorded
  }

  /**
   * The events already written and handed to the listeners, as a fresh array: what a viewer may
   * show now. A viewer that takes this snapshot and then subscribes with `onAppend` (in the same
   * synchronous run) sees every event exactly once.
   */
  snapshot(): SessionEvent[] {
    return this.recorded.slice(0, this.delivered)
  }

  /** How many events snapshot() would hand out now (seqs 1 to this). */
  get deliveredCount(): number {
    return this.delivered
  }

  /** Part of snapshot(): at most `count` delivered events from seq `fromSeq` on. */
  snapshotFrom(fromSeq: number, count: number): SessionEvent[] {
    const start = Math.max(0, fromSeq - 1)
    return this.recorded.slice(start, Math.min(this.delivered, start + Math.max(0, count)))
  }

  get closed(): boolean {
    return this.closing !== undefined
  }

  /**
   * Assigns `seq` and `ts`, validates, records in memory and queues the line for the next group
   * write (this tick's, or an earlier `flush`). Listeners hear of the event after that write.
   * Throws `InvalidSessionEventError` (naming the field) for an invalid event; nothing is recorded then.
   */
  append(input: SessionEventInput): SessionEvent {
    const seq = this.nextSeq(input)
    const check = checkSessionEvent({ ...input, seq, ts: Date.now() })
    if (!check.ok) throw new InvalidSessionEventError(this.id, check.field, check.message)
    const { event } = check
    return this.record(event, event.seq, event.ts, eventEntry(event, event.seq, event.ts))
  }

  /**
   * `append` for the host's own events (the agent loop's turn, message and tool events), built by
   * typed code from values already checked where they entered (the model stream, the tool
   * pipeline): no zod pass per event. With SEAM_CHECK_OWN_EVENTS=1 (the test suite sets it) each
   * is validated too, and must serialise exactly as `append` would write it.
   */
  appendOwn(input: SessionEventInput): SessionEvent {
    const seq = this.nextSeq(input)
    const ts = Date.now()
    const entry = ownEventEntry(input, seq, ts)
    if (CHECK_OWN_EVENTS) this.checkOwn(input, seq, ts, entry)
    return this.record(input, seq, ts, entry)
  }

  private nextSeq(input: SessionEventInput): number {
    if (this.closing !== undefined) throw new Error(`session ${this.id}: append after close`)
    if (this.failure !== undefined) throw new Error(`session ${this.id}: the log can no longer be written (${this.failure.message})`)
    const type: unknown = (input as { type?: unknown }).type
    if (type === 'session/header') throw new InvalidSessionEventError(this.id, 'type', 'session/header is written only when the session is created')
    return (this.recorded[this.recorded.length - 1]?.seq ?? 0) + 1
  }

  private checkOwn(input: SessionEventInput, seq: number, ts: number, entry: EventEntry | typeof NOT_PLAIN): void {
    const check = checkSessionEvent({ ...input, seq, ts })
    if (!check.ok) throw new InvalidSessionEventError(this.id, check.field, check.message)
    // The same value as append would record (zod drops unknown keys; key order aside), and the
    // line is that value's JSON.stringify, byte for byte (own-entries.ts writes it by hand).
    if (entry === NOT_PLAIN || !isDeepStrictEqual(entry.event, eventCopy(check.event, seq, ts)) || entry.json !== JSON.stringify(entry.event)) {
      throw new InvalidSessionEventError(this.id, '(root)', `appendOwn would write ${entry === NOT_PLAIN ? 'a non-plain value' : entry.json}, append ${JSON.stringify(check.event)}`)
    }
  }

  /**
   * Records the event with `seq` and `ts` and queues its line. `entry` is its copy and line.
   * Keep what the file holds, not the caller's object: the same value a reload yields (no
   * `undefined` keys, no non-JSON values) and a copy that later mutation of the input cannot
   * reach. A plain copy is that value (event-copy.ts, own-entries.ts: the line is written in the
   * same walk); anything else (NOT_PLAIN) is serialised by JSON.stringify and re-read from its line.
   */
  private record(fields: object, seq: number, ts: number, entry: EventEntry | typeof NOT_PLAIN): SessionEvent {
    let event: SessionEvent | typeof NOT_PLAIN = entry === NOT_PLAIN ? NOT_PLAIN : entry.event
    let line: string
    try {
      const json = `${entry === NOT_PLAIN ? JSON.stringify({ type: (fields as { type?: unknown }).type, seq, ts, ...fields }) : entry.json}\n`
      line = this.redactLine(json)
      if (line !== json) event = NOT_PLAIN // a key was redacted: memory holds the redacted line
    } catch (error) {
      throw new InvalidSessionEventError(this.id, '(root)', `not serializable as JSON (${(error as Error).message})`)
    }
    if (event === NOT_PLAIN) event = JSON.parse(line) as SessionEvent
    this.recorded.push(event)
    this.pending += line
    this.pendingEvents.push(event)
    if (!this.writeScheduled) {
      this.writeScheduled = true
      setImmediate(this.writeSoon)
    }
    return event
  }

  /**
   * Writes every event appended so far to the file in one write(2) and hands them to the
   * listeners; the promise settles once they are written (and, with `durable`, synced to the
   * device). Rejects for good after a failed write or sync.
   */
  flush(options: FlushOptions = {}): Promise<void> {
    try {
      this.writePending()
    } catch (error) {
      return Promise.reject(error)
    }
    this.deliver()
    if (options.durable === true) return this.sync()
    if (options.durable === 'background') this.sync().catch(() => undefined) // reported through onFailure
    return Promise.resolve()
  }

  /**
   * `flush()` without durability, done before it returns: every event appended so far is written
   * and handed to the listeners. Throws when the write fails (the log then fails for good). For a
   * caller that knows nothing else will be appended before its event must be in the file (the
   * one call of a step): no promise and no turn of the microtask queue.
   */
  writeNow(): void {
    this.writePending()
    this.deliver()
  }

  /**
   * Resolves once every event appended so far is written (listeners told), like `flush()`, but the
   * write waits for the end of the current run of microtasks: calls that each need their own event
   * written before they go on (the concurrent tool calls of one step) share one write(2).
   */
  written(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    if (this.pendingEvents.length === 0) return Promise.resolve()
    this.microWrite ??= RESOLVED.then(this.writeMicro)
    return this.microWrite
  }

  /** The write `written()` scheduled: settles its promise directly (a throw rejects it), no promise of its own. */
  private readonly writeMicro = (): void => {
    this.microWrite = undefined
    this.writePending()
    this.deliver()
  }

  /** fdatasyncs issued so far (a durable flush whose writes were already covered issues none). */
  get syncs(): number {
    return this.syncCount
  }

  /**
   * Told once when the log fails for good (a write or a sync, also one nobody awaited): from then
   * on every append, flush and close fails too. Returns the function that removes the listener.
   */
  onFailure(listener: SessionFailureListener): () => void {
    this.failureListeners.add(listener)
    return () => {
      this.failureListeners.delete(listener)
    }
  }

  /**
   * Called with each event once it is in the file, in seq order, for as long as it is subscribed
   * (it never hears of an event whose write failed). Returns the function that removes the listener.
   */
  onAppend(listener: SessionAppendListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Writes what is pending (listeners still hear of it), waits for a sync in flight, and releases the file. Idempotent; appending afterwards throws. */
  close(): Promise<void> {
    if (this.closing === undefined) {
      let written: Error | undefined
      try {
        this.writePending()
        this.deliver()
      } catch (error) {
        written = error as Error
      }
      this.listeners.clear()
      // The syncs in flight or queued still need the descriptor; a sync failure fails the close.
      const syncs = this.queued ?? this.inFlight ?? Promise.resolve()
      this.closing = syncs
        .catch(() => undefined)
        .then(() => {
          const fd = this.fd
          this.fd = undefined
          if (fd !== undefined) closeSync(fd)
          if (written !== undefined) throw written
          if (this.failure !== undefined) throw this.failure
        })
      this.closing.catch(() => undefined) // handled by whoever awaits close()
      this.onClose?.(this)
    }
    return this.closing
  }

  private readonly writeSoon = (): void => {
    this.writeScheduled = false
    try {
      this.writePending()
    } catch {
      // The failure is kept in `this.failure`: the next append, flush or close reports it.
      return
    }
    this.deliver()
  }

  // Synchronous on purpose: a group write carries a tick's worth of lines (kilobytes) to the page
  // cache, which takes microseconds; a thread-pool round trip per write costs more than the write.
  private writePending(): void {
    if (this.failure !== undefined) throw this.failure
    if (this.pendingEvents.length === 0) return
    let data = this.pending
    const events = this.pendingEvents
    this.pending = ''
    this.pendingEvents = []
    try {
      const repair = this.repair
      this.repair = undefined
      if (repair?.truncateTo !== undefined) truncateSync(this.path, repair.truncateTo)
      if (repair?.needsNewline === true) data = `\n${data}`
      const fd = this.openFile()
      // The string as it is (Node encodes it without a Buffer of ours); a short write, which a
      // regular file gives only near a full disk, goes on from the bytes not written.
      const written = writeSync(fd, data)
      if (written < Buffer.byteLength(data)) {
        const bytes = Buffer.from(data, 'utf8')
        let offset = written
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset)
      }
    } catch (error) {
      throw this.fail(new Error(`writing ${this.path} failed: ${(error as Error).message}`, { cause: error }))
    }
    this.writes++
    if (this.undelivered.length === 0) this.undelivered = events
    else for (const event of events) this.undelivered.push(event)
  }

  private openFile(): number {
    this.fd ??= openSync(this.path, APPEND_FLAGS)
    return this.fd
  }

  /**
   * fdatasync of everything written so far, plus the folder once for a new file. Group commit: the
   * sync running now or queued covers it when no write came after that sync started; otherwise the
   * one sync queued behind the running one (shared by every request until it starts) does.
   */
  private sync(): Promise<void> {
    // Closed: nothing can have been written since, and the file must not be opened again.
    if (this.closing !== undefined) return this.closing
    if (this.failure !== undefined) return Promise.reject(this.failure)
    if (this.queued !== undefined) return this.queued
    if (this.writes === this.coveredWrites && !this.dirUnsynced) return this.inFlight ?? Promise.resolve()
    let fd: number
    try {
      fd = this.openFile()
    } catch (error) {
      return Promise.reject(this.fail(new Error(`syncing ${this.path} failed: ${(error as Error).message}`, { cause: error })))
    }
    const running = this.inFlight
    if (running === undefined) return this.startSync(fd)
    const queued = running.then(
      () => {
        this.queued = undefined
        return this.startSync(fd)
      },
      () => {
        this.queued = undefined
        throw this.failure
      }
    )
    this.queued = queued
    return queued
  }

  private startSync(fd: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    this.coveredWrites = this.writes
    const syncDir = this.dirUnsynced
    this.dirUnsynced = false
    this.syncCount++
    const done = (async () => {
      try {
        await fdatasyncAsync(fd)
        if (syncDir) await syncFolder(dirname(this.path))
      } catch (error) {
        throw this.fail(new Error(`syncing ${this.path} failed: ${(error as Error).message}`, { cause: error }))
      }
    })()
    this.inFlight = done
    const clear = (): void => {
      if (this.inFlight === done) this.inFlight = undefined
    }
    done.then(clear, clear)
    return done
  }

  /** The log fails for good with `error` (the first failure wins); failure listeners hear of it once. */
  private fail(error: Error): Error {
    if (this.failure !== undefined) return this.failure
    this.failure = error
    for (const listener of this.failureListeners) {
      try {
        listener(error)
      } catch (inner) {
        process.emitWarning(`session ${this.id}: an onFailure listener threw: ${(inner as Error)?.message ?? String(inner)}`)
      }
    }
    this.failureListeners.clear()
    return error
  }

  /** Hands written events to the listeners in order; re-entrant appends and flushes from a listener queue behind. */
  private deliver(): void {
    if (this.delivering) return
    this.delivering = true
    try {
      while (this.undelivered.length > 0) {
        const batch = this.undelivered
        this.undelivered = []
        for (const event of batch) {
          this.delivered++
          for (const listener of this.listeners) {
            try {
              listener(event)
            } catch (error) {
              // The event is already written; one listener's failure must not undo it or starve the others.
              process.emitWarning(`session ${this.id}: an onAppend listener threw: ${(error as Error)?.message ?? String(error)}`)
            }
          }
        }
      }
    } finally {
      this.delivering = false
    }
  }
}

/** Makes a new file's name durable: fsync of its folder (where the platform allows opening one). */
async function syncFolder(dir: string): Promise<void> {
  let fd: number
  try {
    fd = await openAsync(dir, 'r')
  } catch {
    return // e.g. Windows cannot open a folder; its file system orders metadata itself
  }
  try {
    await fsyncAsync(fd)
  } finally {
    await closeAsync(fd)
  }
}
