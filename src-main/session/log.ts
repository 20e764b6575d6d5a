// One open session: its events in memory and the append side of its file. `append` validates and
// records synchronously; the lines go to disk in one coalesced write when `flush` is called, or on
// the next turn of the event loop if nobody flushes first. The loop flushes at every turn
// boundary and before any tool with side effects runs, so what a tool changes is never ahead of
// the log.
import { closeSync, constants, openSync, truncateSync, writeSync } from 'node:fs'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { SessionEvent } from '../../src-shared/session/events'
import { checkSessionEvent } from './event-check'
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
  /** Loaded or freshly created events; the first is the header. */
  events: SessionEvent[]
  warnings?: string[]
  repair?: FileRepair
  /** Applied to each appended event's JSON line before it is recorded (keeps known keys out of the log). */
  redactLine?: (line: string) => string
  onClose?: (log: SessionLog) => void
}

// Appending without O_CREAT: a deleted file fails loudly instead of restarting headerless.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND

export class SessionLog {
  readonly id: string
  readonly path: string
  /** Problems tolerated while loading (a torn last line); empty for a clean file. */
  readonly warnings: readonly string[]
  private readonly recorded: SessionEvent[]
  private readonly listeners = new Set<SessionAppendListener>()
  private readonly onClose: ((log: SessionLog) => void) | undefined
  private readonly redactLine: (line: string) => string
  private repair: FileRepair | undefined
  private pending: string[] = []
  private fd: number | undefined
  private failure: Error | undefined
  private writeScheduled = false
  private closing: Promise<void> | undefined

  constructor(init: SessionLogInit) {
    this.id = init.id
    this.path = init.path
    this.recorded = init.events
    this.warnings = init.warnings ?? []
    this.repair = init.repair
    this.onClose = init.onClose
    this.redactLine = init.redactLine ?? ((line) => line)
  }

  /** Every event, in order (seq = index + 1). Treat the events as immutable. */
  get events(): readonly SessionEvent[] {
    return this.recorded
  }

  get closed(): boolean {
    return this.closing !== undefined
  }

  /**
   * Assigns `seq` and `ts`, validates, records in memory and queues the line for writing.
   * Throws `InvalidSessionEventError` (naming the field) for an invalid event; nothing is recorded then.
   */
  append(input: SessionEventInput): SessionEvent {
    if (this.closing !== undefined) throw new Error(`session ${this.id}: append after close`)
    if (this.failure !== undefined) throw new Error(`session ${this.id}: the log can no longer be written (${this.failure.message})`)
    const type: unknown = (input as { type?: unknown }).type
    if (type === 'session/header') throw new InvalidSessionEventError(this.id, 'type', 'session/header is written only when the session is created')
    const last = this.recorded[this.recorded.length - 1]
    const check = checkSessionEvent({ ...input, seq: (last?.seq ?? 0) + 1, ts: Date.now() })
    if (!check.ok) throw new InvalidSessionEventError(this.id, check.field, check.message)
    let line: string
    try {
      line = this.redactLine(`${JSON.stringify(check.event)}\n`)
    } catch (error) {
      throw new InvalidSessionEventError(this.id, '(root)', `not serializable as JSON (${(error as Error).message})`)
    }
    // Keep what the file holds, not the caller's object: the same value a reload yields (no
    // `undefined` keys, no non-JSON values) and a copy that later mutation of the input cannot reach.
    const event = JSON.parse(line) as SessionEvent
    this.recorded.push(event)
    this.pending.push(line)
    if (!this.writeScheduled) {
      this.writeScheduled = true
      setImmediate(this.writeSoon)
    }
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (error) {
        // The event is already recorded; one listener's failure must not undo it or starve the others.
        process.emitWarning(`session ${this.id}: an onAppend listener threw: ${(error as Error)?.message ?? String(error)}`)
      }
    }
    return event
  }

  /**
   * Writes every event appended so far to the file (write(2), not fsync); the promise settles
   * once they are there. Rejects for good after a failed write.
   */
  flush(): Promise<void> {
    try {
      this.writePending()
      return Promise.resolve()
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** Called after each successful append, synchronously. Returns the function that removes the listener. */
  onAppend(listener: SessionAppendListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Flushes and releases the file. Idempotent; appending afterwards throws. */
  close(): Promise<void> {
    if (this.closing === undefined) {
      try {
        this.writePending()
        this.closing = Promise.resolve()
      } catch (error) {
        this.closing = Promise.reject(error)
        this.closing.catch(() => undefined) // handled by whoever awaits close()
      } finally {
        this.listeners.clear()
        if (this.fd !== undefined) closeSync(this.fd)
        this.fd = undefined
        this.onClose?.(this)
      }
    }
    return this.closing
  }

  private readonly writeSoon = (): void => {
    this.writeScheduled = false
    try {
      this.writePending()
    } catch {
      // The failure is kept in `this.failure`: the next append, flush or close reports it.
    }
  }

  // Synchronous on purpose: a flush carries a step's worth of lines (kilobytes) to the page cache,
  // which takes microseconds; a thread-pool round trip per flush costs more than the write itself.
  private writePending(): void {
    if (this.failure !== undefined) throw this.failure
    if (this.pending.length === 0) return
    let data = this.pending.join('')
    this.pending = []
    try {
      if (this.fd === undefined) {
        const repair = this.repair
        this.repair = undefined
        if (repair?.truncateTo !== undefined) truncateSync(this.path, repair.truncateTo)
        if (repair?.needsNewline === true) data = `\n${data}`
        this.fd = openSync(this.path, APPEND_FLAGS)
      }
      const bytes = Buffer.from(data, 'utf8')
      let offset = 0
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset)
    } catch (error) {
      this.failure = new Error(`writing ${this.path} failed: ${(error as Error).message}`, { cause: error })
      throw this.failure
    }
  }
}
