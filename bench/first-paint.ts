// Benchmark (issue 31): first paint of the app shell and of a 1,000-message session, this build
// against the previous version of the renderer, both built and measured in the same run.
//
// - This version: `out/` as `npm run bench` builds it from the working tree.
// - The previous version: the commit named by SEAM_BENCH_BASELINE_REF, else the merge-base of HEAD
//   and `main` when the renderer differs there, else the parent of the last commit that changed
//   `src-renderer/` (the renderer just before its latest change). Its tree is taken with
//   `git archive` into a temporary folder, given this checkout's node_modules and built with its
//   own `electron-vite build` (the same config file unless that commit changed it).
// Each version runs its own built web host (`out/main/web.js`) on the same Seam home, with the
// same seeded sessions, in the same Chromium; loads alternate between the two (the order swapped
// every round), each in a fresh browser context (no cache), at 1280x800. Per load:
// - first contentful paint (the Paint Timing API's `first-contentful-paint`);
// - app shell painted: navigation start to the first animation frame in which the header, the
//   sessions list and the composer are in the document;
// - 1,000-message session painted: the session is the one left open (`seam.openSession` in
//   localStorage, as after a reload), measured from navigation start to the first animation frame
//   in which its last answer's text is in the transcript.
// Medians of ROUNDS loads each. Target: no regression beyond 10% (ratio <= 1.1).
import type { ChildProcess } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { SessionStore } from '../src-main/session/store'
import { findChromium } from '../scripts/chromium.mjs'
import { line, type BenchLine } from './measure'
import { startHost, stopProcess } from './ui-support/host'
import { seedSession, type SeededSession } from './ui-support/seed-session'

const BENCH = 'first-paint'
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const found = findChromium()
const CHROMIUM = found !== undefined && !('error' in found) ? found.path : '/usr/bin/chromium'

const ROUNDS = Number(process.env.SEAM_BENCH_FIRST_PAINT_ROUNDS ?? 9)
/** seed-session.ts writes turns of 13 events holding 5 messages (a prompt, 4 assistant messages). */
const TURNS = 200
const MESSAGES = TURNS * 5
const EVENTS = 1 + TURNS * 13
const WAIT_MS = 60_000
const OPEN_SESSION_KEY = 'seam.openSession'
const SHELL = ['header', '[aria-label="Session list"]', 'textarea[aria-label="Message"]']

interface Version {
  name: 'current' | 'baseline'
  entry: string
  cwd: string
  host?: ChildProcess
  url?: string
}

interface Load {
  fcp: number
  shell: number
  session: number
}

export async function run(): Promise<BenchLine[]> {
  const current: Version = { name: 'current', entry: join(root, 'out', 'main', 'web.js'), cwd: root }
  if (!existsSync(current.entry)) throw new Error(`${current.entry} is missing: build first (npm run build)`)
  const temp = await mkdtemp(join(tmpdir(), 'seam-bench-first-paint-'))
  let browser: Browser | undefined
  const versions: Version[] = [current]
  try {
    const ref = baselineRef()
    const baseline = await buildBaseline(ref, join(temp, 'baseline'))
    versions.push(baseline)
    process.stderr.write(`first-paint: baseline ${ref} (${git(['log', '-1', '--format=%h %s', ref]).slice(0, 100)})\n`)

    const seamHome = join(temp, 'seam')
    const workspace = join(temp, 'workspace')
    await mkdir(workspace, { recursive: true })
    await mkdir(join(temp, 'home'), { recursive: true })
    await mkdir(join(seamHome, 'sessions'), { recursive: true, mode: 0o700 })
    await writeFile(join(seamHome, 'settings.json'), JSON.stringify({ workspace, provider: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'bench-model' } }))
    const session = await seedSession(SessionStore.inSeamHome(seamHome), `bench ${MESSAGES} messages`, workspace, EVENTS)

    const env = { ...process.env, HOME: join(temp, 'home'), SEAM_HOME: seamHome, PORT: '0', SEAM_WEB_HOST: '127.0.0.1' }
    for (const version of versions) {
      const started = await startHost(version.entry, version.cwd, env)
      version.host = started.child
      version.url = started.url
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu', '--disable-quic'] })
    // One warm-up load each (the hosts' first session read, the OS file cache), not counted.
    for (const version of versions) await load(browser, version, session)
    const loads: Record<Version['name'], Load[]> = { current: [], baseline: [] }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? versions : [...versions].reverse()
      for (const version of order) loads[version.name].push(await load(browser, version, session))
    }
    const med = (name: Version['name'], key: keyof Load) => median(loads[name].map((l) => l[key]))
    return [
      line(BENCH, 'first contentful paint (vs the previous version)', med('current', 'fcp'), 'ms', med('baseline', 'fcp')),
      line(BENCH, 'app shell painted: header, sessions list and composer (vs the previous version)', med('current', 'shell'), 'ms', med('baseline', 'shell'), { bound: tenPercentOver(med('baseline', 'shell')) }),
      line(BENCH, `a ${MESSAGES}-message session painted on load (vs the previous version)`, med('current', 'session'), 'ms', med('baseline', 'session'), { bound: tenPercentOver(med('baseline', 'session')) }),
      line(BENCH, 'load average over 1 minute at the end (vs cores)', loadavg()[0], 'runnable', availableParallelism())
    ]
  } finally {
    await browser?.close().catch(() => undefined)
    for (const version of versions) if (version.host) await stopProcess(version.host)
    await rm(temp, { recursive: true, force: true, maxRetries: 3 })
  }
}

