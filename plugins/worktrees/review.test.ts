// Review and land with the real git: the diff against the base (committed, uncommitted and new
// files), a commit with the suggested message, fast-forward / merge / squash into the base in the
// main worktree, a conflict reported with its files and nothing changed, and Discard refusing to
// drop uncommitted work or unmerged commits without a confirmation.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import type { WorktreeRecord, WorktreeService } from '@seam/sdk'
import worktrees from './index'
import { git, makeRepo, repoState } from './test-repo'

let host: TestHost
let root: string
let repo: string
let service: WorktreeService

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'seam-worktrees-review-'))
  repo = makeRepo(path.join(root, 'project'), { 'README.md': 'hello\n', 'src/a.txt': 'one\ntwo\nthree\n' })
  host = await createTestHost({ plugins: [worktrees], builtinTools: false })
  service = host.kernel.getService('worktrees')!
})

afterEach(async () => {
  await host.cleanup()
  rmSync(root, { recursive: true, force: true })
})

async function worktreeWith(name: string, files: Record<string, string>): Promise<WorktreeRecord> {
  const { worktree } = await service.create({ workspace: repo, sessionId: `s-${name}`, name })
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(worktree.path, file), text)
  return worktree
}

describe('diff against the base', () => {
  it('lists modified and new files with their hunks and counts, uncommitted and committed alike', async () => {
    const worktree = await worktreeWith('d', { 'src/a.txt': 'one\nTWO\nthree\n', 'new.txt': 'fresh\nlines\n' })
    let diff = await service.diff(worktree)
    expect(diff.uncommitted).toBe(true)
    expect(diff.commits).toBe(0)
    expect(diff.files.map(({ path: file, status, additions, deletions }) => ({ file, status, additions, deletions }))).toEqual([
      { file: 'new.txt', status: 'A', additions: 2, deletions: 0 },
      { file: 'src/a.txt', status: 'M', additions: 1, deletions: 1 }
    ])
    expect(diff.files[1].patch).toContain('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three')
    expect(diff.files[0].patch).toContain('+fresh')

    const message = await service.suggestCommitMessage(worktree)
    expect(message).toBe('d: change 2 files\n\n- add new.txt (+2 -0)\n- update src/a.txt (+1 -1)\n')
    const commit = await service.commit(worktree, 'Edited by the session\n')
    expect(git(worktree.path, 'log', '-1', '--format=%H %s').trim()).toBe(`${commit} Edited by the session`)
    diff = await service.diff(worktree)
    expect(diff.uncommitted).toBe(false)
    expect(diff.commits).toBe(1)
    expect(diff.files.map((file) => file.path)).toEqual(['new.txt', 'src/a.txt'])
  })

  it('an empty commit message and a worktree with nothing to commit are refused', async () => {
    const worktree = await worktreeWith('e', {})
    await expect(service.commit(worktree, 'x')).rejects.toThrow('nothing to commit')
    writeFileSync(path.join(worktree.path, 'x.txt'), 'x')
    await expect(service.commit(worktree, '  ')).rejects.toThrow('the commit message is empty')
  })
})

