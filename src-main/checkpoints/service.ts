// Reverting and rewinding, from the log and the session's blob folder alone (so both work after a
// restart). Order, as for a tool: the contents about to be overwritten are kept as blobs, then the
// restore is journaled, done and committed (journal.ts), so a crash in the middle is finished when
// the session is next loaded (recovery.ts). A file that changed since what the log knows (the user
// edited it, a later turn changed it) is a conflict: nothing is done until the caller confirms
// with `force`.
import type { RestoreOutcome, RestorePlanFile, TurnFileChange as TurnFileChangePublic, FileText } from '../../src-shared/contract/checkpoints'
import type { FileState, RestoredFile } from '../../src-shared/session/checkpoint-events'
import { readFile } from 'node:fs/promises'
import { errorText } from '../../src-shared/kernel'
import { liveEvents } from '../session/history'
import { CheckpointStore, formatBytes } from '../session/checkpoint-store'
import type { SessionLog } from '../session/log'
import { filesChangedAfter, lastKnownState, sameState, turnFileChanges, userMessageAt } from './changes'
import { journaledRestore, type RestoreOperation } from './journal'
import type { RecoveredRestore } from './recovery'

/** Per log: the last revert or rewind queued. They run one at a time, so two never interleave. */
const queues = new WeakMap<SessionLog, Promise<unknown>>()

/** Runs `task` after every earlier revert or rewind of the same log has settled. */
export function oneAtATime<T>(log: SessionLog, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(log) ?? Promise.resolve()).then(task, task)
  queues.set(log, run.catch(() => undefined))
  return run
}

/** Texts longer than this are not sent for a diff (the UI says how big the file is). */
export const DIFF_TEXT_MAX_BYTES = 512 * 1024

/** A request the log cannot satisfy (no such turn, message or file): the transport answers INVALID_INPUT. */
export class CheckpointRequestError extends Error {
  readonly code = 'INVALID_INPUT'
  constructor(
    message: string,
    readonly field: string
  ) {
    super(message)
    this.name = 'CheckpointRequestError'
  }
}

export interface RestoreOptions {
  /** Put the files back even where they changed since. */
  force?: boolean
  /** Only say what would happen. */
  preview?: boolean
}

/** The files `turnId` changed, with their contents before, after and (when it differs) now. */
export async function turnChanges(log: SessionLog, turnId: string): Promise<TurnFileChangePublic[]> {
  const store = CheckpointStore.forLog(log.path)
  const out: TurnFileChangePublic[] = []
  for (const change of turnFileChanges(log.events, turnId)) {
    const now = await store.observe(change.path)
    const status = sameState(now, change.after) ? 'current' : sameState(now, change.before) ? 'reverted' : 'changed'
    const revertible = change.before.kind !== 'unsaved'
    out.push({
      path: change.path,
      before: await textOf(store, change.before),
      after: change.after === undefined ? { kind: 'unavailable', reason: 'the call did not report how it left the file' } : await textOf(store, change.after),
      tools: change.tools,
      status,
      ...(status === 'changed' ? { current: await currentText(store, change.path, now) } : {}),
      revertible,
      ...(change.before.kind === 'unsaved' ? { reason: `Not kept before the turn: ${change.before.reason}.` } : {})
    })
  }
  return out
}

/** Puts one file (`path`) or all files of `turnId` back as they were before that turn. */
export async function revertTurn(log: SessionLog, turnId: string, path: string | undefined, options: RestoreOptions = {}): Promise<RestoreOutcome> {
  let changes = turnFileChanges(log.events, turnId)
  if (changes.length === 0) throw new CheckpointRequestError(`turn ${turnId} changed no files this session kept checkpoints of`, 'turnId')
  if (path !== undefined) {
    changes = changes.filter((change) => change.path === path)
    if (changes.length === 0) throw new CheckpointRequestError(`turn ${turnId} did not change ${path}`, 'path')
  }
  const targets = changes.map((change) => ({ path: change.path, to: change.before, expected: change.after }))
  return restore(log, targets, options, { type: 'revert', scope: path === undefined ? 'turn' : 'file', turnId })
}

/**
 * Rewinds to before the user message at `messageSeq`: the files changed since go back to how
 * they were before it, and a `rewind` event takes that message and everything after it out of
 * the model's history. The outcome's `prompt` is the message as typed.
 */
export async function rewindTo(log: SessionLog, messageSeq: number, options: RestoreOptions = {}): Promise<RestoreOutcome> {
  const events = log.events
  const message = userMessageAt(events, messageSeq)
  if (message === undefined) throw new CheckpointRequestError(`event ${messageSeq} is not a user message of this session`, 'messageSeq')
  if (!liveEvents(events).includes(message)) throw new CheckpointRequestError(`message ${messageSeq} was already rewound`, 'messageSeq')
  const prompt = message.originalContent ?? message.content
  const targets = filesChangedAfter(events, messageSeq).map((file) => ({ path: file.path, to: file.before, expected: lastKnownState(events, file.path) }))
  const outcome = await restore(log, targets, options, { type: 'rewind', toSeq: messageSeq, turnId: message.turnId, prompt }, true)
  return { ...outcome, prompt }
}

