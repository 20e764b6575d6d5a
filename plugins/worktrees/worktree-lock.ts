// git does not guard `git worktree add` against another one running at once in the same
// repository: while one writes its new entry under .git/worktrees/, the other can read that
// entry's half-written `commondir` and die ("failed to read .git/worktrees/c1/commondir").
// Several Seam sessions starting in worktrees at once do exactly that, so every command that
// changes a repository's worktree list runs alone, across Seam's processes: it holds a lock file
// per repository under `<Seam home>/worktrees/locks/`, which names its owner's pid. A lock whose
// owner is gone (a kill -9 in the middle) is taken over.
import { createHash } from 'node:crypto'
import path from 'node:path'
import { FileLockBusyError, withFileLock } from '@seam/sdk/node'
import { WorktreeError, type GitRunner } from './git'

/** The `git worktree` subcommands that change the list (the others only read it). */
const CHANGES_THE_LIST = new Set(['add', 'remove', 'prune', 'move', 'repair'])

/** How long to wait for a live owner before saying so: a checkout of a huge repository is slow. */
const DEFAULT_PATIENCE_MS = 10 * 60_000

export interface LockOptions {
  /** How long a lock held by a live process is waited for before the command fails. */
  patienceMs?: number
}

/** `git`, with the commands that change a repository's worktree list run one at a time. */
export function oneWorktreeChangeAtATime(git: GitRunner, lockDir: string, options: LockOptions = {}): GitRunner {
  return async (args, cwd, runOptions) => {
    if (args[0] !== 'worktree' || !CHANGES_THE_LIST.has(args[1] ?? '')) return git(args, cwd, runOptions)
    const file = lockFile(lockDir, cwd)
    try {
      return await withFileLock(file, () => git(args, cwd, runOptions), { patienceMs: options.patienceMs ?? DEFAULT_PATIENCE_MS })
    } catch (error) {
      if (!(error instanceof FileLockBusyError)) throw error
      throw new WorktreeError(
        `another Seam process (pid ${error.ownerPid}) has been changing this repository's worktrees for ${Math.round(error.waitedMs / 1000)} s; try again when it is done, or delete ${file} if no Seam is running`,
        'GIT_FAILED'
      )
    }
  }
}

/** The lock file of the repository at `repo` (its main worktree, as git names it). */
export function lockFile(lockDir: string, repo: string): string {
  return path.join(lockDir, `${createHash('sha256').update(path.resolve(repo)).digest('hex').slice(0, 24)}.lock`)
}