describe('merge into the base branch', () => {
  it('fast-forward: main moves to the branch; refused once main has moved on', async () => {
    const worktree = await worktreeWith('ff', { 'src/a.txt': 'one\nfast\nthree\n' })
    expect(await service.merge(worktree, 'fast-forward')).toEqual({ merged: false, reason: expect.stringContaining('uncommitted changes: commit them first'), conflicts: [] })
    const commit = await service.commit(worktree, 'fast')
    expect(await service.merge(worktree, 'fast-forward')).toEqual({ merged: true, commit, mode: 'fast-forward' })
    expect(readFileSync(path.join(repo, 'src/a.txt'), 'utf8')).toBe('one\nfast\nthree\n')

    const other = await worktreeWith('late', { 'late.txt': 'late\n' })
    await service.commit(other, 'late')
    writeFileSync(path.join(repo, 'README.md'), 'moved\n')
    git(repo, 'commit', '--quiet', '-am', 'main moves on')
    const result = await service.merge(other, 'fast-forward')
    expect(result).toEqual({ merged: false, reason: expect.stringContaining('cannot be fast-forwarded: use merge or squash'), conflicts: [] })
  })

  it('merge commit and squash', async () => {
    const a = await worktreeWith('m', { 'm.txt': 'm\n' })
    await service.commit(a, 'm1')
    writeFileSync(path.join(repo, 'README.md'), 'moved\n')
    git(repo, 'commit', '--quiet', '-am', 'main moves on')
    const merged = await service.merge(a, 'merge')
    expect(merged.merged).toBe(true)
    expect(git(repo, 'log', '-1', '--format=%P').trim().split(' ')).toHaveLength(2)
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Merge seam/m into main')

    const b = await worktreeWith('s', { 's.txt': 's\n' })
    await service.commit(b, 's1')
    writeFileSync(path.join(b.path, 's.txt'), 's2\n')
    await service.commit(b, 's2')
    const squashed = await service.merge(b, 'squash', 'Squashed s')
    expect(squashed.merged).toBe(true)
    expect(git(repo, 'log', '-1', '--format=%P|%s').trim().split('|')[1]).toBe('Squashed s')
    expect(git(repo, 'log', '-1', '--format=%P').trim().split(' ')).toHaveLength(1)
    expect(readFileSync(path.join(repo, 's.txt'), 'utf8')).toBe('s2\n')
  })

  it('a conflict is reported with its files and nothing changes in either worktree', async () => {
    const a = await worktreeWith('a', { 'src/a.txt': 'one\nfrom a\nthree\n' })
    const b = await worktreeWith('b', { 'src/a.txt': 'one\nfrom b\nthree\n' })
    await service.commit(a, 'a')
    await service.commit(b, 'b')
    expect((await service.merge(a, 'merge')).merged).toBe(true)
    const before = repoState(repo)
    const worktreeBefore = repoState(b.path)
    const result = await service.merge(b, 'merge')
    expect(result).toEqual({ merged: false, reason: expect.stringContaining('conflicts in 1 file; nothing was changed'), conflicts: ['src/a.txt'] })
    expect(repoState(repo)).toEqual(before)
    expect(repoState(b.path)).toEqual(worktreeBefore)
    expect(readFileSync(path.join(repo, 'src/a.txt'), 'utf8')).toBe('one\nfrom a\nthree\n')
  })

  it('refused while the main worktree has uncommitted changes or another branch checked out', async () => {
    const a = await worktreeWith('x', { 'x.txt': 'x\n' })
    await service.commit(a, 'x')
    writeFileSync(path.join(repo, 'README.md'), 'dirty\n')
    expect(await service.merge(a, 'merge')).toMatchObject({ merged: false, reason: expect.stringContaining('has uncommitted changes: commit or stash them first') })
    git(repo, 'checkout', '--quiet', '--', 'README.md')
    git(repo, 'checkout', '--quiet', '-b', 'other')
    expect(await service.merge(a, 'merge')).toMatchObject({ merged: false, reason: expect.stringContaining('has other checked out, not main') })
  })
})

describe('discard', () => {
  it('refuses uncommitted changes and unmerged commits without a confirmation; confirmed, worktree and branch go', async () => {
    const before = repoState(repo)
    const worktree = await worktreeWith('gone', { 'work.txt': 'work\n' })
    await expect(service.discard(worktree, { sessionId: 's', confirmed: false })).rejects.toThrow(/uncommitted changes \(work\.txt\): confirm to discard them/)
    expect(existsSync(path.join(worktree.path, 'work.txt'))).toBe(true)
    await service.commit(worktree, 'work')
    await expect(service.discard(worktree, { sessionId: 's', confirmed: false })).rejects.toThrow('seam/gone has 1 commit(s) not merged into main')
    await service.discard(worktree, { sessionId: 's', confirmed: true })
    expect(existsSync(worktree.path)).toBe(false)
    expect(repoState(repo)).toEqual(before)
  })

  it('a clean worktree with nothing unmerged goes without a confirmation', async () => {
    const before = repoState(repo)
    const worktree = await worktreeWith('clean', {})
    await service.discard(worktree, { sessionId: 's', confirmed: false })
    expect(repoState(repo)).toEqual(before)
  })

  it('prune: a worktree deleted outside Seam is forgotten by git', async () => {
    const worktree = await worktreeWith('outside', {})
    rmSync(worktree.path, { recursive: true })
    expect(service.exists(worktree)).toBe(false)
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(worktree.path)
    expect(await service.prune(repo)).toEqual([worktree.path])
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(worktree.path)
    expect(await service.prune(repo)).toEqual([])
  })

  it('pull request without gh installed: a clear message, nothing pushed', async () => {
    const worktree = await worktreeWith('pr', { 'p.txt': 'p\n' })
    await service.commit(worktree, 'p')
    await host.cleanup()
    host = await createTestHost({ plugins: [[worktrees, { gh: path.join(root, 'no-gh') }]], builtinTools: false })
    await expect(host.kernel.getService('worktrees')!.pullRequest(worktree, 't', 'b')).rejects.toThrow('the GitHub CLI (gh) is not installed')
  })
})
