// `seam revert ID [--turn N] [--file PATH] [--force]` and `seam rewind ID N [--force]`: the
// desktop app's revert and rewind (src-main/checkpoints) from the terminal. Turns and prompts are
// counted from 1 in log order; `--turn` defaults to the last turn that changed files. A file that
// changed since is a conflict: listed, nothing changed, exit 1, unless --force. A revert or rewind
// a crash interrupted is finished when the session is opened (src-main/checkpoints/recovery.ts)
// and said on stderr; `seam rewind ID N` run again for the same prompt then reports it done.
import { resolve } from 'node:path'
import type { RestoreOutcome } from '../../src-shared/contract/checkpoints'
import type { HostRuntime } from '../app/runtime'
import { turnsWithChanges } from '../checkpoints/changes'
import type { RecoveredRestore } from '../checkpoints/recovery'
import { oneAtATime, recoveredOutcome, revertTurn, rewindTo } from '../checkpoints/service'
import { liveEvents } from '../session/history'
import { UsageError } from './usage-error'

interface Io {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

export interface CheckpointFlags {
  turn?: string
  file?: string
  force: boolean
  json: boolean
}

export async function checkpointCommand(runtime: HostRuntime, command: 'revert' | 'rewind', args: string[], flags: CheckpointFlags, io: Io): Promise<number> {
  const id = args.shift()
  if (!id) throw new UsageError(`seam ${command} needs a session id`)
  const { log, recovered } = await runtime.sessions.open(id)
  reportRecovered(recovered, io)
  let outcome: RestoreOutcome
  if (command === 'revert') {
    if (args.length > 0) throw new UsageError(`seam revert takes options, not "${args[0]}" (--turn N, --file PATH)`)
    const turns = turnsWithChanges(log.events)
    if (turns.length === 0) throw new UsageError(`session ${id} has no file changes to revert`)
    const n = flags.turn === undefined ? turns.length : positive(flags.turn, '--turn')
    const turnId = turns[n - 1]
    if (turnId === undefined) throw new UsageError(`--turn ${n}: the session has ${turns.length} turn${turns.length === 1 ? '' : 's'} that changed files`)
    const path = flags.file === undefined ? undefined : resolve(flags.file)
    outcome = await oneAtATime(log, () => revertTurn(log, turnId, path, { force: flags.force }))
  } else {
    if (args.length !== 1) throw new UsageError('seam rewind needs a session id and the number of the prompt to go back to (1 = the first)')
    const n = positive(args[0], 'the prompt number')
    const finished = sameRewindFinished(recovered, log.events, n)
    if (finished !== undefined) outcome = await recoveredOutcome(log, finished)
    else {
      const prompts = promptsOf(log.events)
      const message = prompts[n - 1]
      if (message === undefined) throw new UsageError(`prompt ${n}: the conversation has ${prompts.length} prompt${prompts.length === 1 ? '' : 's'}`)
      outcome = await oneAtATime(log, () => rewindTo(log, message.seq, { force: flags.force }))
    }
  }
  report(outcome, command, flags.json, io)
  return outcome.status === 'done' ? 0 : 1
}

type Events = Parameters<typeof liveEvents>[0]

function promptsOf(events: Events) {
  return liveEvents(events).filter((e) => e.type === 'user/message')
}

/**
 * The rewind recovery just finished, when prompt `n` of the conversation as it stood before it is
 * the message it rewound to: the retried command asked for exactly what was finished.
 */
function sameRewindFinished(recovered: readonly RecoveredRestore[], events: Events, n: number): RecoveredRestore | undefined {
  const rewind = recovered.find((r) => r.journal.operation.type === 'rewind')
  if (rewind === undefined || rewind.journal.operation.type !== 'rewind') return undefined
  const journalSeq = rewind.journal.seq
  const before = promptsOf(events.filter((e) => e.seq < journalSeq))
  return before[n - 1]?.seq === rewind.journal.operation.toSeq ? rewind : undefined
}

/** Restores recovery finished on open: their notices, on stderr (stdout keeps only the outcome, for --json). */
export function reportRecovered(recovered: readonly RecoveredRestore[], io: { stderr: NodeJS.WritableStream }): void {
  for (const r of recovered) io.stderr.write(`seam: ${r.notice}\n`)
}

function report(outcome: RestoreOutcome, command: 'revert' | 'rewind', json: boolean, io: Io): void {
  if (json) {
    io.stdout.write(`${JSON.stringify(outcome)}\n`)
    return
  }
  const verb = outcome.status === 'done' ? 'restored' : 'would restore'
  for (const file of outcome.files) io.stdout.write(`${verb} ${file.path}${file.conflict ? ' (changed since)' : ''}\n`)
  for (const skip of outcome.skipped) io.stdout.write(`not restored ${skip.path}: ${skip.reason}\n`)
  if (outcome.status === 'conflict') io.stderr.write(`seam ${command}: some files changed since; nothing was changed (run again with --force to overwrite them)\n`)
  if (outcome.status === 'done' && outcome.prompt !== undefined) io.stdout.write(`rewound to before: ${outcome.prompt}\n`)
}

function positive(text: string, what: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${what} must be a positive whole number (got "${text}")`)
  return n
}
