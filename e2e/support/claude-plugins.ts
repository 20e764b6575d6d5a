// What the e2e specs of Claude Code plugins share: writing a plugin or marketplace tree, git with a
// fixed identity and no user config, the real `seam` CLI against the test's Seam home, and the
// Plugins page opened as a user does.
import type { Page } from '@playwright/test'
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { repoRoot } from '../fixtures'
import { expect } from './seam-test'

const SEAM_BIN = join(repoRoot, 'bin', 'seam.mjs')

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = join(root, rel)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    if (rel.endsWith('.sh')) chmodSync(file, 0o755)
  }
}

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null' } })
}

/** A marketplace as a git repository at `repo`: `files` written and committed on `main`. */
export function gitRepository(repo: string, files: Record<string, string>): void {
  mkdirSync(repo, { recursive: true })
  git(repo, 'init', '--quiet', '--initial-branch=main')
  writeTree(repo, files)
  git(repo, 'add', '-A')
  git(repo, 'commit', '--quiet', '-m', 'marketplace')
}

/** `seam ARGS` against the test's Seam home; resolves with its exit code and output. */
export function seam(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SEAM_BIN, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** The Plugins page: in the nav when the window is wide, in the More menu when it is narrow. */
export async function openPlugins(app: Page): Promise<void> {
  const nav = app.getByRole('navigation', { name: 'Pages' })
  const direct = nav.getByRole('button', { name: 'Plugins', exact: true })
  if ((await direct.count()) > 0) await direct.click()
  else {
    await nav.getByRole('button', { name: 'More' }).click()
    await app.getByRole('menuitem', { name: 'Plugins' }).click()
  }
  await expect(app.getByRole('main', { name: 'Plugins page' })).toBeVisible()
}
