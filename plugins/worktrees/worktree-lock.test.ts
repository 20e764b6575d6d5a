// The per-repository lock around the commands that change git's worktree list: with real git
// in a real repository, with owners that are other (live or dead) processes.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WorktreeError, gitRunner, type GitRunner } from './git'
import { git, makeRepo } from './test-repo'
import { lockFile, oneWorktreeChangeAtATime } from './worktree-lock'

let root: string
let repo: string
let locks: string

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'seam-worktree-lock-'))
  repo = makeRepo(path.join(root, 'project'))
  locks = path.join(root, 'home', 'worktrees', 'locks')
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

/** A lock file as another process holding it leaves it. */
function heldBy(pid: number | string): string {
  const file = lockFile(locks, repo)
  mkdirSync(locks, { recursive: true })
  writeFileSync(file, `${pid}\n`)
  return file
}

describe('one change to a repository’s worktree list at a time', () => {
  it('eight `git worktree add` at once all succeed, run one by one, and leave no lock behind', async () => {
    const real = gitRunner()
    let running = 0
    let most = 0
    const counted: GitRunner = async (args, cwd, options) => {
      const changes = args[0] === 'worktree' && args[1] === 'add'
      if (changes) most = Math.max(most, ++running)
      try {
        return await real(args, cwd, options)
      } finally {
        if (changes) running--
      }
    }
    const locked = oneWorktreeChangeAtATime(counted, locks)
    const names = Array.from({ length: 8 }, (_, i) => `w${i}`)
    const results = await Promise.all(names.map((name) => locked(['worktree', 'add', '-b', `seam/${name}`, path.join(root, name), 'HEAD'], repo)))
    for (const result of results) expect(result.code, result.stderr).toBe(0)
    expect(most).toBe(1)
    const listed = git(repo, 'worktree', 'list', '--porcelain')
    for (const name of names) expect(listed).toContain(`worktree ${path.join(root, name)}`)
    expect(readdirSync(locks)).toEqual([])
  })

  it('waits while another live process holds the lock, and runs once it is gone', async () => {
    const owner = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const file = heldBy(owner.pid!)
      let done = false
      const pruning = oneWorktreeChangeAtATime(gitRunner(), locks)(['worktree', 'prune'], repo).then((result) => {
        done = true
        return result
      })
      // Several rounds of the waiter's polling pass without it running.
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(done).toBe(false)
      expect(existsSync(file)).toBe(true)
      owner.kill('SIGKILL')
      expect((await pruning).code).toBe(0)
      expect(existsSync(file)).toBe(false)
    } finally {
      owner.kill('SIGKILL')
    }
  })

  it('takes over the lock of a process that died holding it (or a lock file naming no process)', async () => {
    const dead = spawnSync('true').pid!
    // No patience at all: it must not wait for anyone.
    const locked = oneWorktreeChangeAtATime(gitRunner(), locks, { patienceMs: 0 })
    heldBy(dead)
    expect((await locked(['worktree', 'add', '-b', 'seam/a', path.join(root, 'a'), 'HEAD'], repo)).code).toBe(0)
    heldBy('not a pid')
    expect((await locked(['worktree', 'remove', path.join(root, 'a')], repo)).code).toBe(0)
    expect(readdirSync(locks)).toEqual([])
  })

  it('a lock a live process keeps too long: the command fails naming the process and the lock file; reading the list never waits', async () => {
    const owner = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const file = heldBy(owner.pid!)
      const locked = oneWorktreeChangeAtATime(gitRunner(), locks, { patienceMs: 0 })
      const refused = await locked(['worktree', 'add', '-b', 'seam/b', path.join(root, 'b'), 'HEAD'], repo).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(WorktreeError)
      expect((refused as WorktreeError).message).toContain(`pid ${owner.pid}`)
      expect((refused as WorktreeError).message).toContain(file)
      expect(git(repo, 'branch', '--list', 'seam/b')).toBe('')
      expect((await locked(['worktree', 'list', '--porcelain'], repo)).code).toBe(0)
      expect(readdirSync(locks)).toEqual([path.basename(file)])
    } finally {
      owner.kill('SIGKILL')
    }
  })
})
