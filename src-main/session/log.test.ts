// "Printed means persisted" (issue 11, DESIGN.md "Sessions"): a listener (the UI, `seam run
// --json`, plugins) hears of an event only once its line is in the session file, and the events
// of one tick share one write (group commit).
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import { SessionStore } from './store'

let root: string
let store: SessionStore

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-log-'))
  store = SessionStore.inSeamHome(root)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

/** The seqs the file holds right now. */
function seqsOnDisk(path: string): number[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as SessionEvent).seq)
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('SessionLog: printed means persisted', () => {
  it('hands an event to listeners only after its line is in the file, without anyone flushing', async () => {
    const log = store.create({ workspace: '/w' })
    const onDiskWhenHeard: number[][] = []
    log.onAppend(() => onDiskWhenHeard.push(seqsOnDisk(log.path)))
    log.append({ type: 'turn/start', turnId: 't' })
    expect(onDiskWhenHeard).toEqual([]) // not yet written, so not yet heard of
    await nextTick()
    await nextTick()
    expect(onDiskWhenHeard).toEqual([[1, 2]])
    await log.close()
  })

  it('group commit: the events of one tick go out in one write, before the first of them is heard of', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: Array<{ seq: number; onDisk: number[] }> = []
    log.onAppend((event) => heard.push({ seq: event.seq, onDisk: seqsOnDisk(log.path) }))
    for (let i = 0; i < 50; i++) log.append({ type: 'notice', level: 'info', text: `n${i}`, source: 'test' })
    await log.flush()
    expect(heard.map((h) => h.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2))
    // Every listener call saw all 50 lines already there: one write carried them.
    for (const h of heard) expect(h.onDisk).toHaveLength(51)
    await log.close()
  })

  it('flush (plain and durable) resolves after the listeners heard of every event appended so far', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: number[] = []
    log.onAppend((event) => heard.push(event.seq))
    log.append({ type: 'turn/start', turnId: 't' })
    await log.flush({ durable: true })
    expect(heard).toEqual([2])
    expect(seqsOnDisk(log.path)).toEqual([1, 2])
    log.append({ type: 'turn/end', turnId: 't', reason: 'completed', steps: 0 })
    await log.flush()
    expect(heard).toEqual([2, 3])
    await log.close()
  })

  it('snapshot() holds only what listeners were handed: snapshot + onAppend sees each event exactly once', async () => {
    const log = store.create({ workspace: '/w' })
    log.append({ type: 'turn/start', turnId: 't' })
    log.append({ type: 'user/message', turnId: 't', content: 'hi', source: 'user' })
    expect(log.events.map((e) => e.seq)).toEqual([1, 2, 3])
    const shown = log.snapshot().map((e) => e.seq)
    expect(shown).toEqual([1])
    const later: number[] = []
    log.onAppend((event) => later.push(event.seq))
    await log.flush()
    expect([...shown, ...later]).toEqual([1, 2, 3])
    expect(log.snapshot().map((e) => e.seq)).toEqual([1, 2, 3])
    await log.close()
  })

  it('a listener that appends and flushes from inside a delivery still hears every event once, in seq order', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: number[] = []
    log.onAppend((event) => {
      heard.push(event.seq)
      if (event.type === 'turn/start') {
        log.append({ type: 'notice', level: 'info', text: 'reacting', source: 'test' })
        void log.flush()
      }
    })
    log.append({ type: 'turn/start', turnId: 't' })
    log.append({ type: 'user/message', turnId: 't', content: 'hi', source: 'user' })
    await log.flush()
    await nextTick()
    expect(heard).toEqual([2, 3, 4])
    expect(seqsOnDisk(log.path)).toEqual([1, 2, 3, 4])
    await log.close()
  })

  it('close writes what is pending and tells the listeners before letting go of them', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: number[] = []
    log.onAppend((event) => heard.push(event.seq))
    log.append({ type: 'turn/start', turnId: 't' })
    await log.close()
    expect(heard).toEqual([2])
    expect(seqsOnDisk(log.path)).toEqual([1, 2])
  })

  it('never tells a listener of an event whose write failed', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: number[] = []
    log.onAppend((event) => heard.push(event.seq))
    await rm(log.path)
    log.append({ type: 'turn/start', turnId: 't' })
    await expect(log.flush({ durable: true })).rejects.toThrow(log.path)
    await nextTick()
    expect(heard).toEqual([])
    expect(log.snapshot().map((e) => e.seq)).toEqual([1])
    await expect(log.close()).rejects.toThrow(log.path)
  })
})

