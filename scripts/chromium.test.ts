// Issue 11 §1, "a fresh machine runs the README's two commands": `npm test` finds a usable
// Chromium itself (CHROMIUM_PATH, Debian's, Playwright's cache, Chrome, PATH), installs Debian's
// where this user may, and otherwise stops at once with one line saying what to run. The browsers
// here are fake trees of small shell scripts (real executables, real PATH lookups); nothing is
// installed.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findChromium, headlessShellHint, installFacts, installPlan, playwrightCacheDir } from './chromium.mjs'

let root: string
let home: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-chromium-root-'))
  home = await mkdtemp(join(tmpdir(), 'seam-chromium-home-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
  await rm(home, { recursive: true, force: true })
})

/** An executable script at `path` that prints `output` for --version and exits `status`. */
function fakeBinary(path: string, output = 'Chromium 140.0.0.0', status = 0): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `#!/bin/sh\necho '${output}'\nexit ${status}\n`)
  chmodSync(path, 0o755)
  return path
}

const lookup = (env: NodeJS.ProcessEnv = {}) => findChromium({ env: { PATH: '', ...env }, home, platform: 'linux', root })

describe('findChromium: where the e2e browser comes from', () => {
  it('finds nothing on a machine without any browser', () => {
    expect(lookup()).toBeUndefined()
  })

  it("takes CHROMIUM_PATH first, over Debian's chromium", () => {
    fakeBinary(join(root, 'usr/bin/chromium'))
    const chosen = fakeBinary(join(home, 'my/chrome'), 'Google Chrome 141.0.1')
    expect(lookup({ CHROMIUM_PATH: chosen })).toEqual({ path: chosen, source: 'CHROMIUM_PATH', version: 'Google Chrome 141.0.1' })
  })

  it('stops on a CHROMIUM_PATH that does not run, rather than quietly using another browser', () => {
    fakeBinary(join(root, 'usr/bin/chromium'))
    const result = lookup({ CHROMIUM_PATH: join(home, 'missing/chrome') })
    expect(result).toEqual({ error: expect.stringContaining(`CHROMIUM_PATH=${join(home, 'missing/chrome')} is not a Chromium that runs`) })
  })

  it("prefers Debian's headless shell, then Debian's chromium, then Playwright's cache, then Google Chrome, then PATH", () => {
    const path = join(home, 'bin')
    const onPath = fakeBinary(join(path, 'chromium-browser'))
    const chrome = fakeBinary(join(root, 'opt/google/chrome/chrome'), 'Google Chrome 139.0')
    const cached = fakeBinary(join(home, '.cache/ms-playwright/chromium-1200/chrome-linux64/chrome'))
    const debian = fakeBinary(join(root, 'usr/bin/chromium'))
    const shell = fakeBinary(join(root, 'usr/bin/chromium-headless-shell'))
    const env = { PATH: path }
    expect(lookup(env)).toMatchObject({ path: shell, source: "Debian's chromium-headless-shell" })
    rmFile(shell)
    expect(lookup(env)).toMatchObject({ path: debian, source: "Debian's chromium" })
    rmFile(debian)
    expect(lookup(env)).toMatchObject({ path: cached, source: "Playwright's cache (chromium-1200)" })
    rmFile(cached)
    expect(lookup(env)).toMatchObject({ path: chrome, source: 'Google Chrome' })
    rmFile(chrome)
    expect(lookup(env)).toMatchObject({ path: onPath, source: 'PATH (chromium-browser)' })
  })

  it("in Playwright's cache, takes the newest headless shell before any full Chromium, and honours PLAYWRIGHT_BROWSERS_PATH", () => {
    const cache = join(home, 'browsers')
    fakeBinary(join(cache, 'chromium-1300/chrome-linux64/chrome'))
    fakeBinary(join(cache, 'chromium_headless_shell-1100/chrome-linux/headless_shell'), 'HeadlessChrome 140.0')
    const newest = fakeBinary(join(cache, 'chromium_headless_shell-1205/chrome-headless-shell-linux64/chrome-headless-shell'), 'HeadlessChrome 150.0')
    expect(playwrightCacheDir({ env: { PLAYWRIGHT_BROWSERS_PATH: cache }, home, platform: 'linux' })).toBe(cache)
    expect(lookup({ PLAYWRIGHT_BROWSERS_PATH: cache })).toMatchObject({ path: newest, source: "Playwright's cache (chromium_headless_shell-1205)" })
    rmFile(newest)
    rmFile(join(cache, 'chromium_headless_shell-1100/chrome-linux/headless_shell'))
    expect(lookup({ PLAYWRIGHT_BROWSERS_PATH: cache })).toMatchObject({ path: join(cache, 'chromium-1300/chrome-linux64/chrome') })
  })

  it('skips what is not a usable browser: a non-executable file, a stub that fails (Ubuntu snap), a binary that is not Chromium', () => {
    const path = join(home, 'bin')
    writeFileSync(mkdirp(join(root, 'usr/bin/chromium')), 'not executable')
    fakeBinary(join(path, 'chromium-browser'), "Command '/usr/bin/chromium-browser' requires the chromium snap to be installed.", 1)
    fakeBinary(join(path, 'google-chrome'), 'Firefox 140.0')
    expect(lookup({ PATH: path })).toBeUndefined()
    const real = fakeBinary(join(path, 'google-chrome-stable'), 'Google Chrome 140.0.7339.80')
    expect(lookup({ PATH: path })).toMatchObject({ path: real, version: 'Google Chrome 140.0.7339.80' })
  })
})

