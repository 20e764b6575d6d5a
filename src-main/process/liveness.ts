// Test helpers: whether a process is alive (a zombie is not), the pid a shell wrote, waiting for a
// condition, and the run's time factor with the durations it scales.
import { readFileSync } from 'node:fs'

/**
 * How much slower than an idle machine this test run is: SEAM_TEST_TIME_FACTOR, which `npm test`
 * measures and sets (scripts/time-factor.mjs); 1 without it. Waits written for an idle machine
 * are multiplied by it.
 */
export function testTimeFactor(): number {
  return Number(process.env.SEAM_TEST_TIME_FACTOR) || 1
}

/**
 * `ms` written for an idle machine, scaled by `testTimeFactor()`, in whole milliseconds: Node
 * refuses a fractional timeout (execFile's `timeout`), and 60 000 x 4.1 is 245 999.99999999997.
 */
export function scaledTestMs(ms: number): number {
  return Math.round(ms * testTimeFactor())
}

/** Alive = exists and is not a zombie (an exited child nobody reaped yet). */
export function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').charAt(0)
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/**
 * The pid a shell wrote with `echo $$ > file`, once the whole line is there; undefined before. The
 * file exists from the moment the shell opens it, so existence alone can be read as an empty pid.
 */
export function writtenPid(file: string): number | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  return /^\d+\n/.test(text) ? Number.parseInt(text, 10) : undefined
}

export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Without a timeout, 2 s scaled by the test run's time factor (SEAM_TEST_TIME_FACTOR) when there is one. */
export async function waitUntilDead(pid: number, timeoutMs = scaledTestMs(2_000)): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}
