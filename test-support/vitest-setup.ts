// Runs before each test file (vitest.config.mts, setupFiles): the file's default test and hook
// timeouts follow the machine's load now, not only the factor measured when the run started, so a
// machine that gets busier during a 10-minute run scales the files that start later. The same
// factor goes into SEAM_TEST_TIME_FACTOR for this file, so the waits a test scales itself (and
// the processes it starts) follow the load too; the run's own factor is kept aside so that a
// worker's next file starts again from it rather than from this file's load.
import { afterAll, vi } from 'vitest'
import { currentTimeFactor, TIME_FACTOR_ENV, timeFactor } from '../scripts/time-factor.mjs'

export const DEFAULT_TIMEOUT_MS = 20_000
const RUN_FACTOR_ENV = 'SEAM_TEST_RUN_TIME_FACTOR'

process.env[RUN_FACTOR_ENV] ??= String(timeFactor().factor)
const factor = currentTimeFactor({ [TIME_FACTOR_ENV]: process.env[RUN_FACTOR_ENV] })
process.env[TIME_FACTOR_ENV] = String(factor)
vi.setConfig({ testTimeout: Math.round(DEFAULT_TIMEOUT_MS * factor), hookTimeout: Math.round(DEFAULT_TIMEOUT_MS * factor) })

// Files share a worker (isolate: false). A file that replaces process.env with a plain object cuts
// every later file in its worker off from the real environment: os.homedir() and child processes
// read the real one, so a test host's HOME no longer reaches them. The real process.env turns what
// it is given into a string; a plain object does not. Use vi.stubEnv instead.
afterAll(() => {
  const probe = 'SEAM_TEST_ENV_PROBE'
  const env = process.env as Record<string, unknown>
  env[probe] = 1
  const real = env[probe] === '1'
  delete env[probe]
  if (!real) throw new Error('this file replaced process.env with a plain object, which later files in the worker inherit: use vi.stubEnv and vi.unstubAllEnvs')
})
