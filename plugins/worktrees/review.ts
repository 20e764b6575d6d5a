// Reviewing and landing a worktree session's work: the diff against its base (committed and
// uncommitted changes, untracked files included), a commit with a message the user edits, a merge
// into the base branch (fast-forward, merge commit or squash) in the main worktree, a pull request
// through `gh`, or Discard. Conflicts are found before anything is touched (merge-preview.ts), so
// a conflicting merge reports its files and leaves both worktrees as they were.
import { existsSync } from 'node:fs'
import type { WorktreeDiff, WorktreeFileChange, WorktreeMergeMode, WorktreeMergeResult, WorktreeRecord } from '@seam/sdk'
import { WorktreeError, gitOk, gitWords, parseGitVersion, versionAtLeast, type GitRunner } from './git'
import { MINIMUM_GIT_FOR_MERGE_TREE, previewMerge, type MergePreviewMethod } from './merge-preview'

function requireFolder(worktree: WorktreeRecord): void {
  if (!existsSync(worktree.path)) throw new WorktreeError(`the worktree ${worktree.path} no longer exists (deleted outside Seam)`, 'GIT_FAILED')
}

/** The commit the diff is taken against: where the branch left its base (the creation commit when the base is gone). */
async function diffBase(git: GitRunner, worktree: WorktreeRecord): Promise<string> {
  if (worktree.base && worktree.base !== 'HEAD') {
    const found = await git(['merge-base', worktree.base, 'HEAD'], worktree.path)
    if (found.code === 0 && found.stdout.trim()) return found.stdout.trim()
  }
  return worktree.baseCommit
}

export async function diffWorktree(git: GitRunner, worktree: WorktreeRecord): Promise<WorktreeDiff> {
  requireFolder(worktree)
  const cwd = worktree.path
  const base = await diffBase(git, worktree)
  const patch = await gitOk(git, ['diff', '--no-color', '--no-ext-diff', '-M', base, '--'], cwd, 'reading the diff')
  const numstat = await gitOk(git, ['diff', '--numstat', '-M', '-z', base, '--'], cwd, 'reading the diff')
  const names = await gitOk(git, ['diff', '--name-status', '-M', '-z', base, '--'], cwd, 'reading the diff')
  const files = splitPatch(patch, parseNameStatus(names), parseNumstat(numstat))
  const untracked = (await gitOk(git, ['ls-files', '--others', '--exclude-standard', '-z'], cwd, 'listing new files')).split('\0').filter(Boolean)
  for (const file of untracked) {
    // `--no-index` exits 1 when the files differ, which they always do here.
    const added = await git(['diff', '--no-color', '--no-index', '--', '/dev/null', file], cwd)
    const lines = added.stdout.split('\n').filter((line) => line.startsWith('+') && !line.startsWith('+++')).length
    files.push({ path: file, status: 'A', additions: lines, deletions: 0, patch: added.stdout })
  }
  files.sort((a, b) => a.path.localeCompare(b.path))
  const status = await gitOk(git, ['status', '--porcelain'], cwd, 'reading the status')
  const commits = Number((await gitOk(git, ['rev-list', '--count', `${base}..HEAD`], cwd, 'counting commits')).trim())
  return { files, uncommitted: status.trim() !== '', commits }
}

function parseNameStatus(text: string): Map<string, string> {
  const out = new Map<string, string>()
  const parts = text.split('\0').filter((part) => part !== '')
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++]
    if (status.startsWith('R') || status.startsWith('C')) {
      i++ // the old path
      out.set(parts[i++], status[0])
    } else {
      out.set(parts[i++], status[0])
    }
  }
  return out
}

function parseNumstat(text: string): Map<string, { additions: number; deletions: number }> {
  const out = new Map<string, { additions: number; deletions: number }>()
  const parts = text.split('\0')
  for (let i = 0; i < parts.length; i++) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i])
    if (!match) continue
    // A rename's line has an empty path followed by the old and the new path.
    const file = match[3] === '' ? parts[(i += 2)] : match[3]
    out.set(file, { additions: match[1] === '-' ? 0 : Number(match[1]), deletions: match[2] === '-' ? 0 : Number(match[2]) })
  }
  return out
}

function splitPatch(patch: string, statuses: Map<string, string>, counts: Map<string, { additions: number; deletions: number }>): WorktreeFileChange[] {
  const chunks = patch.split(/^(?=diff --git )/m).filter((chunk) => chunk.startsWith('diff --git '))
  const byPath = new Map<string, string>()
  for (const chunk of chunks) {
    const plus = /^\+\+\+ b\/(.*)$/m.exec(chunk)?.[1]
    const renamed = /^rename to (.*)$/m.exec(chunk)?.[1]
    const header = /^diff --git a\/.* b\/(.*)$/m.exec(chunk)?.[1]
    const file = renamed ?? (plus && plus !== '/dev/null' ? plus : header)
    if (file !== undefined) byPath.set(file, chunk)
  }
  return [...statuses].map(([file, status]) => ({ path: file, status, ...(counts.get(file) ?? { additions: 0, deletions: 0 }), patch: byPath.get(file) ?? '' }))
}

