// Runs once per vitest run, before any test file (vitest.config.mts, globalSetup): the folder the
// run's files share the packed plugin SDK in (packed-sdk.ts), unless `npm test` already made one
// for vitest and Playwright together. The file workers inherit the variable.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SDK_DIR_ENV } from './packed-sdk'

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[SDK_DIR_ENV]) return undefined
  const dir = await mkdtemp(join(tmpdir(), 'seam-test-sdk-'))
  process.env[SDK_DIR_ENV] = dir
  return async () => {
    await rm(dir, { recursive: true, force: true })
  }
}
