// Playwright fixtures: every spec drives the real UI against a real Host through `app`, a Page
// that is either Debian's Chromium (its headless shell where installed) on a web-mode host
// (project 'web') or the Electron window (project 'electron', when ELECTRON_PATH is set). Specs
// never branch on which one they got.
//
// Each test gets its own host process with a fresh temp dir: SEAM_HOME=<tmp>/seam (the
// `seamHome` fixture) and HOME=<tmp>/home, so nothing from the developer's ~/.seam or
// ~/.claude leaks in. Extra host environment comes from `test.use({ hostEnv: {...} })` (a value,
// or a fixture function when it depends on something started at run time, e.g. a fake
// provider's URL); `seamHomeFiles` writes files into the Seam home before the host starts.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect as baseExpect, test as base, _electron, type Browser, type ElectronApplication, type Page } from '@playwright/test'
import { currentTimeFactor, scaledTimeout, TIME_FACTOR_ENV, timeFactor } from '../scripts/time-factor.mjs'
import { EXPECT_TIMEOUT_MS, HOST_START_TIMEOUT_MS as HOST_START_BASE_MS } from './support/timeouts'

export type Target = 'web' | 'electron'

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const WEB_ENTRY = join(repoRoot, 'out', 'main', 'web.js')

// The run's factor (measured once when `npm test` starts) is kept aside; each test starts from it
// and takes the larger of it and the load's factor at that moment, as each vitest file does
// (test-support/vitest-setup.ts): a machine that gets busier during the run scales the later tests.
const RUN_FACTOR_ENV = 'SEAM_TEST_RUN_TIME_FACTOR'
process.env[RUN_FACTOR_ENV] ??= String(timeFactor().factor)
const runFactor = Number(process.env[RUN_FACTOR_ENV])
let testFactor = runFactor

/**
 * Playwright's `expect`, with its default timeout following the current test's factor (the
 * config's is fixed when the worker starts). A timeout given to a matcher still wins.
 */
export const expect: typeof baseExpect = new Proxy(baseExpect, {
  apply: (_target, thisArg, args: unknown[]) => Reflect.apply(loadFollowingExpect(), thisArg, args),
  get: (_target, property) => Reflect.get(loadFollowingExpect(), property)
})

function loadFollowingExpect(): typeof baseExpect {
  return testFactor === runFactor ? baseExpect : baseExpect.configure({ timeout: Math.round(EXPECT_TIMEOUT_MS * testFactor) })
}

export interface TestOptions {
  /** Environment for the host process, on top of SEAM_HOME/HOME/PORT. */
  hostEnv: Record<string, string>
  /** Files written into the Seam home before the host starts (relative path -> content). */
  seamHomeFiles: Record<string, string>
}

export interface WorkerOptions {
  target: Target
}

export interface TestFixtures extends TestOptions {
  /** The host's Seam home (a fresh temp dir per test). */
  seamHome: string
  /** Host stdout/stderr and page errors, attached to the report when a test fails. */
  hostLog: string[]
  /** The app's page, ready once the UI document has loaded. */
  app: Page
}

interface WorkerFixtures extends WorkerOptions {
  /** Chromium, launched on first use only (the electron project never starts it). */
  lazyBrowser: () => Promise<Browser>
}

interface HostRun {
  /** Starts the web host for this test (once) and returns its URL. */
  webHost(): Promise<string>
  /** Stops the web host (SIGTERM, as a user quitting) and starts a new one on the same Seam home; its new URL. */
  restartWebHost(): Promise<string>
}