/** "<name>: change N files" and one line per file, for the user to edit. */
export async function suggestMessage(git: GitRunner, worktree: WorktreeRecord): Promise<string> {
  const diff = await diffWorktree(git, worktree)
  const pending = await pendingFiles(git, worktree)
  const files = diff.files.filter((file) => pending.size === 0 || pending.has(file.path))
  const verb = (status: string) => ({ A: 'add', D: 'delete', R: 'rename' })[status] ?? 'update'
  const subject =
    files.length === 1 ? `${capital(verb(files[0].status))} ${files[0].path}` : `${worktree.name}: change ${files.length} file${files.length === 1 ? '' : 's'}`
  const body = files.map((file) => `- ${verb(file.status)} ${file.path} (+${file.additions} -${file.deletions})`)
  return files.length > 1 ? `${subject}\n\n${body.join('\n')}\n` : `${subject}\n`
}

async function pendingFiles(git: GitRunner, worktree: WorktreeRecord): Promise<Set<string>> {
  const text = await gitOk(git, ['status', '--porcelain', '-z', '--untracked-files=all'], worktree.path, 'reading the status')
  return new Set(
    text
      .split('\0')
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3))
  )
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export async function commitAll(git: GitRunner, worktree: WorktreeRecord, message: string): Promise<string> {
  requireFolder(worktree)
  if (message.trim() === '') throw new WorktreeError('the commit message is empty', 'GIT_FAILED')
  if ((await pendingFiles(git, worktree)).size === 0) throw new WorktreeError(`nothing to commit in ${worktree.path}`, 'GIT_FAILED')
  await gitOk(git, ['add', '--all'], worktree.path, 'staging the changes')
  const committed = await git(['commit', '--quiet', '--no-verify', '-m', message], worktree.path)
  if (committed.code !== 0) {
    // Leave the index as the user had it.
    await git(['reset', '--quiet'], worktree.path)
    throw new WorktreeError(`git could not commit: ${gitWords(committed)}`, 'GIT_FAILED')
  }
  return (await gitOk(git, ['rev-parse', 'HEAD'], worktree.path, 'reading the commit')).trim()
}

export interface MergeOptions {
  /** How conflicts are found first; default: by the git version (tests force the older way). */
  preview?: MergePreviewMethod
}

export async function mergeWorktree(git: GitRunner, worktree: WorktreeRecord, mode: WorktreeMergeMode, message?: string, options: MergeOptions = {}): Promise<WorktreeMergeResult> {
  requireFolder(worktree)
  const refuse = (reason: string): WorktreeMergeResult => ({ merged: false, reason, conflicts: [] })
  let method = options.preview
  if (method === undefined) {
    const version = parseGitVersion((await git(['--version'], worktree.repo)).stdout)
    if (!version) return refuse('git did not say its version ("git --version"), so Seam does not merge with it')
    method = versionAtLeast(version, MINIMUM_GIT_FOR_MERGE_TREE) ? 'merge-tree' : 'scratch-worktree'
  }
  if (!worktree.branch) return refuse('this worktree was made by a WorktreeCreate hook, not on a Seam branch: merge it with your own tools')
  if (worktree.base === 'HEAD') return refuse('the worktree started from a detached HEAD, so there is no base branch to merge into: open a pull request or merge by hand')
  if ((await pendingFiles(git, worktree)).size > 0) return refuse('the worktree has uncommitted changes: commit them first (they would not be merged)')
  const repo = worktree.repo
  const current = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo)
  if (current.code !== 0 || current.stdout.trim() !== worktree.base) {
    return refuse(`the main worktree (${repo}) has ${current.code === 0 ? current.stdout.trim() : 'a detached HEAD'} checked out, not ${worktree.base}: check out ${worktree.base} there to merge into it`)
  }
  const mainStatus = await gitOk(git, ['status', '--porcelain', '--untracked-files=no'], repo, 'reading the main worktree')
  if (mainStatus.trim() !== '') return refuse(`the main worktree (${repo}) has uncommitted changes: commit or stash them first; Seam does not merge over them`)
  const ahead = Number((await gitOk(git, ['rev-list', '--count', `${worktree.base}..${worktree.branch}`], repo, 'counting commits')).trim())
  if (ahead === 0) return refuse(`${worktree.branch} has no commits that ${worktree.base} lacks: nothing to merge`)

  const preview = await previewMerge(git, repo, worktree.base, worktree.branch, method)
  if ('error' in preview) return refuse(preview.error)
  if (!preview.clean) {
    const { conflicts } = preview
    return { merged: false, reason: `merging ${worktree.branch} into ${worktree.base} conflicts in ${conflicts.length} file${conflicts.length === 1 ? '' : 's'}; nothing was changed. Resolve them in the worktree (merge ${worktree.base} there), commit, then merge again.`, conflicts }
  }

  const subject = message?.trim() || `Merge ${worktree.branch} into ${worktree.base}`
  let result
  if (mode === 'fast-forward') {
    result = await git(['merge', '--ff-only', '--quiet', worktree.branch], repo)
    if (result.code !== 0) return refuse(`${worktree.base} has moved on since the worktree started, so it cannot be fast-forwarded: use merge or squash`)
  } else if (mode === 'merge') {
    result = await git(['merge', '--no-ff', '--no-edit', '--quiet', '-m', subject, worktree.branch], repo)
  } else {
    result = await git(['merge', '--squash', '--quiet', worktree.branch], repo)
    if (result.code === 0) result = await git(['commit', '--quiet', '--no-verify', '-m', subject], repo)
  }
  if (result.code !== 0) {
    // Should not happen after a clean preview; whatever git did is taken back.
    await git(['merge', '--abort'], repo)
    await git(['reset', '--merge'], repo)
    return refuse(`git could not merge: ${gitWords(result)}`)
  }
  const commit = (await gitOk(git, ['rev-parse', 'HEAD'], repo, 'reading the merge')).trim()
  return { merged: true, commit, mode }
}

