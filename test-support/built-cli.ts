// The built CLI for tests that run `seam` as a real process: where it is, building it once when
// `out/` is missing (a fresh checkout running one test file), and a scratch Seam home and workspace.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll } from 'vitest'
import { scaledTestMs } from '@seam/sdk/testing'

export const REPO_ROOT = resolve(import.meta.dirname, '..')
export const SEAM_BIN = join(REPO_ROOT, 'bin', 'seam.mjs')
/** How long one `seam` command may take on an idle machine; scaled by the run's time factor. */
const RUN_TIMEOUT_MS = 60_000

/** Builds `out/` with electron-vite unless the CLI and the web host are already built. */
export async function ensureBuilt(): Promise<void> {
  if (['cli.js', 'web.js'].every((entry) => existsSync(join(REPO_ROOT, 'out', 'main', entry)))) return
  await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: REPO_ROOT })
}

export interface CliScratch {
  /** The Seam home (and HOME) the CLI runs with. */
  home: string
  /** The workspace folder. */
  workspace: string
}

/**
 * For a test file that runs the built CLI: builds it if needed and makes a fresh home and
 * workspace before the file's tests (handed to `ready`), and removes both after them.
 */
export function useCliScratch(name: string, ready: (dirs: CliScratch) => void): void {
  let dirs: CliScratch | undefined
  beforeAll(async () => {
    await ensureBuilt()
    dirs = { home: await mkdtemp(join(tmpdir(), `seam-${name}-home-`)), workspace: await mkdtemp(join(tmpdir(), `seam-${name}-ws-`)) }
    ready(dirs)
  }, 120_000)
  afterAll(async () => {
    if (!dirs) return
    await rm(dirs.home, { recursive: true, force: true })
    await rm(dirs.workspace, { recursive: true, force: true })
  })
}


export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs the built `seam` with `args` in `cwd`, its home and Seam home under `home`, without a
 * controlling terminal (setsid): an ask that reaches the user is refused, as headless. A non-zero
 * exit is a result, not a throw.
 */
export async function runSeamHeadless(args: string[], dirs: { cwd: string; home: string; env?: Record<string, string> }): Promise<CliResult> {
  const limitMs = scaledTestMs(RUN_TIMEOUT_MS)
  try {
    const { stdout, stderr } = await promisify(execFile)('setsid', ['-w', process.execPath, SEAM_BIN, ...args], {
      cwd: dirs.cwd,
      env: { ...process.env, SEAM_HOME: join(dirs.home, 'seam'), HOME: dirs.home, FAKE_KEY: 'sk-test', ...dirs.env },
      timeout: limitMs
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code?: number | string; signal?: string | null; killed?: boolean; message: string; stdout?: string; stderr?: string }
    if (typeof e.code === 'number') return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
    // Killed (the timeout), or never ran: code 1, and stderr says which, so a failing test shows it.
    const why = e.killed ? `killed by ${e.signal} after the ${limitMs / 1000} s timeout` : e.message
    return { code: 1, stdout: e.stdout ?? '', stderr: `${e.stderr ?? ''}\n[runSeamHeadless] ${why}\n` }
  }
}

/** A hook command appending its stdin (one JSON object) as a line of `<home>/records/<name>`. */
export function hookRecorder(home: string, name: string): string {
  const file = join(home, 'records', name)
  return `mkdir -p ${join(home, 'records')}; cat >> ${file}; echo >> ${file}`
}

/** The inputs a `hookRecorder` hook recorded, in order. */
export async function hookRecords(home: string, name: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(home, 'records', name), 'utf8').catch(() => '')
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
}
