// Landing a worktree's branch where the edges are outside Seam, with the real git:
// - a merge on git older than 2.38 (no `git merge-tree --write-tree`): conflicts are found in a
//   scratch worktree, so a conflict still changes nothing in the main worktree or the session's;
//   the automatic choice is shown with a git that reports 2.37 (the real git behind it);
// - a pull request through `gh`: a test double of gh on PATH (gh talks to GitHub, which the test
//   cannot) that records its arguments and environment and answers as gh does; the branch is
//   pushed for real to a bare repository made here.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import type { WorktreeRecord, WorktreeService } from '@seam/sdk'
import worktrees from './index'
import { gitRunner } from './git'
import { mergeWorktree } from './review'
import { git, makeRepo, repoState } from './test-repo'

let host: TestHost
let root: string
let repo: string
let service: WorktreeService

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'seam-worktrees-land-'))
  repo = makeRepo(path.join(root, 'project'), { 'README.md': 'hello\n', 'src/a.txt': 'one\ntwo\nthree\n' })
  host = await createTestHost({ plugins: [worktrees], builtinTools: false })
  service = host.kernel.getService('worktrees')!
})

afterEach(async () => {
  vi.unstubAllEnvs()
  await host.cleanup()
  rmSync(root, { recursive: true, force: true })
})

async function committed(name: string, files: Record<string, string>): Promise<WorktreeRecord> {
  const { worktree } = await service.create({ workspace: repo, sessionId: `s-${name}`, name })
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(worktree.path, file), text)
  await service.commit(worktree, `work of ${name}`)
  return worktree
}

/** Scratch worktrees the older-git check made in the temp folder and did not remove. */
function scratchLeft(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('seam-merge-check-') && existsSync(path.join(tmpdir(), name, 'tree')))
}

