// Making a worktree for a session: checks first (git present and recent enough, a repository
// with a commit, a free branch name and path), then `git worktree add -b seam/<name> <path>
// <base>`. Whatever fails, the repository is left as it was: a branch or worktree entry the
// failed command left behind is removed, and so are the folders made for it.
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs'
import { createHash, randomBytes } from 'node:crypto'
import path from 'node:path'
import type { WorktreeAvailability, WorktreeLocation, WorktreeRecord } from '@seam/sdk'
import { WorktreeError, gitOk, gitWords, parseGitVersion, versionAtLeast, type GitRunner } from './git'
import { processAlive } from '@seam/sdk/node'
import { type WorktreeFileRecord, type WorktreeRecords } from './records'

/** `git worktree remove` (used by Discard) arrived in 2.17. */
export const MINIMUM_GIT: readonly [number, number, number] = [2, 17, 0]

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export interface CreateDeps {
  git: GitRunner
  records: WorktreeRecords
  seamHome: string
  location: WorktreeLocation
}

/** The git version, or a WorktreeError (missing, unreadable, too old). */
export async function checkGit(git: GitRunner, cwd: string): Promise<[number, number, number]> {
  const result = await git(['--version'], cwd)
  const version = parseGitVersion(result.stdout)
  if (result.code !== 0 || !version) throw new WorktreeError(`git did not answer "git --version" (${gitWords(result)})`, 'GIT_MISSING')
  if (!versionAtLeast(version, MINIMUM_GIT)) {
    throw new WorktreeError(`git ${version.join('.')} is too old for worktree sessions: Seam needs git ${MINIMUM_GIT.join('.')} or newer`, 'GIT_TOO_OLD')
  }
  return version
}

/** The main worktree of the repository holding `workspace`, or why there is none. */
export async function availability(git: GitRunner, workspace: string): Promise<WorktreeAvailability> {
  try {
    return { available: true, repo: await mainWorktree(git, workspace) }
  } catch (error) {
    if (error instanceof WorktreeError) return { available: false, reason: error.message }
    throw error
  }
}

export async function mainWorktree(git: GitRunner, workspace: string): Promise<string> {
  if (!existsSync(workspace)) throw new WorktreeError(`the workspace ${workspace} does not exist`, 'NOT_A_REPOSITORY')
  await checkGit(git, workspace)
  const inside = await git(['rev-parse', '--is-inside-work-tree'], workspace)
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    throw new WorktreeError(`${workspace} is not in a git repository, so a session cannot have its own worktree (run "git init" and make a first commit)`, 'NOT_A_REPOSITORY')
  }
  const list = await gitOk(git, ['worktree', 'list', '--porcelain'], workspace, 'listing worktrees')
  const first = /^worktree (.+)$/m.exec(list)?.[1]
  if (!first) throw new WorktreeError(`git listed no main worktree for ${workspace}`, 'NOT_A_REPOSITORY')
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], first)
  if (head.code !== 0) throw new WorktreeError(`the repository at ${first} has no commit yet: make a first commit, then start a worktree session`, 'NO_COMMIT')
  return first
}

/** A fresh name: `wt-` and six hex digits. */
export function generatedName(): string {
  return `wt-${randomBytes(3).toString('hex')}`
}

export function checkName(name: string): void {
  if (!NAME_PATTERN.test(name) || name.includes('..') || name.endsWith('.lock') || name.endsWith('.')) {
    throw new WorktreeError(`worktree name "${name}" is not usable: use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)`, 'BAD_NAME')
  }
}

/** Where a worktree named `name` of `repo` goes. */
export function worktreePath(repo: string, name: string, location: WorktreeLocation, seamHome: string): string {
  if (location === 'home') {
    const tag = createHash('sha256').update(repo).digest('hex').slice(0, 8)
    return path.join(seamHome, 'worktrees', `${path.basename(repo)}-${tag}`, name)
  }
  return path.join(path.dirname(repo), `${path.basename(repo)}.worktrees`, name)
}

export interface GitCreateRequest {
  repo: string
  workspace: string
  sessionId: string
  name: string
  base?: string
  location: WorktreeLocation
}

