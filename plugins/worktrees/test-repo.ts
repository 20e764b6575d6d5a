// Real repositories for the tests: `git init` in a temp folder, a committed file or two, and a
// snapshot of everything a failed operation must leave as it was (refs, worktrees, status, HEAD).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } })
}

/** A repository at `dir` on branch `main` with `files` committed (and a committer identity). */
export function makeRepo(dir: string, files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  mkdirSync(dir, { recursive: true })
  git(dir, 'init', '--quiet', '--initial-branch=main')
  git(dir, 'config', 'user.name', 'Test User')
  git(dir, 'config', 'user.email', 'test@example.com')
  git(dir, 'config', 'commit.gpgsign', 'false')
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  git(dir, 'add', '--all')
  git(dir, 'commit', '--quiet', '-m', 'first')
  return dir
}

/** What a failed operation must not change. */
export function repoState(dir: string): { refs: string; worktrees: string; status: string; head: string } {
  return {
    refs: git(dir, 'for-each-ref', '--format=%(refname) %(objectname)'),
    worktrees: git(dir, 'worktree', 'list', '--porcelain'),
    status: git(dir, 'status', '--porcelain', '--untracked-files=all'),
    head: git(dir, 'rev-parse', 'HEAD')
  }
}
