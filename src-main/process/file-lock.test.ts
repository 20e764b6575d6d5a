// The lock shared by Seam's processes: owners that are other real processes (live, dead, or a file
// naming none), the synchronous and the asynchronous form, and what is left behind.
import { spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { anotherProcessHolding } from '../../test-support/lock-holder'
import { FileLockBusyError, withFileLock, withFileLockSync } from './file-lock'

let dir: string
let lock: string

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'seam-file-lock-'))
  lock = path.join(dir, 'shared.lock')
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Another process holding the lock `holdMs`, adding `line` to `log` at the end of its hold. */
function otherProcessHolding(holdMs: number, log: string, line: string): Promise<ChildProcess> {
  return anotherProcessHolding(lock, { holdMs, onRelease: 'fs.appendFileSync(args[0], args[1])', args: [log, `${line}\n`] })
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(child.stdout)
}

describe('withFileLockSync', () => {
  it('waits while another live process holds the lock, and runs after its step, not inside it', async () => {
    const log = path.join(dir, 'log')
    await otherProcessHolding(300, log, 'other')
    withFileLockSync(lock, () => writeFileSync(log, readFileSync(log, 'utf8') + 'mine\n'), { patienceMs: 30_000 })
    expect(readFileSync(log, 'utf8')).toBe('other\nmine\n')
    expect(readdirSync(dir).sort()).toEqual(['log'])
  })

  it('takes over the lock of a process that is gone, and a lock file that names no pid', () => {
    for (const content of [`${deadPid()}\n`, 'not a pid\n', '']) {
      writeFileSync(lock, content)
      expect(withFileLockSync(lock, () => 'ran', { patienceMs: 0 })).toBe('ran')
      expect(readdirSync(dir)).toEqual([])
    }
  })

  it('gives up on a live owner after its patience, naming the owner and the file, and leaves its lock alone', async () => {
    const owner = await otherProcessHolding(60_000, path.join(dir, 'log'), 'other')
    let ran = false
    let caught: unknown
    try {
      withFileLockSync(lock, () => (ran = true), { patienceMs: 100 })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(FileLockBusyError)
    expect((caught as FileLockBusyError).ownerPid).toBe(owner.pid)
    expect((caught as Error).message).toContain(`pid ${owner.pid}`)
    expect((caught as Error).message).toContain(lock)
    expect(ran).toBe(false)
    expect(readFileSync(lock, 'utf8')).toBe(`${owner.pid}\n`)
    expect(readdirSync(dir)).toEqual(['shared.lock'])
  })

  it('lets go when the step throws', () => {
    expect(() => withFileLockSync(lock, () => { throw new Error('the step failed') }, { patienceMs: 0 })).toThrow('the step failed')
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('withFileLock', () => {
  it('runs steps of the same process one at a time, in turn', async () => {
    let running = 0
    let most = 0
    const order: number[] = []
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        withFileLock(
          lock,
          async () => {
            most = Math.max(most, ++running)
            await new Promise((resolve) => setTimeout(resolve, 20))
            order.push(i)
            running--
          },
          { patienceMs: 30_000 }
        )
      )
    )
    expect(most).toBe(1)
    expect(order.sort()).toEqual([0, 1, 2, 3])
    expect(readdirSync(dir)).toEqual([])
  })

  it('waits for another live process without blocking this one, and takes over a dead owner', async () => {
    const log = path.join(dir, 'log')
    await otherProcessHolding(300, log, 'other')
    const order: string[] = []
    setTimeout(() => order.push('a timer of this process'), 1)
    await withFileLock(
      lock,
      async () => {
        order.push('the step')
        writeFileSync(log, readFileSync(log, 'utf8') + 'mine\n')
      },
      { patienceMs: 30_000 }
    )
    // The step waited for the other process's; this process's timers ran meanwhile.
    expect(readFileSync(log, 'utf8')).toBe('other\nmine\n')
    expect(order).toEqual(['a timer of this process', 'the step'])

    writeFileSync(lock, `${deadPid()}\n`)
    await expect(withFileLock(lock, async () => 'ran', { patienceMs: 0 })).resolves.toBe('ran')
    expect(readdirSync(dir).sort()).toEqual(['log'])
  })
})
