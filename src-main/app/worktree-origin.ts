// Which main worktree a folder's trust comes from when Seam made that folder as a worktree, so a
// window, `seam run --workspace`, ACP or the web host pointed straight at it is trusted as its
// repository is (the same approved items), exactly as a session bound to it is. Two proofs, both
// read from files without running git (trust is resolved synchronously, before a tree starts):
// - git's: the folder's `.git` is a file `gitdir: <common dir>/worktrees/<id>` whose entry points
//   back at this folder (`<id>/gitdir`), and `<id>/commondir` leads to `<main worktree>/.git`;
// - Seam's: the `worktrees` plugin's record of that folder, `ready`, names the same main worktree.
// A worktree someone else made (a plain `git worktree add`, a WorktreeCreate hook's folder) has
// no such record, so it is a workspace of its own: trusting a repository trusts only what Seam made.
import { lstatSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { WorktreeRecords } from '../../plugins/worktrees/records'

/** The main worktree whose trust `folder` inherits (as the record names it), or undefined. */
export function seamWorktreeOrigin(folder: string, seamHome: string): string | undefined {
  const main = gitMainWorktree(folder)
  if (main === undefined) return undefined
  const here = realPath(folder)
  const record = new WorktreeRecords(seamHome).all().find((entry) => entry.state === 'ready' && realPath(entry.path) === here)
  if (!record || realPath(record.repo) !== main) return undefined
  return record.repo
}

/** The main worktree of the linked worktree at `folder` (real path), from git's own files. */
function gitMainWorktree(folder: string): string | undefined {
  try {
    const dotGit = path.join(folder, '.git')
    if (!lstatSync(dotGit).isFile()) return undefined // The main worktree itself, or no repository.
    const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim()
    if (!pointer) return undefined
    const entry = path.resolve(folder, pointer)
    // The repository must list this very folder as that worktree (a copied `.git` file does not count).
    const back = path.resolve(entry, readFileSync(path.join(entry, 'gitdir'), 'utf8').trim())
    if (realPath(path.dirname(back)) !== realPath(folder)) return undefined
    const common = realPath(path.resolve(entry, readFileSync(path.join(entry, 'commondir'), 'utf8').trim()))
    // A bare repository has no main worktree whose trust could be inherited.
    return path.basename(common) === '.git' ? path.dirname(common) : undefined
  } catch {
    return undefined
  }
}

function realPath(file: string): string {
  try {
    return realpathSync(file)
  } catch {
    return path.resolve(file)
  }
}
