// Another process holding one of Seam's lock files (src-main/process/file-lock.ts) as a Seam
// process does, its pid in the file: for the tests of what waits on that lock.
import { spawn, type ChildProcess } from 'node:child_process'
import { onTestFinished } from 'vitest'

export interface HeldLock {
  /** How long it holds the lock once it has it. */
  holdMs: number
  /** JavaScript run once it holds the lock, before it says so (`fs`, `path` and `args` in scope). */
  onTake?: string
  /** JavaScript run at the end of the hold, before the lock goes (`fs`, `path` and `args` in scope). */
  onRelease?: string
  /** Strings passed to both as `args`. */
  args?: string[]
}

/** Starts that process and resolves once it holds `lock` (and ran `onTake`); killed when the test ends. */
export async function anotherProcessHolding(lock: string, held: HeldLock): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs')
    const path = require('node:path')
    const [lock, ...args] = process.argv.slice(1)
    fs.mkdirSync(path.dirname(lock), { recursive: true })
    fs.writeFileSync(lock, process.pid + '\\n', { flag: 'wx' })
    ${held.onTake ?? ''}
    process.stdout.write('held\\n')
    setTimeout(() => {
      ${held.onRelease ?? ''}
      fs.rmSync(lock)
    }, ${held.holdMs})`
  const other = spawn(process.execPath, ['-e', script, lock, ...(held.args ?? [])], { stdio: ['ignore', 'pipe', 'inherit'] })
  onTestFinished(() => {
    other.kill('SIGKILL')
  })
  await new Promise<void>((resolve, reject) => {
    other.stdout!.once('data', () => resolve())
    other.once('exit', (code) => reject(new Error(`the other process exited (${code}) before it held ${lock}`)))
  })
  return other
}