/** Makes the worktree with git. The notices say what the user should know (a dirty main worktree). */
export async function createWithGit(deps: CreateDeps, request: GitCreateRequest): Promise<{ worktree: WorktreeRecord; notices: string[] }> {
  const { git, records } = deps
  const { repo, name } = request
  const branch = `seam/${name}`
  const refCheck = await git(['check-ref-format', '--branch', branch], repo)
  if (refCheck.code !== 0) throw new WorktreeError(`worktree name "${name}" does not make a valid branch name (${gitWords(refCheck)})`, 'BAD_NAME')
  let base = request.base
  if (base === undefined) {
    const symbolic = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo)
    base = symbolic.code === 0 ? symbolic.stdout.trim() : 'HEAD'
  }
  const resolved = await git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`], repo)
  if (resolved.code !== 0) throw new WorktreeError(`there is no branch or commit named "${base}" in ${repo} to start the worktree from`, 'BAD_BASE')
  const baseCommit = resolved.stdout.trim()
  const exists = await git(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], repo)
  if (exists.code === 0) throw new WorktreeError(`the branch ${branch} already exists in ${repo}: choose another name (or delete that branch)`, 'BRANCH_EXISTS')
  const target = worktreePath(repo, name, request.location, deps.seamHome)
  if (existsSync(target)) throw new WorktreeError(`${target} already exists: choose another name, or move that folder away`, 'PATH_EXISTS')

  const notices: string[] = []
  const status = await git(['status', '--porcelain', '--untracked-files=normal'], request.workspace)
  if (status.code === 0 && status.stdout.trim() !== '') {
    notices.push(`The main worktree has uncommitted changes; they are not included: the worktree starts from ${base} (${baseCommit.slice(0, 12)}).`)
  }

  const madeFolders = missingFolders(path.dirname(target))
  const record: WorktreeFileRecord = { state: 'creating', pid: process.pid, sessionId: request.sessionId, name, repo, path: target, branch, base, baseCommit, madeFolders }
  records.write(record)
  try {
    try {
      mkdirSync(path.dirname(target), { recursive: true })
    } catch (error) {
      throw new WorktreeError(`cannot make the folder for the worktree, ${path.dirname(target)}: ${(error as Error).message}`, 'CREATE_FAILED')
    }
    const added = await git(['worktree', 'add', '-b', branch, target, baseCommit], repo)
    if (added.code !== 0) throw new WorktreeError(`git could not make the worktree at ${target}: ${gitWords(added)}`, 'CREATE_FAILED')
  } catch (error) {
    await undoCreate(git, record)
    records.remove(target)
    throw error
  }
  records.write({ ...record, state: 'ready' })
  return { worktree: { name, repo, path: target, branch, base, baseCommit, createdBy: 'git' }, notices }
}

/** The folders from `dir` up that do not exist yet (outermost last), so a failure can remove them. */
function missingFolders(dir: string): string[] {
  const out: string[] = []
  for (let current = dir; !existsSync(current) && path.dirname(current) !== current; current = path.dirname(current)) out.push(current)
  return out
}

/**
 * Undoes what a creation left: its worktree entry and folder, its branch (only while it still
 * points at the commit it was made from, so no work is lost), and the empty folders made for it.
 */
export async function undoCreate(git: GitRunner, record: WorktreeFileRecord): Promise<void> {
  const { repo } = record
  const listed = await git(['worktree', 'list', '--porcelain'], repo)
  if (listed.code === 0 && listed.stdout.split('\n').includes(`worktree ${record.path}`)) {
    await git(['worktree', 'remove', '--force', '--force', record.path], repo)
  }
  await git(['worktree', 'prune'], repo)
  const branch = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${record.branch}`], repo)
  if (branch.code === 0 && branch.stdout.trim() === record.baseCommit) await git(['branch', '-D', record.branch], repo)
  for (const folder of [record.path, ...record.madeFolders]) removeIfEmpty(folder)
}

function removeIfEmpty(folder: string): void {
  try {
    if (statSync(folder).isDirectory() && readdirSync(folder).length === 0) rmdirSync(folder)
  } catch {
    // Gone already, or not ours to judge (unreadable): left as it is.
  }
}

/** Creations cut short (their process is gone): undone. Returns the paths undone. */
export async function recoverInterrupted(git: GitRunner, records: WorktreeRecords): Promise<string[]> {
  const undone: string[] = []
  for (const record of records.all()) {
    if (record.state !== 'creating' || processAlive(record.pid)) continue
    if (existsSync(record.repo)) await undoCreate(git, record)
    records.remove(record.path)
    undone.push(record.path)
  }
  return undone
}