export const test = base.extend<TestFixtures & { hostRun: HostRun; tempRoot: string; loadFollowingTimeouts: void }, WorkerFixtures>({
  target: ['web', { option: true, scope: 'worker' }],

  // First of every test: its timeout (whatever the config or a describe set) and its waits follow
  // the load now, only ever upwards from the run's factor.
  loadFollowingTimeouts: [
    async ({}, use, testInfo) => {
      testFactor = currentTimeFactor({ [TIME_FACTOR_ENV]: String(runFactor) })
      process.env[TIME_FACTOR_ENV] = String(testFactor)
      if (testFactor > runFactor) testInfo.setTimeout(Math.round((testInfo.timeout / runFactor) * testFactor))
      await use()
    },
    { auto: true }
  ],
  hostEnv: [{}, { option: true }],
  seamHomeFiles: [{}, { option: true }],

  lazyBrowser: [
    async ({ playwright, launchOptions }, use) => {
      let launched: Promise<Browser> | undefined
      await use(() => (launched ??= playwright.chromium.launch(launchOptions)))
      if (launched) await (await launched).close()
    },
    { scope: 'worker' }
  ],

  tempRoot: async ({}, use) => {
    const root = await mkdtemp(join(tmpdir(), 'seam-e2e-'))
    await mkdir(join(root, 'home'), { recursive: true })
    await use(root)
    await rm(root, { recursive: true, force: true, maxRetries: 3 })
  },

  seamHome: async ({ tempRoot, seamHomeFiles }, use) => {
    const home = join(tempRoot, 'seam')
    await mkdir(home, { recursive: true })
    for (const [relative, content] of Object.entries(seamHomeFiles)) {
      const target = resolve(home, relative)
      if (!target.startsWith(home + '/')) throw new Error(`seamHomeFiles: '${relative}' is outside the Seam home`)
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, content)
    }
    await use(home)
  },

  hostLog: async ({}, use, testInfo) => {
    const lines: string[] = []
    await use(lines)
    if (testInfo.status !== testInfo.expectedStatus && lines.length > 0) {
      await testInfo.attach('host-log.txt', { body: lines.join('\n'), contentType: 'text/plain' })
    }
  },

  hostRun: async ({ tempRoot, seamHome, hostEnv, hostLog }, use) => {
    let child: ChildProcess | undefined
    let url: Promise<string> | undefined
    const start = async () => {
      const started = await startWebHost(hostProcessEnv(tempRoot, seamHome, hostEnv), hostLog)
      child = started.child
      return started.url
    }
    await use({
      webHost: () => (url ??= start()),
      restartWebHost: async () => {
        if (child) await stopProcess(child)
        url = start()
        return url
      }
    })
    if (child) await stopProcess(child)
  },

  app: async ({ target, lazyBrowser, hostRun, tempRoot, seamHome, hostEnv, hostLog, colorScheme }, use, testInfo) => {
    let page: Page
    let electronApp: ElectronApplication | undefined
    let closeContext: (() => Promise<void>) | undefined
    if (target === 'electron') {
      const executablePath = process.env.ELECTRON_PATH
      if (!executablePath) throw new Error('The electron project needs ELECTRON_PATH (the Electron executable).')
      electronApp = await _electron.launch({
        executablePath,
        args: ['.', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
        cwd: repoRoot,
        // Its own Chromium profile and single-instance lock: a running Seam is never touched.
        env: { ...hostProcessEnv(tempRoot, seamHome, hostEnv), SEAM_ELECTRON_USER_DATA: join(tempRoot, 'electron-user-data') }
      })
      const proc = electronApp.process()
      proc.stdout?.on('data', (chunk: Buffer) => hostLog.push(...lines('host', chunk)))
      proc.stderr?.on('data', (chunk: Buffer) => hostLog.push(...lines('host!', chunk)))
      page = await electronApp.firstWindow()
      if (colorScheme !== undefined) await page.emulateMedia({ colorScheme })
    } else {
      const url = await hostRun.webHost()
      const browser = await lazyBrowser()
      // The printed URL carries the access token; the first visit trades it for a cookie.
      // The spec's `test.use({ colorScheme })` reaches the page only through the context made here.
      const context = await browser.newContext({ baseURL: new URL(url).origin, ...(colorScheme !== undefined ? { colorScheme } : {}) })
      closeContext = () => context.close()
      page = await context.newPage()
      await page.goto(url)
    }
    page.on('pageerror', (error) => hostLog.push(`[page error] ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') hostLog.push(`[console.error] ${message.text()}`)
    })
    await page.waitForLoadState('domcontentloaded')

    await use(page)

    if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) {
      const path = testInfo.outputPath('failure.png')
      await page.screenshot({ path, fullPage: true }).then(
        () => testInfo.attachments.push({ name: 'failure.png', path, contentType: 'image/png' }),
        () => {}
      )
    }
    await closeContext?.()
    await electronApp?.close()
  }
})

/** A timeout written for an idle machine, scaled as the config's are (for a test's own `setTimeout`). */
export { scaledTimeout }

function hostProcessEnv(tempRoot: string, seamHome: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value
  return {
    ...env,
    HOME: join(tempRoot, 'home'),
    SEAM_HOME: seamHome,
    PORT: '0',
    SEAM_WEB_HOST: '127.0.0.1',
    ...extra
  }
}

function lines(tag: string, chunk: Buffer): string[] {
  return chunk
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => `[${tag}] ${line}`)
}

async function startWebHost(env: Record<string, string>, log: string[]): Promise<{ child: ChildProcess; url: string }> {
  if (!existsSync(WEB_ENTRY)) throw new Error(`${WEB_ENTRY} is missing: run \`npm run build\` before the e2e tests.`)
  const child = spawn(process.execPath, [WEB_ENTRY], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stderr?.on('data', (chunk: Buffer) => log.push(...lines('host!', chunk)))
  const url = await new Promise<string>((resolveUrl, reject) => {
    let buffered = ''
    const startMs = scaledTimeout(HOST_START_BASE_MS) // this test's factor: set by loadFollowingTimeouts
    const timer = setTimeout(() => fail(`did not print its URL within ${startMs / 1000} s`), startMs)
    function fail(why: string) {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`The web host ${why}.\n${log.slice(-40).join('\n')}`))
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      log.push(...lines('host', chunk))
      buffered += chunk.toString('utf8')
      const match = /Seam web UI: (http:\/\/\S+)/.exec(buffered)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1]!)
      }
    })
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`}) before it was ready`))
    child.once('error', (error) => fail(`could not start: ${error.message}`))
  })
  return { child, url }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
