// The restore journal: how a revert or rewind changes files so that a crash in the middle can be
// finished. 1. `restore/journal` lists every file with the state it goes to and the state it
// replaces (both kept as blobs already), synced. 2. The files are restored, each written to a temp
// file named after the journal's tag and renamed into place; their folders are synced. 3. The
// commit, the `revert`/`rewind` event naming the journal, is synced. A journal without its commit
// is unfinished: `recovery.ts` finishes it when the session is next loaded. So that loading a
// workspace finds them without reading every log, a restore in progress also leaves a marker,
// `<sessions>/.restoring/<id>` holding the session's workspace, from before the journal until
// after the commit.
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import type { RestoredFile } from '../../src-shared/session/checkpoint-events'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'
import { errorText } from '../../src-shared/kernel'
import { CheckpointStore, syncFolder } from '../session/checkpoint-store'
import type { SessionLog } from '../session/log'
import { realTarget, tempPathFor } from '../tools/builtin/atomic-write'

export type RestoreJournal = SessionEventOf<'restore/journal'>
export type RestoreOperation = RestoreJournal['operation']
export type RestoreCommit = SessionEventOf<'revert'> | SessionEventOf<'rewind'>

/**
 * Test-only fault hook: with `SEAM_TEST_RESTORE_KILL_AT=N`, the process kills itself (SIGKILL)
 * when N files are restored, right before the next one is renamed into place (its temp file
 * written), so a test can stop a real `seam revert` at an exact point.
 */
export const RESTORE_KILL_AT_ENV = 'SEAM_TEST_RESTORE_KILL_AT'

/** The temp-file tag of a journaled restore: `.<name>.seam-restore-<tag>.tmp` is Seam's, and this restore's. */
export function tempTagOf(journalTag: string): string {
  return `seam-restore-${journalTag}`
}

/** Journals, restores and commits `files`. Files that could not be restored are left out of the commit and returned. */
export async function journaledRestore(log: SessionLog, store: CheckpointStore, operation: RestoreOperation, files: readonly RestoredFile[]): Promise<{ commit: RestoreCommit; failures: string[] }> {
  await writeMarker(log)
  const journal = log.append({ type: 'restore/journal', operation, tag: randomBytes(8).toString('hex'), files: [...files] }) as RestoreJournal
  await log.flush({ durable: true })
  const killAt = faultPoint()
  const restored: RestoredFile[] = []
  const failures: string[] = []
  for (const [index, file] of files.entries()) {
    try {
      await store.restore(file.path, file.to, { tempTag: tempTagOf(journal.tag), beforeRename: index === killAt ? killSelf : undefined })
      restored.push(file)
    } catch (error) {
      failures.push(`${file.path}: ${errorText(error)}`)
    }
  }
  const commit = await commitRestore(log, journal, restored)
  await removeMarker(log.path)
  return { commit, failures }
}

/** Syncs the restored files' folders (their renames and unlinks), then logs and syncs the commit. */
export async function commitRestore(log: SessionLog, journal: RestoreJournal, restored: readonly RestoredFile[]): Promise<RestoreCommit> {
  for (const folder of new Set(restored.map((file) => path.dirname(file.path)))) await syncFolder(folder)
  const commit = log.append({ ...journal.operation, journalSeq: journal.seq, files: [...restored] }) as RestoreCommit
  await log.flush({ durable: true })
  return commit
}

/** Journals with no commit, in log order (one at a time per log means at most one, unless crashes repeat). */
export function unfinishedJournals(events: readonly SessionEvent[]): RestoreJournal[] {
  const committed = new Set<number>()
  for (const event of events) if ((event.type === 'revert' || event.type === 'rewind') && event.journalSeq !== undefined) committed.add(event.journalSeq)
  return events.filter((event): event is RestoreJournal => event.type === 'restore/journal' && !committed.has(event.seq))
}

/** Removes the temp file an interrupted restore may have left next to `file` (only the one named by this journal's tag). */
export async function removeRestoreTemp(file: string, journalTag: string): Promise<void> {
  const tag = tempTagOf(journalTag)
  const places = new Set([tempPathFor(file, tag)])
  try {
    places.add(tempPathFor(await realTarget(file), tag))
  } catch {
    // The path cannot be resolved (a folder in it is gone or unreadable): only its own folder is looked at.
  }
  for (const temp of places) await rm(temp, { force: true })
}

const MARKERS = '.restoring'

function markerPath(logPath: string): string {
  return path.join(path.dirname(logPath), MARKERS, path.basename(logPath, '.jsonl'))
}

/** Marks the session as restoring (its workspace in the file), synced: found by `interruptedSessions` after a crash. */
async function writeMarker(log: SessionLog): Promise<void> {
  const header = log.events[0]
  const file = markerPath(log.path)
  await mkdir(path.dirname(file), { recursive: true })
  const handle = await open(file, 'w', 0o600)
  try {
    await handle.writeFile(header?.type === 'session/header' ? header.workspace : '')
    await handle.sync()
  } finally {
    await handle.close()
  }
  await syncFolder(path.dirname(file))
}

/** The session has no restore in progress (any more). */
export async function removeMarker(logPath: string): Promise<void> {
  await rm(markerPath(logPath), { force: true })
}

/** Ids of the sessions in `sessionsDir` of `workspace` whose restore may have been cut short (a marker is left). */
export async function interruptedSessions(sessionsDir: string, workspace: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(path.join(sessionsDir, MARKERS))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const ids: string[] = []
  for (const name of names) {
    const owner = await readFile(path.join(sessionsDir, MARKERS, name), 'utf8').catch(() => undefined)
    if (owner === workspace) ids.push(name)
  }
  return ids
}

function faultPoint(): number | undefined {
  const value = process.env[RESTORE_KILL_AT_ENV]
  if (value === undefined || value === '') return undefined
  const n = Number(value)
  return Number.isInteger(n) && n >= 0 ? n : undefined
}

function killSelf(): void {
  process.kill(process.pid, 'SIGKILL')
}