describe('SessionLog: after close', () => {
  it('a durable flush after close resolves with the close and does not reopen the file', async () => {
    const log = store.create({ workspace: '/w' })
    log.append({ type: 'turn/start', turnId: 't' })
    await log.close()
    await rm(log.path) // a reopen without O_CREAT would fail loudly
    await expect(log.flush({ durable: true })).resolves.toBeUndefined()
    expect(() => log.append({ type: 'turn/end', turnId: 't', reason: 'completed', steps: 0 })).toThrow(/after close/)
  })
})

describe('SessionLog: group commit of syncs', () => {
  it('a durable flush whose lines an earlier sync already covers issues no fdatasync', async () => {
    const log = store.create({ workspace: '/w' })
    log.append({ type: 'turn/start', turnId: 't' })
    await log.flush({ durable: true })
    const after = log.syncs
    expect(after).toBe(1)
    await log.flush({ durable: true })
    await log.flush({ durable: true })
    expect(log.syncs).toBe(after)
    log.append({ type: 'turn/end', turnId: 't', reason: 'completed', steps: 0 })
    await log.flush({ durable: true })
    expect(log.syncs).toBe(after + 1)
    await log.close()
  })

  it('durable flushes made while a sync runs share the one sync queued behind it', async () => {
    const log = store.create({ workspace: '/w' })
    log.append({ type: 'turn/start', turnId: 't' })
    const first = log.flush({ durable: true })
    const waiting: Promise<void>[] = []
    for (let i = 0; i < 20; i++) {
      log.append({ type: 'notice', level: 'info', text: `n${i}`, source: 'test' })
      waiting.push(log.flush({ durable: true }))
    }
    await Promise.all([first, ...waiting])
    expect(log.syncs).toBe(2)
    await log.close()
  })

  it('a background sync writes and hands the events out at once, and close waits for the sync', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: number[] = []
    log.onAppend((event) => heard.push(event.seq))
    log.append({ type: 'turn/end', turnId: 't', reason: 'completed', steps: 0 })
    await log.flush({ durable: 'background' })
    expect(heard).toEqual([2])
    expect(seqsOnDisk(log.path)).toEqual([1, 2])
    expect(log.syncs).toBe(1)
    await log.close()
  })

  it('a failed sync nobody awaited is told to onFailure at once, and every later append, flush and close fails', async () => {
    const log = store.create({ workspace: '/w' })
    // Writes to /dev/null succeed, fdatasync on it fails (EINVAL): a real failed sync after a good write.
    await rm(log.path)
    await symlink('/dev/null', log.path)
    const failures: Error[] = []
    log.onFailure((error) => failures.push(error))
    const heard: number[] = []
    log.onAppend((event) => heard.push(event.seq))
    log.append({ type: 'turn/end', turnId: 't', reason: 'completed', steps: 0 })
    await log.flush({ durable: 'background' })
    expect(heard).toEqual([2]) // written, so printed
    await vi.waitFor(() => expect(failures).toHaveLength(1))
    expect(failures[0].message).toMatch(/^syncing .* failed: EINVAL/)
    expect(() => log.append({ type: 'notice', level: 'info', text: 'later', source: 'test' })).toThrow(/can no longer be written/)
    await expect(log.flush({ durable: true })).rejects.toBe(failures[0])
    await expect(log.close()).rejects.toBe(failures[0])
  })

  it('an awaited durable flush rejects with the failed sync', async () => {
    const log = store.create({ workspace: '/w' })
    await rm(log.path)
    await symlink('/dev/null', log.path)
    log.append({ type: 'turn/start', turnId: 't' })
    await expect(log.flush({ durable: true })).rejects.toThrow(/syncing .* failed: EINVAL/)
    await expect(log.close()).rejects.toThrow(/EINVAL/)
  })
})

describe('SessionLog: written()', () => {
  it('resolves once the events are in the file and heard of, sharing one write among callers of the same microtask run', async () => {
    const log = store.create({ workspace: '/w' })
    const heard: Array<{ seq: number; onDisk: number[] }> = []
    log.onAppend((event) => heard.push({ seq: event.seq, onDisk: seqsOnDisk(log.path) }))
    const waits: Promise<void>[] = []
    for (let i = 0; i < 5; i++) {
      log.append({ type: 'notice', level: 'info', text: `n${i}`, source: 'test' })
      waits.push(log.written())
    }
    await Promise.all(waits)
    expect(heard.map((h) => h.seq)).toEqual([2, 3, 4, 5, 6])
    for (const h of heard) expect(h.onDisk).toEqual([1, 2, 3, 4, 5, 6]) // one write carried all five
    await log.close()
  })

  it('rejects once the log has failed', async () => {
    const log = store.create({ workspace: '/w' })
    await rm(log.path)
    log.append({ type: 'turn/start', turnId: 't' })
    await expect(log.written()).rejects.toThrow(log.path)
    await expect(log.written()).rejects.toThrow(log.path)
    await expect(log.close()).rejects.toThrow(log.path)
  })
})