interface Target {
  path: string
  /** The state to put back. */
  to: FileState
  /** What the log says the file holds now (undefined: it does not know). */
  expected: FileState | undefined
}

async function restore(
  log: SessionLog,
  targets: readonly Target[],
  options: RestoreOptions,
  operation: RestoreOperation,
  logEmpty = false
): Promise<RestoreOutcome> {
  const store = CheckpointStore.forLog(log.path)
  const skipped: RestoreOutcome['skipped'] = []
  const planned: Array<Target & { now: FileState; conflict: boolean }> = []
  for (const target of targets) {
    if (target.to.kind === 'unsaved') {
      skipped.push({ path: target.path, reason: `its content before was not kept: ${target.to.reason}` })
      continue
    }
    const now = await store.observe(target.path)
    if (sameState(now, target.to)) {
      skipped.push({ path: target.path, reason: 'it is already as it was' })
      continue
    }
    planned.push({ ...target, now, conflict: !sameState(now, target.expected) })
  }
  const files: RestorePlanFile[] = []
  for (const plan of planned) {
    files.push({
      path: plan.path,
      to: await textOf(store, plan.to),
      expected: plan.expected === undefined ? { kind: 'unavailable', reason: 'the log does not say' } : await textOf(store, plan.expected),
      current: await currentText(store, plan.path, plan.now),
      conflict: plan.conflict
    })
  }
  if (options.preview === true) return { status: 'preview', files, skipped }
  if (planned.some((plan) => plan.conflict) && options.force !== true) return { status: 'conflict', files, skipped }
  // A revert with nothing to put back logs nothing; a rewind still rewinds the conversation.
  if (planned.length === 0 && !logEmpty) return { status: 'done', files, skipped }

  // Keep what is about to be overwritten (so the journal's `replaced` states can be read back),
  // then journal, restore and commit.
  const restored: RestoredFile[] = []
  for (const plan of planned) restored.push({ path: plan.path, to: plan.to, replaced: await store.capture(plan.path), conflict: plan.conflict })
  const { failures } = await journaledRestore(log, store, operation, restored)
  if (failures.length > 0) {
    log.append({ type: 'notice', level: 'error', text: `Some files could not be put back: ${failures.join('; ')}`, source: 'checkpoints' })
    await log.flush()
    throw new Error(`Some files could not be put back: ${failures.join('; ')}`)
  }
  return { status: 'done', files, skipped }
}

/** A restore recovery finished, as the outcome the interrupted call would have answered (for a retried `seam rewind`). */
export async function recoveredOutcome(log: SessionLog, recovered: RecoveredRestore): Promise<RestoreOutcome> {
  const store = CheckpointStore.forLog(log.path)
  const files: RestorePlanFile[] = []
  for (const file of recovered.commit.files) {
    const to = await textOf(store, file.to)
    files.push({ path: file.path, to, expected: await textOf(store, file.replaced), current: to, conflict: file.conflict })
  }
  const { operation } = recovered.journal
  return { status: 'done', files, skipped: recovered.left, ...(operation.type === 'rewind' ? { prompt: operation.prompt } : {}) }
}

async function textOf(store: CheckpointStore, state: FileState): Promise<FileText> {
  if (state.kind === 'absent') return { kind: 'absent' }
  if (state.kind === 'unsaved') return { kind: 'unavailable', reason: state.reason }
  if (state.size > DIFF_TEXT_MAX_BYTES) return { kind: 'too-large', size: state.size }
  try {
    return decode(await store.blob(state.sha256))
  } catch (error) {
    return { kind: 'unavailable', reason: errorText(error) }
  }
}

async function currentText(store: CheckpointStore, path: string, now: FileState): Promise<FileText> {
  if (now.kind !== 'file') return now.kind === 'absent' ? { kind: 'absent' } : { kind: 'unavailable', reason: now.reason }
  if (now.size > DIFF_TEXT_MAX_BYTES) return { kind: 'too-large', size: now.size }
  try {
    return decode(await readFile(path))
  } catch (error) {
    return { kind: 'unavailable', reason: errorText(error) }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

function decode(bytes: Buffer): FileText {
  if (bytes.includes(0)) return { kind: 'binary', size: bytes.length }
  try {
    return { kind: 'text', text: utf8.decode(bytes) }
  } catch {
    return { kind: 'binary', size: bytes.length }
  }
}

/** A file state in words, for notices and the CLI. */
export function describeState(state: FileState): string {
  if (state.kind === 'absent') return 'no file'
  if (state.kind === 'unsaved') return `not kept (${state.reason})`
  return formatBytes(state.size)
}