describe('merging with git older than 2.38 (a scratch worktree instead of merge-tree)', () => {
  const olderWay = { preview: 'scratch-worktree' as const }

  it('a clean merge lands as with the newer git; the scratch worktree is gone afterwards', async () => {
    const a = await committed('a', { 'a-only.txt': 'a\n' })
    const b = await committed('b', { 'b-only.txt': 'b\n' })
    const scratchBefore = scratchLeft()
    expect(await mergeWorktree(gitRunner(), a, 'merge', undefined, olderWay)).toMatchObject({ merged: true, mode: 'merge' })
    expect(await mergeWorktree(gitRunner(), b, 'squash', 'Squashed b', olderWay)).toMatchObject({ merged: true, mode: 'squash' })
    expect(readFileSync(path.join(repo, 'a-only.txt'), 'utf8')).toBe('a\n')
    expect(readFileSync(path.join(repo, 'b-only.txt'), 'utf8')).toBe('b\n')
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Squashed b')
    // git lists only the main worktree and the two sessions' (the scratch one was removed and pruned).
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(3)
    expect(scratchLeft()).toEqual(scratchBefore)
  })

  it('a conflict lists its files and changes nothing in the main worktree or the session\'s', async () => {
    const a = await committed('a', { 'src/a.txt': 'one\nfrom a\nthree\n' })
    const b = await committed('b', { 'src/a.txt': 'one\nfrom b\nthree\n', 'b-only.txt': 'b\n' })
    expect((await mergeWorktree(gitRunner(), a, 'fast-forward', undefined, olderWay)).merged).toBe(true)
    const before = repoState(repo)
    const sessionBefore = repoState(b.path)
    const result = await mergeWorktree(gitRunner(), b, 'merge', undefined, olderWay)
    expect(result).toEqual({ merged: false, reason: expect.stringContaining('merging seam/b into main conflicts in 1 file; nothing was changed'), conflicts: ['src/a.txt'] })
    expect(repoState(repo)).toEqual(before)
    expect(repoState(b.path)).toEqual(sessionBefore)
    expect(existsSync(path.join(repo, 'b-only.txt'))).toBe(false)
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(3)
  })

  it('chosen by the version: a git that says 2.37 merges through the scratch worktree (seen in git\'s worktree list while it checks)', async () => {
    const bin = path.join(root, 'old-git')
    mkdirSync(bin)
    const seen = path.join(root, 'seen.log')
    // The real git behind a `--version` of 2.37; it notes every scratch worktree it is asked to make.
    writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "git version 2.37.1"; exit 0; fi\nif [ "$1" = "merge-tree" ]; then echo "merge-tree is not in 2.37" >&2; exit 129; fi\ncase "$*" in *seam-merge-check-*) echo "$*" >> ${seen};; esac\nexec ${git(repo, '--exec-path').trim()}/git "$@"\n`
    )
    chmodSync(path.join(bin, 'git'), 0o755)
    await host.cleanup()
    host = await createTestHost({ plugins: [[worktrees, { git: path.join(bin, 'git') }]], builtinTools: false })
    service = host.kernel.getService('worktrees')!
    const a = await committed('old-a', { 'src/a.txt': 'one\nold a\nthree\n' })
    const b = await committed('old-b', { 'src/a.txt': 'one\nold b\nthree\n' })
    expect((await service.merge(a, 'merge')).merged).toBe(true)
    const before = repoState(repo)
    expect(await service.merge(b, 'merge')).toMatchObject({ merged: false, conflicts: ['src/a.txt'] })
    expect(repoState(repo)).toEqual(before)
    expect(readFileSync(seen, 'utf8')).toMatch(/^worktree add --detach --quiet \S+seam-merge-check-\S+\/tree main$/m)
  })
})

describe('pull request through gh (a gh double on PATH)', () => {
  let bin: string
  let calls: string
  let remote: string

  beforeEach(() => {
    bin = path.join(root, 'bin')
    calls = path.join(root, 'gh-calls.jsonl')
    mkdirSync(bin)
    // Answers like gh 2.x: `--version`; `pr create` prints the new pull request's URL on stdout
    // (its progress on stderr), or, without a token, gh's "not logged in" words and exit 4.
    writeFileSync(
      path.join(bin, 'gh'),
      `#!${process.execPath}
const fs = require('node:fs')
const args = process.argv.slice(2)
const env = {}
for (const name of ['GH_TOKEN', 'ANTHROPIC_API_KEY', 'GIT_TERMINAL_PROMPT']) if (process.env[name] !== undefined) env[name] = process.env[name]
fs.appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ args, cwd: process.cwd(), env }) + '\\n')
if (args[0] === '--version') { console.log('gh version 2.62.0 (2024-11-14)'); process.exit(0) }
if (args[0] === 'pr' && args[1] === 'create') {
  if (!process.env.GH_TOKEN) {
    console.error('To get started with GitHub CLI, please run:  gh auth login')
    console.error('Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.')
    process.exit(4)
  }
  console.error('\\nCreating pull request for seam/pr into main in example/project\\n')
  console.log('https://github.com/example/project/pull/7')
  process.exit(0)
}
console.error('unknown command')
process.exit(1)
`
    )
    chmodSync(path.join(bin, 'gh'), 0o755)
    remote = path.join(root, 'remote.git')
    git(root, 'init', '--quiet', '--bare', remote)
    git(repo, 'remote', 'add', 'origin', remote)
    vi.stubEnv('PATH', `${bin}${path.delimiter}${process.env.PATH ?? ''}`)
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-not-for-gh-0123456789')
  })

  const recorded = (): Array<{ args: string[]; cwd: string; env: Record<string, string> }> =>
    readFileSync(calls, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { args: string[]; cwd: string; env: Record<string, string> })

  it('pushes the branch to origin, then runs gh pr create with the base, the branch, the title and the body; the URL comes back', async () => {
    vi.stubEnv('GH_TOKEN', 'gho_test_token')
    const worktree = await committed('pr', { 'p.txt': 'p\n' })
    const url = await service.pullRequest(worktree, 'Add p', 'Adds p.txt.\n\nMade in a Seam session.')
    expect(url).toBe('https://github.com/example/project/pull/7')
    expect(git(remote, 'rev-parse', 'refs/heads/seam/pr').trim()).toBe(git(worktree.path, 'rev-parse', 'HEAD').trim())
    expect(git(worktree.path, 'rev-parse', '--abbrev-ref', '@{upstream}').trim()).toBe('origin/seam/pr')
    const [version, create] = recorded()
    expect(version.args).toEqual(['--version'])
    expect(create).toEqual({
      args: ['pr', 'create', '--base', 'main', '--head', 'seam/pr', '--title', 'Add p', '--body', 'Adds p.txt.\n\nMade in a Seam session.'],
      cwd: worktree.path,
      // gh keeps its token; the provider key does not reach it; nothing prompts.
      env: { GH_TOKEN: 'gho_test_token', GIT_TERMINAL_PROMPT: '0' }
    })
  })

  it('gh not logged in: gh\'s own words, after the branch was pushed', async () => {
    vi.stubEnv('GH_TOKEN', '')
    const worktree = await committed('pr', { 'p.txt': 'p\n' })
    await expect(service.pullRequest(worktree, 'Add p', '')).rejects.toThrow(
      'gh could not open the pull request: To get started with GitHub CLI, please run:  gh auth login\nAlternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.'
    )
    expect(git(remote, 'rev-parse', 'refs/heads/seam/pr').trim()).toBe(git(worktree.path, 'rev-parse', 'HEAD').trim())
  })

  it('a push that fails (no origin) stops before gh is asked to open anything', async () => {
    vi.stubEnv('GH_TOKEN', 'gho_test_token')
    git(repo, 'remote', 'remove', 'origin')
    const worktree = await committed('pr', { 'p.txt': 'p\n' })
    await expect(service.pullRequest(worktree, 'Add p', '')).rejects.toThrow(/git could not push seam\/pr: fatal: 'origin' does not appear to be a git repository/)
    expect(recorded().map((call) => call.args[0])).toEqual(['--version'])
  })
})
