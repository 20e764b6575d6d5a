// SEAM_ELECTRON_USER_DATA: a userData folder of its own (Chromium's profile, and the key of the
// single-instance lock), so an end-to-end run or a second copy under test never meets the
// user's running Seam. Read before the lock is taken.
import { isAbsolute, normalize } from 'node:path'

export const USER_DATA_ENV = 'SEAM_ELECTRON_USER_DATA'

/** The folder to use instead of Electron's default, or undefined; throws on a relative path. */
export function userDataOverride(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[USER_DATA_ENV]
  if (value === undefined || value.trim() === '') return undefined
  if (!isAbsolute(value)) throw new Error(`${USER_DATA_ENV} must be an absolute path (got ${JSON.stringify(value)})`)
  return normalize(value)
}
