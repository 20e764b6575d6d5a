// Making worktrees with the real git in repositories made here: where they go, the branch, the
// base, and every refusal (not a repository, dirty main worktree, taken branch or path, git
// missing or too old, a read-only disk, a crash mid-creation) leaving the repository as it was.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import type { WorktreeService } from '@seam/sdk'
import worktrees from './index'
import { WorktreeRecords } from './records'
import { recoverInterrupted } from './create'
import { gitRunner } from './git'
import { git, makeRepo, repoState } from './test-repo'

let host: TestHost
let root: string
let repo: string

async function start(config: Record<string, unknown> = {}): Promise<WorktreeService> {
  host = await createTestHost({ plugins: [[worktrees, config]], builtinTools: false })
  return host.kernel.getService('worktrees')!
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'seam-worktrees-'))
  repo = makeRepo(path.join(root, 'project'), { 'README.md': 'hello\n', 'src/a.txt': 'a\n' })
})

afterEach(async () => {
  await host?.cleanup()
  rmSync(root, { recursive: true, force: true })
})

describe('creating a worktree', () => {
  it('makes seam/<name> from HEAD in <repo>.worktrees/<name> beside the repository, with the committed files', async () => {
    const service = await start()
    const { worktree, notices } = await service.create({ workspace: repo, sessionId: 's1', name: 'feature' })
    expect(worktree).toEqual({
      name: 'feature',
      repo,
      path: path.join(root, 'project.worktrees', 'feature'),
      branch: 'seam/feature',
      base: 'main',
      baseCommit: git(repo, 'rev-parse', 'HEAD').trim(),
      createdBy: 'git'
    })
    expect(notices).toEqual([])
    expect(readFileSync(path.join(worktree.path, 'src/a.txt'), 'utf8')).toBe('a\n')
    expect(git(worktree.path, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('seam/feature')
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${worktree.path}`)
    expect(new WorktreeRecords(path.join(host.workspace, '..', 'seam-home')).get(worktree.path)?.state).toBe('ready')
  })

  it('from a workspace that is a subfolder, the worktree is of the whole repository', async () => {
    const service = await start()
    const { worktree } = await service.create({ workspace: path.join(repo, 'src'), sessionId: 's1', name: 'sub' })
    expect(worktree.repo).toBe(repo)
    expect(existsSync(path.join(worktree.path, 'README.md'))).toBe(true)
  })

  it('location "home" puts it under <Seam home>/worktrees; a chosen base branch is where it starts', async () => {
    git(repo, 'branch', 'develop')
    writeFileSync(path.join(repo, 'later.txt'), 'later\n')
    git(repo, 'add', 'later.txt')
    git(repo, 'commit', '--quiet', '-m', 'later')
    const service = await start({ location: 'home' })
    const { worktree } = await service.create({ workspace: repo, sessionId: 's1', name: 'from-dev', base: 'develop' })
    expect(worktree.path.startsWith(path.join(host.workspace, '..', 'seam-home', 'worktrees') + path.sep)).toBe(true)
    expect(worktree.base).toBe('develop')
    expect(existsSync(path.join(worktree.path, 'later.txt'))).toBe(false)
  })

  it('a generated name when none is given: wt-<6 hex>', async () => {
    const service = await start()
    const { worktree } = await service.create({ workspace: repo, sessionId: 's1' })
    expect(worktree.name).toMatch(/^wt-[0-9a-f]{6}$/)
    expect(worktree.branch).toBe(`seam/${worktree.name}`)
  })

  it('a dirty main worktree: the worktree starts from HEAD without the uncommitted changes, and the user is told', async () => {
    writeFileSync(path.join(repo, 'README.md'), 'edited, not committed\n')
    writeFileSync(path.join(repo, 'new.txt'), 'untracked\n')
    const before = repoState(repo)
    const service = await start()
    const { worktree, notices } = await service.create({ workspace: repo, sessionId: 's1', name: 'clean' })
    expect(notices).toEqual([expect.stringContaining('uncommitted changes; they are not included')])
    expect(readFileSync(path.join(worktree.path, 'README.md'), 'utf8')).toBe('hello\n')
    expect(existsSync(path.join(worktree.path, 'new.txt'))).toBe(false)
    expect(repoState(repo).status).toBe(before.status)
  })
})

describe('refusals leave the repository as it was', () => {
  it('not a git repository: unavailable with the reason, and create refuses', async () => {
    const plain = path.join(root, 'plain')
    mkdirSync(plain)
    const service = await start()
    expect(await service.availability(plain)).toEqual({ available: false, reason: expect.stringContaining('is not in a git repository') })
    await expect(service.create({ workspace: plain, sessionId: 's1', name: 'x' })).rejects.toThrow(/is not in a git repository/)
    expect(readdirSync(root).sort()).toEqual(['plain', 'project'])
  })

  it('a repository without a commit is refused with what to do', async () => {
    const empty = path.join(root, 'empty')
    mkdirSync(empty)
    git(empty, 'init', '--quiet')
    const service = await start()
    expect(await service.availability(empty)).toEqual({ available: false, reason: expect.stringContaining('has no commit yet') })
  })

  it('a branch name that exists', async () => {
    git(repo, 'branch', 'seam/taken')
    const before = repoState(repo)
    const service = await start()
    await expect(service.create({ workspace: repo, sessionId: 's1', name: 'taken' })).rejects.toThrow('the branch seam/taken already exists')
    expect(repoState(repo)).toEqual(before)
    expect(existsSync(path.join(root, 'project.worktrees'))).toBe(false)
  })

  it('a path that exists', async () => {
    mkdirSync(path.join(root, 'project.worktrees', 'there'), { recursive: true })
    const before = repoState(repo)
    const service = await start()
    await expect(service.create({ workspace: repo, sessionId: 's1', name: 'there' })).rejects.toThrow(/project\.worktrees\/there already exists/)
    expect(repoState(repo)).toEqual(before)
  })

  it('a bad name, and a base that does not exist', async () => {
    const service = await start()
    await expect(service.create({ workspace: repo, sessionId: 's1', name: 'has space' })).rejects.toThrow(/is not usable/)
    await expect(service.create({ workspace: repo, sessionId: 's1', name: 'ok', base: 'nope' })).rejects.toThrow('there is no branch or commit named "nope"')
    expect(git(repo, 'branch', '--list', 'seam/*')).toBe('')
  })

  it('git missing, and git too old: clear messages, nothing made', async () => {
    const before = repoState(repo)
    const missing = await start({ git: path.join(root, 'no-such-git') })
    expect(await missing.availability(repo)).toEqual({ available: false, reason: expect.stringContaining('git was not found') })
    await expect(missing.create({ workspace: repo, sessionId: 's1', name: 'x' })).rejects.toThrow(/git was not found/)
    await host.cleanup()
    // An old git: a real executable that answers as git 2.10 does.
    const old = path.join(root, 'old-git')
    writeFileSync(old, '#!/bin/sh\necho "git version 2.10.0"\n')
    chmodSync(old, 0o755)
    const tooOld = await start({ git: old })
    await expect(tooOld.create({ workspace: repo, sessionId: 's1', name: 'x' })).rejects.toThrow('git 2.10.0 is too old for worktree sessions: Seam needs git 2.17.0 or newer')
    expect(repoState(repo)).toEqual(before)
  })

  const canMount = (() => {
    try {
      const probe = mkdtempSync(path.join(tmpdir(), 'seam-ro-probe-'))
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', probe], { stdio: 'ignore' })
      execFileSync('umount', [probe], { stdio: 'ignore' })
      rmSync(probe, { recursive: true })
      return true
    } catch {
      return false
    }
  })()

  it.skipIf(!canMount)('a worktree location on a read-only disk: the creation fails with the reason, no branch or worktree is left', async () => {
    // The folder beside the repository that holds its worktrees is a read-only disk.
    const readOnly = path.join(root, 'project.worktrees')
    mkdirSync(readOnly)
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', readOnly])
    try {
      const before = repoState(repo)
      const service = await start()
      await expect(service.create({ workspace: repo, sessionId: 's1', name: 'ro' })).rejects.toThrow(/read-only file system/i)
      expect(repoState(repo)).toEqual(before)
    } finally {
      execFileSync('umount', [readOnly])
    }
  })
})

describe('a creation cut short', () => {
  it('a record left "creating" by a process that is gone is undone: worktree, branch and the folders made for it removed', async () => {
    const first = await start()
    const before = repoState(repo)
    const { worktree } = await first.create({ workspace: repo, sessionId: 's1', name: 'cut' })
    // As a kill -9 between `git worktree add` and the record turning ready leaves it.
    const records = new WorktreeRecords(path.join(host.workspace, '..', 'seam-home'))
    const record = records.get(worktree.path)!
    const dead = Number(execFileSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).trim())
    records.write({ ...record, state: 'creating', pid: dead, madeFolders: [path.dirname(worktree.path)] })
    // A record of a live process (this one) is a creation in progress: left alone.
    records.write({ ...record, path: path.join(root, 'elsewhere'), state: 'creating', pid: process.pid, madeFolders: [] })
    expect(await recoverInterrupted(gitRunner(), records)).toEqual([worktree.path])
    expect(repoState(repo)).toEqual(before)
    expect(existsSync(path.join(root, 'project.worktrees'))).toBe(false)
    expect(records.all().map((r) => r.path)).toEqual([path.join(root, 'elsewhere')])
  })
})
