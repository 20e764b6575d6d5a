// Runs before each test file (vitest.config.mts, setupFiles): the file's default test and hook
// timeouts follow the machine's load now, not only the factor measured when the run started, so a
// machine that gets busier during a 10-minute run scales the files that start later.
import { vi } from 'vitest'
import { currentTimeFactor } from '../scripts/time-factor.mjs'

export const DEFAULT_TIMEOUT_MS = 20_000

const factor = currentTimeFactor()
vi.setConfig({ testTimeout: Math.round(DEFAULT_TIMEOUT_MS * factor), hookTimeout: Math.round(DEFAULT_TIMEOUT_MS * factor) })
