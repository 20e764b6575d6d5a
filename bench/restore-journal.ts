// Benchmark: what the restore journal costs (issue 25). A turn that rewrote 40 files of 4 KiB is
// reverted, over and over (the files are written back between rounds, untimed):
// - journaled: what a revert does to the files now (src-main/checkpoints/journal.ts): keep the
//   contents about to be overwritten, the session's restore marker written and synced,
//   `restore/journal` synced, each file written to a tagged temp, synced and renamed, the folder
//   synced, the commit synced, the marker removed;
// - plain (baseline, same run): the same files kept and restored the same way (temp, fsync,
//   rename) with no marker, journal, commit or folder sync;
// - the whole `revertTurn` (planning against the log, the diff texts, then the journaled restore)
//   against the same plain restore.
// Alternating rounds (the order turns each round), the best of 15 each (fsync times on a
// shared disk swing widely; the best round is the one least disturbed), ms per revert of the 40 files.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RestoredFile } from '../src-shared/session/checkpoint-events'
import { turnFileChanges } from '../src-main/checkpoints/changes'
import { journaledRestore } from '../src-main/checkpoints/journal'
import { revertTurn } from '../src-main/checkpoints/service'
import { CheckpointStore } from '../src-main/session/checkpoint-store'
import { SessionStore } from '../src-main/session/store'
import { line, type BenchLine } from './measure'

const FILES = 40
const SIZE = 4096
const ROUNDS = 15

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-bench-restore-'))
  try {
    const workspace = join(dir, 'ws')
    const paths = Array.from({ length: FILES }, (_, i) => join(workspace, `f${String(i).padStart(2, '0')}.txt`))
    const content = (version: string, i: number) => `${version} ${i} `.padEnd(SIZE, version === 'v1' ? 'a' : 'b')
    await mkdir(workspace)
    for (const [i, path] of paths.entries()) await writeFile(path, content('v1', i))

    // A turn that changed every file from v1 to v2, logged as the checkpoints plugin logs it.
    const store = new SessionStore(join(dir, 'sessions'))
    const log = await store.create({ workspace, title: 'bench' })
    const blobs = CheckpointStore.forLog(log.path)
    const turnId = 'turn-1'
    log.append({ type: 'turn/start', turnId })
    for (const [i, path] of paths.entries()) {
      const token = `t${i}`
      log.append({ type: 'file/checkpoint', turnId, callId: `c${i}`, token, tool: 'Write', path, before: await blobs.capture(path) })
      await writeFile(path, content('v2', i))
      log.append({ type: 'file/changed', turnId, callId: `c${i}`, token, tool: 'Write', path, after: await blobs.capture(path) })
    }
    log.append({ type: 'turn/end', turnId, reason: 'completed' })
    await log.flush({ durable: true })
    const changes = turnFileChanges(log.events, turnId)

    const rewrite = async () => {
      for (const [i, path] of paths.entries()) await writeFile(path, content('v2', i))
    }
    const plain = async () => {
      for (const change of changes) await blobs.capture(change.path)
      for (const change of changes) await blobs.restore(change.path, change.before)
    }
    const journaled = async () => {
      const files: RestoredFile[] = []
      for (const change of changes) files.push({ path: change.path, to: change.before, replaced: await blobs.capture(change.path), conflict: false })
      await journaledRestore(log, blobs, { type: 'revert', scope: 'turn', turnId }, files)
    }
    const whole = async () => {
      const outcome = await revertTurn(log, turnId, undefined)
      if (outcome.status !== 'done' || outcome.files.length !== FILES) throw new Error(`the revert did not restore the ${FILES} files: ${outcome.status}, ${outcome.files.length}`)
    }

    const times = { plain: [] as number[], journaled: [] as number[], whole: [] as number[] }
    const subjects = [['plain', plain], ['journaled', journaled], ['whole', whole]] as const
    for (let round = 0; round <= ROUNDS; round++) {
      for (let k = 0; k < subjects.length; k++) {
        const [name, fn] = subjects[(round + k) % subjects.length]
        await rewrite()
        const start = performance.now()
        await fn()
        // The first round warms up (blobs of the v2 contents get written once).
        if (round > 0) times[name].push(performance.now() - start)
      }
    }
    await log.close()
    const plainMs = best(times.plain)
    return [
      line('restore-journal', `journaled restore of a ${FILES}-file revert (marker, journal, files, folder sync, commit; vs the same files restored plainly)`, best(times.journaled), 'ms', plainMs),
      line('restore-journal', `whole revertTurn of a ${FILES}-file turn (plan, diff texts, journaled restore; vs the same files restored plainly)`, best(times.whole), 'ms', plainMs)
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function best(values: number[]): number {
  return Math.min(...values)
}
