// gitBranch read from the repository's files agrees with `git rev-parse --abbrev-ref HEAD` (what
// Claude Code records), with real repositories: none, unborn, a branch, packed refs, detached, a
// linked worktree and a subfolder.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { currentGitBranch } from './git-branch'

const root = mkdtempSync(path.join(tmpdir(), 'seam-git-branch-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

/** What Claude Code gets: git's answer, '' when git fails. */
function gitSays(dir: string): string {
  try {
    return git(dir, 'rev-parse', '--abbrev-ref', 'HEAD')
  } catch {
    return ''
  }
}

describe('currentGitBranch', () => {
  const repo = path.join(root, 'repo')
  mkdirSync(path.join(repo, 'sub/deeper'), { recursive: true })

  it.each<[string, () => string, string]>([
    ['outside any repository', () => root, ''],
    ['an unborn branch', () => (git(repo, 'init', '-q'), repo), ''],
    ['a branch', () => (git(repo, 'commit', '-q', '--allow-empty', '-m', 'one'), repo), 'main'],
    ['a subfolder of the repository', () => path.join(repo, 'sub/deeper'), 'main'],
    ['a branch with a slash, in packed refs only', () => (git(repo, 'checkout', '-q', '-b', 'feature/x'), git(repo, 'pack-refs', '--all'), repo), 'feature/x'],
    ['a detached HEAD', () => (git(repo, 'checkout', '-q', '--detach'), repo), 'HEAD'],
    ['a linked worktree', () => (git(repo, 'worktree', 'add', '-q', '-b', 'side', path.join(root, 'wt')), path.join(root, 'wt')), 'side']
  ])('%s: as git rev-parse --abbrev-ref HEAD says', (_name, setUp, expected) => {
    const dir = setUp()
    expect(gitSays(dir)).toBe(expected)
    expect(currentGitBranch(dir)).toBe(expected)
  })
})
