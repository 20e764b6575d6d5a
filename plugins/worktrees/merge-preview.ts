// Whether merging a branch into its base conflicts, found without touching either worktree.
// git 2.38+ answers with `git merge-tree --write-tree` (no checkout at all). Older git has no
// such preview, so the merge is tried in a scratch worktree of its own: a detached checkout of
// the base in a temporary folder, `git merge --no-commit` there, the unmerged files read, and the
// scratch worktree removed again. The main worktree and the session's are never written to.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gitWords, type GitRunner } from './git'

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
  const holder = mkdtempSync(path.join(tmpdir(), 'seam-merge-check-'))
  const scratch = path.join(holder, 'tree')
  try {
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
