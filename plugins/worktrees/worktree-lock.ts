// git does not guard `git worktree add` against another one running at once in the same
// repository: while one writes its new entry under .git/worktrees/, the other can read that
// entry's half-written `commondir` and die ("failed to read .git/worktrees/c1/commondir").
// Several Seam sessions starting in worktrees at once do exactly that, so every command that
// changes a repository's worktree list runs alone, across Seam's processes: it holds a lock file
// per repository under `<Seam home>/worktrees/locks/`, which names its owner's pid. A lock whose
// owner is gone (a kill -9 in the middle) is taken over.
import { createHash, randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { WorktreeError, type GitRunner } from './git'
import { processAlive } from './records'

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
  return (args, cwd, runOptions) => {
    if (args[0] !== 'worktree' || !CHANGES_THE_LIST.has(args[1] ?? '')) return git(args, cwd, runOptions)
    return withRepoLock(lockFile(lockDir, cwd), () => git(args, cwd, runOptions), options)
  }
}

/** The lock file of the repository at `repo` (its main worktree, as git names it). */
export function lockFile(lockDir: string, repo: string): string {
  return path.join(lockDir, `${createHash('sha256').update(path.resolve(repo)).digest('hex').slice(0, 24)}.lock`)
}

async function withRepoLock<T>(file: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquire(file, options.patienceMs ?? DEFAULT_PATIENCE_MS)
  try {
    return await work()
  } finally {
    release()
  }
}

async function acquire(file: string, patienceMs: number): Promise<() => void> {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  // The pid is written to a file of its own first and linked into place, so the lock never exists
  // without its owner's pid in it (a reader never sees it half-written).
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(draft, `${process.pid}\n`, { mode: 0o600 })
  const started = Date.now()
  try {
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      try {
        linkSync(draft, file)
        const mine = statSync(file).ino
        return () => {
          // Only our own lock is removed (a slow release never removes a successor's).
          if (inodeOf(file) === mine) rmSync(file, { force: true })
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const owner = ownerOf(file)
      if (!owner) continue // Released in between.
      if (owner.pid === undefined || !processAlive(owner.pid)) {
        // Taken over only while it is still the dead owner's lock, not one a live process made since.
        if (inodeOf(file) === owner.ino) rmSync(file, { force: true })
        continue
      }
      if (Date.now() - started > patienceMs) {
        throw new WorktreeError(
          `another Seam process (pid ${owner.pid}) has been changing this repository's worktrees for ${Math.round(patienceMs / 1000)} s; try again when it is done, or delete ${file} if no Seam is running`,
          'GIT_FAILED'
        )
      }
      await sleep(delay)
    }
  } finally {
    rmSync(draft, { force: true })
  }
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
