// Whether merging a branch into its base conflicts, found without touching either worktree.
// git 2.38+ answers with `git merge-tree --write-tree` (no checkout at all). Older git has no
// such preview, so the merge is tried in a scratch worktree of its own: a detached checkout of
// the base in a temporary folder, `git merge --no-commit` there, the unmerged files read, and the
// scratch worktree removed again. The main worktree and the session's are never written to.
// The scratch folder's name carries its owner's pid and holds a note of the repository, so a
// check cut short by kill -9 is swept (folder removed, git's entry pruned) when Seam next starts.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { gitWords, type GitRunner } from './git'
import { processAlive } from '@seam/sdk/node'

/** `<temp>/seam-merge-check-<owner pid>-<random>`: the folder one older-git check works in. */
const SCRATCH_PREFIX = 'seam-merge-check-'
const SCRATCH_NAME = /^seam-merge-check-(\d+)-/
/** The note in a scratch folder naming the repository whose worktree list has its entry. */
const OWNER_FILE = 'owner.json'
const OwnerSchema = z.object({ pid: z.number().int(), repo: z.string() })

/** `git merge-tree --write-tree` (conflicts without touching a worktree) arrived in 2.38. */
export const MINIMUM_GIT_FOR_MERGE_TREE: readonly [number, number, number] = [2, 38, 0]

/** How the preview is made: `merge-tree` on git 2.38+, else `scratch-worktree`. */
export type MergePreviewMethod = 'merge-tree' | 'scratch-worktree'

export type MergePreview = { clean: true } | { clean: false; conflicts: string[] } | { error: string }

export async function previewMerge(git: GitRunner, repo: string, base: string, branch: string, method: MergePreviewMethod): Promise<MergePreview> {
  return method === 'merge-tree' ? withMergeTree(git, repo, base, branch) : inScratchWorktree(git, repo, base, branch)
}

async function withMergeTree(git: GitRunner, repo: string, base: string, branch: string): Promise<MergePreview> {
  const preview = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', base, branch], repo)
  if (preview.code === 1) return { clean: false, conflicts: preview.stdout.split('\n').slice(1).filter(Boolean) }
  if (preview.code !== 0) return { error: `git could not check the merge: ${gitWords(preview)}` }
  return { clean: true }
}

async function inScratchWorktree(git: GitRunner, repo: string, base: string, branch: string): Promise<MergePreview> {
  const holder = mkdtempSync(path.join(tmpdir(), `${SCRATCH_PREFIX}${process.pid}-`))
  const scratch = path.join(holder, 'tree')
  try {
    writeFileSync(path.join(holder, OWNER_FILE), JSON.stringify({ pid: process.pid, repo }) + '\n')
    const added = await git(['worktree', 'add', '--detach', '--quiet', scratch, base], repo)
    if (added.code !== 0) return { error: `git could not make a scratch worktree to check the merge: ${gitWords(added)}` }
    const merged = await git(['merge', '--no-commit', '--no-ff', '--quiet', branch], scratch)
    if (merged.code === 0) return { clean: true }
    const unmerged = await git(['diff', '--name-only', '--diff-filter=U', '-z'], scratch)
    const conflicts = unmerged.stdout.split('\0').filter(Boolean)
    if (conflicts.length > 0) return { clean: false, conflicts }
    return { error: `git could not check the merge: ${gitWords(merged)}` }
  } finally {
    await git(['worktree', 'remove', '--force', '--force', scratch], repo)
    rmSync(holder, { recursive: true, force: true })
    await git(['worktree', 'prune'], repo)
  }
}

/**
 * Removes the scratch folders of older-git checks whose owner process is gone (a kill -9 in the
 * middle of one) and prunes their entries from their repositories' worktree lists; the folders
 * removed. A folder of a live owner (another Seam running a check now) is left alone.
 */
export async function sweepDeadMergeChecks(git: GitRunner, temp: string = tmpdir()): Promise<string[]> {
  let names: string[]
  try {
    names = readdirSync(temp)
  } catch {
    return []
  }
  const swept: string[] = []
  for (const name of names) {
    const owner = SCRATCH_NAME.exec(name)
    if (!owner || processAlive(Number(owner[1]))) continue
    const holder = path.join(temp, name)
    let repo: string | undefined
    try {
      repo = OwnerSchema.parse(JSON.parse(readFileSync(path.join(holder, OWNER_FILE), 'utf8'))).repo
    } catch {
      // Killed before the note was written: nothing was added to any worktree list yet.
    }
    try {
      rmSync(holder, { recursive: true, force: true })
    } catch {
      continue // Not ours to remove (another user's temp folder): left alone.
    }
    if (repo !== undefined && existsSync(repo)) await git(['worktree', 'prune'], repo)
    swept.push(holder)
  }
  return swept
}
