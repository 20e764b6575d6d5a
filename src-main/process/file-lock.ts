// A lock shared by Seam's processes (the desktop app, `seam run`s, the CLI): a file whose owner
// linked it into place first. It names its owner's pid, written before the link so that a reader
// never sees it empty; a lock whose owner is gone (a kill -9 in the middle) is taken over. For
// work that must not interleave with the same work in another process: a read-modify-write of a
// shared JSON file, a `git worktree add`.
import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { processAlive } from './process-alive'

/** A live process has held the lock longer than the caller would wait. */
export class FileLockBusyError extends Error {
  constructor(
    readonly file: string,
    readonly ownerPid: number,
    readonly waitedMs: number
  ) {
    super(`another Seam process (pid ${ownerPid}) has held ${file} for ${Math.round(waitedMs / 1000)} s; try again when it is done, or delete the file if no Seam is running`)
    this.name = 'FileLockBusyError'
  }
}

export interface FileLockOptions {
  /** How long a lock held by a live process is waited for before FileLockBusyError. */
  patienceMs: number
}

/** Runs `work` while holding the lock `file` (waiting for another owner, taking over a dead one's). */
export async function withFileLock<T>(file: string, work: () => Promise<T>, options: FileLockOptions): Promise<T> {
  const release = await acquire(file, options)
  try {
    return await work()
  } finally {
    release()
  }
}

/**
 * `withFileLock` for a short synchronous step (a read-modify-write of a small file): the thread
 * sleeps while another process holds the lock, which is only ever for such a step.
 */
export function withFileLockSync<T>(file: string, work: () => T, options: FileLockOptions): T {
  const release = acquireSync(file, options)
  try {
    return work()
  } finally {
    release()
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms)
}

type Release = () => void

/** Tries to take the lock, yielding how long to wait before each next try; returns its release. */
function* takeLock(file: string, options: FileLockOptions): Generator<number, Release> {
  const draft = writeDraft(file)
  const started = Date.now()
  try {
    for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
      const outcome = tryOnce(file, draft)
      if (typeof outcome === 'function') return outcome
      if (outcome === 'again') continue
      checkPatience(file, outcome.pid, started, options)
      yield delay
    }
  } finally {
    rmSync(draft, { force: true })
  }
}

async function acquire(file: string, options: FileLockOptions): Promise<Release> {
  const tries = takeLock(file, options)
  for (let step = tries.next(); ; step = tries.next()) {
    if (step.done) return step.value
    await sleep(step.value)
  }
}

function acquireSync(file: string, options: FileLockOptions): Release {
  const tries = takeLock(file, options)
  for (let step = tries.next(); ; step = tries.next()) {
    if (step.done) return step.value
    sleepSync(step.value)
  }
}

/** The owner's pid goes into a file of its own first, linked into place whole by `tryOnce`. */
function writeDraft(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(draft, `${process.pid}\n`, { mode: 0o600 })
  return draft
}

function checkPatience(file: string, ownerPid: number, started: number, options: FileLockOptions): void {
  const waited = Date.now() - started
  if (waited > options.patienceMs) throw new FileLockBusyError(file, ownerPid, waited)
}

/** The release when the lock was taken; `again` when it was freed or taken over just now; else its live owner. */
function tryOnce(file: string, draft: string): Release | 'again' | { pid: number } {
  try {
    linkSync(draft, file)
    const mine = statSync(file).ino
    // Only our own lock is removed (a slow release never removes a successor's).
    return () => {
      if (inodeOf(file) === mine) rmSync(file, { force: true })
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const owner = ownerOf(file)
  if (!owner) return 'again' // Released in between.
  if (owner.pid === undefined || !processAlive(owner.pid)) {
    // Taken over only while it is still the dead owner's lock, not one a live process made since.
    if (inodeOf(file) === owner.ino) rmSync(file, { force: true })
    return 'again'
  }
  return { pid: owner.pid }
}

/** The lock's owner (`pid` undefined when the file names none: not a lock Seam made), or undefined once it is gone. */
function ownerOf(file: string): { pid: number | undefined; ino: number } | undefined {
  try {
    const ino = statSync(file).ino
    const pid = Number(readFileSync(file, 'utf8').trim())
    return { pid: Number.isInteger(pid) && pid > 0 ? pid : undefined, ino }
  } catch {
    return undefined
  }
}

function inodeOf(file: string): number | undefined {
  try {
    return statSync(file).ino
  } catch {
    return undefined
  }
}
