// The built CLI for tests that run `seam` as a real process: where it is, and building it once
// when `out/` is missing (a fresh checkout running one test file).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

export const REPO_ROOT = resolve(import.meta.dirname, '..')
export const SEAM_BIN = join(REPO_ROOT, 'bin', 'seam.mjs')

/** Builds `out/` with electron-vite unless the CLI and the web host are already built. */
export async function ensureBuilt(): Promise<void> {
  if (['cli.js', 'web.js'].every((entry) => existsSync(join(REPO_ROOT, 'out', 'main', entry)))) return
  await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: REPO_ROOT })
}
