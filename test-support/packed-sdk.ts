// The plugin SDK's npm tarball for tests that scaffold or install a bundle. Packing it
// (`npm run pack:sdk`: a Vite build of the host code it re-exports, then tsc for the
// declarations) is the heaviest step of those tests, and each of them packed the same checkout
// again. Now the first to ask packs it (through `seam plugin new`, as a user would) into the
// run's folder (SEAM_TEST_SDK_DIR: set by `npm test` for vitest and Playwright alike, else by
// vitest's global setup) and the others wait for it and share it read-only. `seedSeamHome` puts
// it where `seam plugin new` takes an SDK packed earlier (`<Seam home>/sdk/`,
// src-main/cli/plugin-sdk.ts). Without the variable (a Playwright spec run alone) the process
// packs into a folder of its own, removed at exit.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { promisify } from 'node:util'

export const SDK_DIR_ENV = 'SEAM_TEST_SDK_DIR'
const REPO_ROOT = resolve(import.meta.dirname, '..')
const run = promisify(execFile)

/** The run's folder for the tarball: SEAM_TEST_SDK_DIR, else one for this process. */
function runFolder(): string {
  const set = process.env[SDK_DIR_ENV]
  if (set) return set
  const own = mkdtempSync(join(tmpdir(), 'seam-test-sdk-'))
  process.once('exit', () => rmSync(own, { recursive: true, force: true }))
  process.env[SDK_DIR_ENV] = own
  return own
}

function tarballName(): string {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/sdk/package.json'), 'utf8')) as { version: string }
  return `seam-sdk-${version}.tgz`
}

/** Whether the process that took `lock` (its pid in `lock/pid`) has gone without removing it. */
function holderGone(lock: string): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
  } catch {
    return false // taken a moment ago, pid not written yet
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/**
 * Packs the SDK into `dir` as `name` the way a user's first `seam plugin new` in a checkout does
 * (the built CLI, an empty Seam home: src-main/cli/plugin-sdk.ts runs packages/sdk/pack.mjs),
 * then moves the tarball it cached in that home to `dir` with a rename, so a reader never sees half
 * a file.
 */
async function pack(dir: string, name: string): Promise<void> {
  const staging = await mkdtemp(join(dir, 'staging-'))
  const home = join(staging, 'home')
  try {
    await mkdir(home)
    await run(process.execPath, [join(REPO_ROOT, 'bin/seam.mjs'), 'plugin', 'new', 'sdk-probe', '--dir', join(staging, 'sdk-probe')], {
      cwd: staging,
      env: { ...process.env, SEAM_HOME: home, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      maxBuffer: 64 * 1024 * 1024
    }).catch((error: Error & { stderr?: string }) => {
      throw new Error(`seam plugin new (packing the SDK) failed: ${error.stderr || error.message}`)
    })
    const packed = join(home, 'sdk', name)
    if (!existsSync(packed)) throw new Error(`seam plugin new left no ${name} in its Seam home's sdk/ folder`)
    await rename(packed, join(dir, name))
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/**
 * The path of this checkout's SDK tarball, packed once per run. Files asking at once take turns
 * on a lock folder; the others wait until the tarball is there (or the packer is gone, and one of
 * them packs).
 */
export async function packedSdk(): Promise<string> {
  const dir = runFolder()
  const name = tarballName()
  const tarball = join(dir, name)
  const lock = join(dir, `${name}.lock`)
  for (;;) {
    if (existsSync(tarball)) return tarball
    try {
      await mkdir(lock)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (holderGone(lock)) await rm(lock, { recursive: true, force: true })
      else await delay(250) // another file is packing: look again
      continue
    }
    try {
      await writeFile(join(lock, 'pid'), String(process.pid))
      if (!existsSync(tarball)) await pack(dir, name)
      return tarball
    } finally {
      await rm(lock, { recursive: true, force: true })
    }
  }
}

/** Puts the run's SDK tarball into `seamHome/sdk/`, where `seam plugin new` takes an SDK packed earlier. */
export async function seedSeamHome(seamHome: string): Promise<string> {
  const tarball = await packedSdk()
  const folder = join(seamHome, 'sdk')
  await mkdir(folder, { recursive: true })
  const copy = join(folder, tarballName())
  await copyFile(tarball, copy)
  return copy
}
