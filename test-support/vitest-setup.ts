// Runs before each test file (vitest.config.mts, setupFiles): the file's default test and hook
// timeouts follow the machine's load now, not only the factor measured when the run started, so a
// machine that gets busier during a 10-minute run scales the files that start later. The same
// factor goes into SEAM_TEST_TIME_FACTOR for this file, so the waits a test scales itself (and
// the processes it starts) follow the load too; the run's own factor is kept aside so that a
// worker's next file starts again from it rather than from this file's load. After each file it
// checks that the file left the environment as it found it (below).
import { afterAll, beforeAll, vi } from 'vitest'
import { currentTimeFactor, TIME_FACTOR_ENV, timeFactor } from '../scripts/time-factor.mjs'

export const DEFAULT_TIMEOUT_MS = 20_000
const RUN_FACTOR_ENV = 'SEAM_TEST_RUN_TIME_FACTOR'

process.env[RUN_FACTOR_ENV] ??= String(timeFactor().factor)
const factor = currentTimeFactor({ [TIME_FACTOR_ENV]: process.env[RUN_FACTOR_ENV] })
process.env[TIME_FACTOR_ENV] = String(factor)
vi.setConfig({ testTimeout: Math.round(DEFAULT_TIMEOUT_MS * factor), hookTimeout: Math.round(DEFAULT_TIMEOUT_MS * factor) })

// Files share a worker (isolate: false), and with it process.env: a variable a file sets and does
// not restore reaches every later file in the worker, whichever runs next (a test host's HOME
// left behind, a key a test exported). Each file must leave the environment as it found it; a file
// that replaces process.env with a plain object cuts the later ones off from the real environment
// (os.homedir() and child processes read that one, not the object). vi.stubEnv and
// vi.unstubAllEnvs do both right.
let envAtStart: Record<string, string | undefined> = {}
beforeAll(() => {
  envAtStart = { ...process.env }
})
afterAll(() => {
  const env = process.env as Record<string, unknown>
  // The real process.env turns what it is given into a string; a plain object does not.
  const probe = 'SEAM_TEST_ENV_PROBE'
  env[probe] = 1
  const real = env[probe] === '1'
  delete env[probe]
  if (!real) throw new Error('this file replaced process.env with a plain object, which later files in the worker inherit: use vi.stubEnv and vi.unstubAllEnvs')
  const changed = [...new Set([...Object.keys(envAtStart), ...Object.keys(process.env)])].filter((name) => envAtStart[name] !== process.env[name])
  if (changed.length > 0) throw new Error(`this file left environment variables changed for the files after it in the worker: ${changed.sort().join(', ')} (use vi.stubEnv and vi.unstubAllEnvs, or restore them)`)
})