describe('installPlan: when none is found', () => {
  it("as root with apt-get: installs Debian's chromium-headless-shell directly", () => {
    expect(installPlan({ uid: 0, hasAptGet: true, sudoWithoutPassword: false })).toEqual({ action: 'install', argv: [], shown: 'apt-get update && apt-get install -y chromium-headless-shell' })
  })

  it('as a user with non-interactive sudo: installs through sudo -n', () => {
    expect(installPlan({ uid: 1000, hasAptGet: true, sudoWithoutPassword: true })).toEqual({
      action: 'install',
      argv: ['sudo', '-n'],
      shown: 'sudo -n apt-get update && sudo -n apt-get install -y chromium-headless-shell'
    })
  })

  it('as a user who may not install: one line with the exact command, never a password prompt', () => {
    const plan = installPlan({ uid: 1000, hasAptGet: true, sudoWithoutPassword: false })
    expect(plan).toEqual({ action: 'instruct', line: expect.stringContaining('run `sudo apt-get install -y chromium-headless-shell`') })
    expect(plan.action === 'instruct' && plan.line.includes('\n')).toBe(false)
  })

  it("without apt-get (not Debian): points at Playwright's own download instead", () => {
    const plan = installPlan({ uid: 0, hasAptGet: false, sudoWithoutPassword: false })
    expect(plan).toEqual({ action: 'instruct', line: expect.stringContaining('run `npx playwright install chromium`') })
  })

  it('reads apt-get and sudo from PATH', () => {
    const path = join(home, 'bin')
    expect(installFacts({ PATH: path })).toMatchObject({ hasAptGet: false, sudoWithoutPassword: false })
    fakeBinary(join(path, 'apt-get'), 'apt 2.6.1')
    expect(installFacts({ PATH: path }).hasAptGet).toBe(true)
  })
})

describe('headlessShellHint: a full browser found', () => {
  it('names the lighter headless shell to install, and says nothing when the browser found is one', () => {
    const path = join(home, 'bin')
    expect(headlessShellHint({ path: '/opt/google/chrome/chrome' }, { PATH: path })).toContain('`npx playwright install chromium-headless-shell`')
    fakeBinary(join(path, 'apt-get'), 'apt 2.6.1')
    expect(headlessShellHint({ path: '/usr/bin/chromium' }, { PATH: path })).toContain('`sudo apt-get install -y chromium-headless-shell`')
    expect(headlessShellHint({ path: '/usr/bin/chromium-headless-shell' }, { PATH: path })).toBeUndefined()
    expect(headlessShellHint({ path: '/c/chromium_headless_shell-1205/chrome-headless-shell-linux64/chrome-headless-shell' }, { PATH: path })).toBeUndefined()
  })
})

describe('npm test without a usable browser', () => {
  it('stops before building anything, with the one line to act on and the summary line CI reads', async () => {
    const script = resolve(import.meta.dirname, 'test-all.mjs')
    const child = spawn(process.execPath, [script], { env: { ...process.env, CHROMIUM_PATH: join(home, 'no-such-chrome') }, detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // Before the fix this ran the whole suite: stop it (and everything it started) after a while.
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000)
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)))
    clearTimeout(timer)
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('CHROMIUM_PATH=')])
    expect(stdout).not.toContain('=== build')
    expect(stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed')
  }, 30_000)
})

function rmFile(path: string): void {
  writeFileSync(path, '') // no longer runs
  chmodSync(path, 0o644)
}

function mkdirp(path: string): string {
  mkdirSync(dirname(path), { recursive: true })
  return path
}