/** One cold load of `version` with `session` left open: its three timings, ms from navigation start. */
async function load(browser: Browser, version: Version, session: SeededSession): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    await context.addInitScript(watchPaints, { key: OPEN_SESSION_KEY, id: session.id, shell: SHELL, marker: session.marker })
    const page = await context.newPage()
    await page.goto(version.url!)
    await page.waitForFunction(() => window.__seamPaint?.session !== undefined, undefined, { timeout: WAIT_MS })
    const { shell, session: sessionMs } = await page.evaluate(() => window.__seamPaint!)
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN)
    if (!Number.isFinite(fcp) || shell === undefined || sessionMs === undefined) throw new Error(`${version.name}: a paint was not recorded`)
    return { fcp, shell, session: sessionMs }
  } finally {
    await context.close()
  }
}

declare global {
  interface Window {
    __seamPaint?: { shell?: number; session?: number }
  }
}

/** Runs in the page before its scripts: leaves the session open (as after a reload) and records the
 * time of the first animation frame in which the shell, then the session's last answer, is there. */
function watchPaints(args: { key: string; id: string; shell: string[]; marker: string }): void {
  localStorage.setItem(args.key, args.id)
  const paint: { shell?: number; session?: number } = {}
  window.__seamPaint = paint
  const check = (now: number) => {
    if (paint.shell === undefined && args.shell.every((s) => document.querySelector(s) !== null)) paint.shell = now
    if (paint.session === undefined && document.querySelector('[role="log"]')?.textContent?.includes(args.marker)) paint.session = now
    if (paint.session === undefined || paint.shell === undefined) requestAnimationFrame(check)
  }
  requestAnimationFrame(check)
}

function baselineRef(): string {
  const override = process.env.SEAM_BENCH_BASELINE_REF
  if (override) return git(['rev-parse', '--verify', `${override}^{commit}`])
  const mergeBase = tryGit(['merge-base', 'HEAD', 'main'])
  if (mergeBase && !rendererSame(mergeBase)) return mergeBase
  const lastChange = git(['log', '-1', '--format=%H', 'HEAD', '--', 'src-renderer'])
  return git(['rev-parse', `${lastChange}^`])
}

function rendererSame(ref: string): boolean {
  try {
    execFileSync('git', ['diff', '--quiet', ref, '--', 'src-renderer'], { cwd: root })
    return true
  } catch {
    return false // exit 1: they differ
  }
}

/** The tree of `ref` in `dir`, built there with this checkout's node_modules. */
async function buildBaseline(ref: string, dir: string): Promise<Version> {
  await mkdir(dir, { recursive: true })
  const tar = `${dir}.tar`
  git(['archive', '--format=tar', '-o', tar, ref])
  execFileSync('tar', ['-xf', tar, '-C', dir])
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  execFileSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  return { name: 'baseline', entry: join(dir, 'out', 'main', 'web.js'), cwd: dir }
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
}

function tryGit(args: string[]): string | undefined {
  try {
    return git(args)
  } catch {
    return undefined // no `main` branch (a clone of one branch): fall back to the last renderer change
  }
}

/** The limit: no regression beyond 10%. */
function tenPercentOver(baseline: number): number {
  return Math.round(baseline * 1.1 * 10) / 10
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

