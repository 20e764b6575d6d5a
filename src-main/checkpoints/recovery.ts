// Finishing a revert or rewind that was interrupted (the process killed, the machine off) between
// its journal and its commit, when its workspace is next loaded (HostRuntime start: the desktop
// app, web mode, every `seam` command, ACP; SessionHub.finishRestoresOf) or the session is opened
// (SessionHub.open). It is rolled forward, not back: the user asked
// for it (and confirmed any conflict) and every target is a kept blob, so finishing gives the state
// they chose, and a rewind's conversation and files agree again. Per file: its temp file is
// removed; a file already at its target counts as done; a file still as the restore found it is
// restored now; a file that is neither was changed after the crash (by the user, most likely): it
// is left as it is and named in the notice. Then the commit and a notice are logged, synced.
import type { RestoredFile } from '../../src-shared/session/checkpoint-events'
import { errorText } from '../../src-shared/kernel'
import { CheckpointStore } from '../session/checkpoint-store'
import type { SessionLog } from '../session/log'
import { sameState } from './changes'
import { commitRestore, removeMarker, removeRestoreTemp, tempTagOf, unfinishedJournals, type RestoreCommit, type RestoreJournal } from './journal'

export interface RecoveredRestore {
  journal: RestoreJournal
  commit: RestoreCommit
  /** Files that were at their target before recovery. */
  alreadyRestored: string[]
  /** Files recovery restored. */
  restoredNow: string[]
  /** Files left as they are, with why. */
  left: Array<{ path: string; reason: string }>
  /** What the user is told (also logged as a `notice` event). */
  notice: string
}

/** Finishes every unfinished restore of `log`; returns what was done (empty when nothing was pending). */
export async function finishInterruptedRestores(log: SessionLog): Promise<RecoveredRestore[]> {
  const pending = unfinishedJournals(log.events)
  const store = CheckpointStore.forLog(log.path)
  const out: RecoveredRestore[] = []
  for (const journal of pending) out.push(await finish(log, store, journal))
  // A marker with nothing unfinished (the crash came before the journal or after the commit) is stale.
  await removeMarker(log.path)
  return out
}

async function finish(log: SessionLog, store: CheckpointStore, journal: RestoreJournal): Promise<RecoveredRestore> {
  const done: RestoredFile[] = []
  const alreadyRestored: string[] = []
  const restoredNow: string[] = []
  const left: RecoveredRestore['left'] = []
  for (const file of journal.files) {
    try {
      await removeRestoreTemp(file.path, journal.tag)
      const now = await store.observe(file.path)
      if (sameState(now, file.to)) {
        alreadyRestored.push(file.path)
        done.push(file)
      } else if (sameState(now, file.replaced)) {
        await store.restore(file.path, file.to, { tempTag: tempTagOf(journal.tag) })
        restoredNow.push(file.path)
        done.push(file)
      } else {
        left.push({ path: file.path, reason: 'it changed after the interrupted restore began, so it was left as it is' })
      }
    } catch (error) {
      left.push({ path: file.path, reason: errorText(error) })
    }
  }
  const commit = await commitRestore(log, journal, done)
  const notice = noticeText(journal, alreadyRestored.length, restoredNow.length, left)
  log.append({ type: 'notice', level: left.length > 0 ? 'error' : 'warn', text: notice, source: 'checkpoints' })
  await log.flush({ durable: true })
  return { journal, commit, alreadyRestored, restoredNow, left, notice }
}

function noticeText(journal: RestoreJournal, already: number, now: number, left: RecoveredRestore['left']): string {
  const { operation } = journal
  const what =
    operation.type === 'rewind'
      ? `a rewind to before the prompt "${oneLine(operation.prompt)}"`
      : operation.scope === 'file'
        ? `a revert of ${journal.files[0]?.path ?? 'a file'}`
        : `a revert of a turn's files`
  const total = journal.files.length
  let text = `Seam was stopped in the middle of ${what} (started ${new Date(journal.ts).toISOString()}). It has been finished: ${already} of ${total} file${total === 1 ? '' : 's'} had been put back, ${now} ${now === 1 ? 'was' : 'were'} put back now.`
  if (left.length > 0) text += ` Not put back: ${left.map((file) => `${file.path} (${file.reason})`).join('; ')}.`
  return text
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}
