// The host's death watcher with real processes. Each test has its own watcher instance and plays
// the host's death by closing its end of the pipe (what the kernel does when the host dies); the
// real host killed with SIGKILL is host-death.test.ts.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HostDeathWatcher } from './host-death-watcher'
import { taskkillArgs, treeSpawnOptions } from './process-tree'
import { isAlive, waitFor, waitUntilDead } from './liveness'

const strays: number[] = []
let watcher: HostDeathWatcher | undefined

afterEach(() => {
  watcher?.closePipe()
  watcher = undefined
  for (const pid of strays.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
})

/** The signal numbers `pid` ignores (SigIgn in /proc/<pid>/status). */
function ignored(pid: number): Set<number> {
  const mask = BigInt(`0x${/^SigIgn:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0'}`)
  return new Set(Array.from({ length: 64 }, (_, bit) => bit + 1).filter((signal) => (mask >> BigInt(signal - 1)) & 1n))
}

/** A process group: a shell leading it and a background child; resolves with both pids. */
async function group(): Promise<{ leader: number; child: number }> {
  const shell = spawn('/bin/sh', ['-c', 'sleep 300 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] })
  const leader = shell.pid
  if (leader === undefined) throw new Error('the test group did not start')
  strays.push(leader)
  const child = await new Promise<number>((resolve) => shell.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))))
  shell.stdout.destroy()
  return { leader, child }
}

describe('the host death watcher', () => {
  it('kills every registered group, children included, when the host end of its pipe closes', async () => {
    watcher = new HostDeathWatcher()
    const a = await group()
    const b = await group()
    watcher.watch(a.leader)
    watcher.watch(b.leader)
    watcher.closePipe()
    for (const pid of [a.leader, a.child, b.leader, b.child]) expect(await waitUntilDead(pid), `pid ${pid} outlived the watcher's EOF`).toBe(true)
  })

  it('leaves a group alone once it is unwatched', async () => {
    watcher = new HostDeathWatcher()
    const kept = await group()
    const killed = await group()
    watcher.watch(kept.leader)
    watcher.watch(killed.leader)
    watcher.unwatch(kept.leader)
    watcher.closePipe()
    expect(await waitUntilDead(killed.child)).toBe(true)
    expect(isAlive(kept.leader) && isAlive(kept.child)).toBe(true)
  })

  it('replaces a watcher that was killed and registers the live groups with the new one', async () => {
    watcher = new HostDeathWatcher()
    const g = await group()
    watcher.watch(g.leader)
    const first = watcher.pid
    expect(first).toBeDefined()
    process.kill(first as number, 'SIGKILL')
    await waitFor(() => watcher?.pid !== undefined && watcher.pid !== first, 5_000, 'a new watcher')
    watcher.closePipe()
    expect(await waitUntilDead(g.child), 'the group registered before the first watcher died').toBe(true)
  })

  it('ignores the terminal signals a user or a process manager sends to the whole session', async () => {
    watcher = new HostDeathWatcher()
    const g = await group()
    watcher.watch(g.leader)
    const pid = watcher.pid as number
    // Its traps are set a moment after it starts (/proc shows the ignored set).
    await waitFor(() => ignored(pid).has(15), 5_000, 'the watcher to ignore SIGTERM')
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) process.kill(pid, signal)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(watcher.pid).toBe(pid)
    expect(isAlive(pid)).toBe(true)
  })

  it('signals every registered group at once on killAll, for a host signal handler', async () => {
    watcher = new HostDeathWatcher()
    const a = await group()
    const b = await group()
    watcher.watch(a.leader)
    watcher.watch(b.leader)
    expect(watcher.killAll('SIGKILL')).toBe(2)
    for (const pid of [a.leader, a.child, b.leader, b.child]) expect(await waitUntilDead(pid)).toBe(true)
  })

  it.each([0, 1, -1, -42, 1.5, Number.NaN])('never registers %s as a group (kill -9 -1 would hit every process)', (pgid) => {
    watcher = new HostDeathWatcher()
    watcher.watch(pgid)
    expect(watcher.watched).toEqual([])
    expect(watcher.pid).toBeUndefined()
  })
})

describe('the Windows form (Git Bash runs the script, taskkill ends each tree)', () => {
  it('calls taskkill /PID N /T /F for each tree still registered when the host end closes, in the form Git Bash passes on', async () => {
    // A taskkill double on PATH stands for Windows' own: it records its arguments.
    const dir = mkdtempSync(join(tmpdir(), 'seam-taskkill-'))
    const calls = join(dir, 'calls')
    writeFileSync(join(dir, 'taskkill'), `#!/bin/sh\necho "$*" >> '${calls}'\n`, { mode: 0o755 })
    try {
      watcher = new HostDeathWatcher({ platform: 'win32', shell: () => '/bin/sh', env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` } })
      watcher.watch(4242)
      watcher.watch(5151)
      watcher.watch(6161)
      watcher.unwatch(5151)
      watcher.closePipe()
      await waitFor(() => existsSync(calls) && readFileSync(calls, 'utf8').split('\n').filter(Boolean).length === 2, 10_000, 'two taskkill calls')
      expect(readFileSync(calls, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['//PID 4242 //T //F', '//PID 6161 //T //F'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a child started for Windows gets no console window of its own, and taskkill gets the tree flags', () => {
    expect(treeSpawnOptions('win32')).toEqual({ detached: false, windowsHide: true })
    expect(treeSpawnOptions('linux')).toEqual({ detached: true })
    expect(taskkillArgs(123)).toEqual(['/PID', '123', '/T', '/F'])
  })
})