export async function openPullRequest(git: GitRunner, gh: GitRunner, worktree: WorktreeRecord, title: string, body: string): Promise<string> {
  requireFolder(worktree)
  const version = await gh(['--version'], worktree.path).catch(() => undefined)
  if (!version || version.code !== 0) throw new WorktreeError('the GitHub CLI (gh) is not installed: install it, or push the branch and open the pull request yourself', 'GH_MISSING')
  const pushed = await git(['push', '--set-upstream', 'origin', worktree.branch], worktree.path)
  if (pushed.code !== 0) throw new WorktreeError(`git could not push ${worktree.branch}: ${gitWords(pushed)}`, 'GIT_FAILED')
  const created = await gh(['pr', 'create', '--base', worktree.base, '--head', worktree.branch, '--title', title, '--body', body], worktree.path)
  if (created.code !== 0) throw new WorktreeError(`gh could not open the pull request: ${gitWords(created)}`, 'GIT_FAILED')
  return created.stdout.trim().split('\n').pop() ?? ''
}

/** What Discard would throw away: uncommitted files, and commits the base does not have. */
export async function discardLosses(git: GitRunner, worktree: WorktreeRecord): Promise<{ uncommitted: string[]; unmergedCommits: number }> {
  if (!existsSync(worktree.path)) return { uncommitted: [], unmergedCommits: 0 }
  const uncommitted = [...(await pendingFiles(git, worktree))]
  let unmergedCommits = 0
  if (worktree.branch && worktree.base !== 'HEAD') {
    const count = await git(['rev-list', '--count', `${worktree.base}..${worktree.branch}`], worktree.repo)
    if (count.code === 0) unmergedCommits = Number(count.stdout.trim())
  }
  return { uncommitted, unmergedCommits }
}

export async function removeWorktree(git: GitRunner, worktree: WorktreeRecord, confirmed: boolean): Promise<void> {
  const losses = await discardLosses(git, worktree)
  if (!confirmed && losses.uncommitted.length > 0) {
    throw new WorktreeError(`the worktree has uncommitted changes (${losses.uncommitted.slice(0, 5).join(', ')}${losses.uncommitted.length > 5 ? ', …' : ''}): confirm to discard them`, 'UNCOMMITTED')
  }
  if (!confirmed && losses.unmergedCommits > 0) {
    throw new WorktreeError(`${worktree.branch} has ${losses.unmergedCommits} commit(s) not merged into ${worktree.base}: confirm to discard them`, 'NOT_MERGED')
  }
  if (existsSync(worktree.path)) {
    const removed = await git(['worktree', 'remove', ...(confirmed ? ['--force'] : []), worktree.path], worktree.repo)
    if (removed.code !== 0) throw new WorktreeError(`git could not remove the worktree: ${gitWords(removed)}`, 'GIT_FAILED')
  } else {
    await git(['worktree', 'prune'], worktree.repo)
  }
  if (worktree.branch) {
    const deleted = await git(['branch', '-D', worktree.branch], worktree.repo)
    if (deleted.code !== 0 && !/not found/.test(deleted.stderr)) throw new WorktreeError(`the worktree is gone but git could not delete ${worktree.branch}: ${gitWords(deleted)}`, 'GIT_FAILED')
  }
}
