// The browser for the end-to-end tests. `npm test` (scripts/test-all.mjs) calls ensureChromium():
// it looks for a usable Chromium, in this order: CHROMIUM_PATH, Debian's headless shell
// (/usr/bin/chromium-headless-shell), Debian's /usr/bin/chromium, Playwright's browser cache (headless
// shell first, newest first), Google Chrome, then the same names on PATH. The headless shell comes
// first because it is the same Chromium without the desktop browser around it (the build Playwright
// itself runs headless tests on): the e2e suite costs it about half the browser CPU of the full one.
// "Usable" means executable and answering `--version` like a Chromium (Ubuntu's snap stub does
// not). When none is there and this user may install packages (root, or `sudo -n` without a
// password) on a machine with apt-get, it installs Debian's `chromium-headless-shell`, saying so;
// otherwise it returns the one line that says what to run. playwright.config.ts uses
// findChromium() when CHROMIUM_PATH is unset.
// Plain JavaScript so that Node runs it before anything is built; types in chromium.d.mts.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join } from 'node:path'

const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const DEBIAN_CHROMIUM = '/usr/bin/chromium'
const CHROME_PATHS = ['/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']
const PATH_NAMES = ['chromium-headless-shell', 'chrome-headless-shell', 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome']
// Inside a Playwright cache entry (chromium_headless_shell-<rev>, chromium-<rev>), by layout version.
const PLAYWRIGHT_BINARIES = [
  'chrome-headless-shell-linux64/chrome-headless-shell',
  'chrome-linux/headless_shell',
  'chrome-linux64/chrome',
  'chrome-linux/chrome',
  'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
  'chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium'
]

const PACKAGE = 'chromium-headless-shell'
export const INSTALL_COMMAND = `apt-get install -y ${PACKAGE}`

/** Playwright's browser cache: PLAYWRIGHT_BROWSERS_PATH, else its per-platform default. */
export function playwrightCacheDir({ env = process.env, home = homedir(), platform = process.platform } = {}) {
  const set = env.PLAYWRIGHT_BROWSERS_PATH
  if (set && set !== '0') return set
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ms-playwright')
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'ms-playwright')
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'ms-playwright')
}

/**
 * Where a Chromium may be, in the order they are tried. `root` prefixes the fixed system paths
 * (tests point it at a fake tree); PATH and the Playwright cache come from `env` and `home`.
 */
export function chromiumCandidates({ env = process.env, home = homedir(), platform = process.platform, root = '/' } = {}) {
  const candidates = []
  const system = (path) => join(root, path)
  candidates.push({ path: system(DEBIAN_HEADLESS_SHELL), source: `Debian's ${PACKAGE}` })
  candidates.push({ path: system(DEBIAN_CHROMIUM), source: "Debian's chromium" })
  const cache = playwrightCacheDir({ env, home, platform })
  let entries = []
  try {
    entries = readdirSync(cache)
  } catch {
    // no cache
  }
  const revision = (name) => Number(/-(\d+)$/.exec(name)?.[1] ?? -1)
  // The headless shell before full Chromium (see the top); newest revision first within each.
  const ordered = entries
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => Number(b.startsWith('chromium_headless_shell')) - Number(a.startsWith('chromium_headless_shell')) || revision(b) - revision(a))
  for (const name of ordered) for (const binary of PLAYWRIGHT_BINARIES) candidates.push({ path: join(cache, name, binary), source: `Playwright's cache (${name})` })
  for (const path of CHROME_PATHS) candidates.push({ path: system(path), source: 'Google Chrome' })
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) for (const name of PATH_NAMES) candidates.push({ path: join(dir, name), source: `PATH (${name})` })
  return candidates
}

/** Executable, and `--version` answers like a Chromium or Chrome within 15 s. Returns the version line. */
export function probeChromium(path) {
  try {
    if (!statSync(path).isFile()) return undefined
    accessSync(path, constants.X_OK)
  } catch {
    return undefined
  }
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] })
  const version = (run.stdout ?? '').trim().split('\n')[0] ?? ''
  return run.status === 0 && /chrom/i.test(version) ? version : undefined
}

/**
 * The first usable Chromium: `{ path, source, version }`, `{ error }` when CHROMIUM_PATH names
 * something unusable (it was asked for, so nothing else is tried), or undefined when none is found.
 */
export function findChromium({ env = process.env, home = homedir(), platform = process.platform, root = '/', probe = probeChromium } = {}) {
  if (env.CHROMIUM_PATH) {
    const version = probe(env.CHROMIUM_PATH)
    if (version !== undefined) return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH', version }
    return { error: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not a Chromium that runs (not executable, or \`--version\` failed): point it at a Chromium or Chrome binary, or unset it` }
  }
  const seen = new Set()
  for (const candidate of chromiumCandidates({ env, home, platform, root })) {
    if (seen.has(candidate.path)) continue
    seen.add(candidate.path)
    const version = probe(candidate.path)
    if (version !== undefined) return { ...candidate, version }
  }
  return undefined
}

/**
 * What to do when no Chromium is found: install Debian's package (as root, or through `sudo -n`)
 * or tell the user the one thing to run. Pure: the facts come in as arguments.
 * @param {{ uid: number | undefined, hasAptGet: boolean, sudoWithoutPassword: boolean }} facts
 */
export function installPlan({ uid, hasAptGet, sudoWithoutPassword }) {
  const alternative = 'or set CHROMIUM_PATH to a Chromium or Chrome binary'
  if (!hasAptGet) {
    return { action: 'instruct', line: `npm test needs Chromium for the end-to-end tests and found none: run \`npx playwright install chromium\` (${alternative}), then npm test again` }
  }
  if (uid === 0) return { action: 'install', argv: [], shown: `apt-get update && ${INSTALL_COMMAND}` }
  if (sudoWithoutPassword) return { action: 'install', argv: ['sudo', '-n'], shown: `sudo -n apt-get update && sudo -n ${INSTALL_COMMAND}` }
  return { action: 'instruct', line: `npm test needs Chromium for the end-to-end tests and found none: run \`sudo ${INSTALL_COMMAND}\` (${alternative}), then npm test again` }
}

/**
 * For a full browser that was found: the one line that says how to get the lighter headless shell
 * (see the top), or undefined when the browser found is one already.
 * @param {{ path: string }} found
 */
export function headlessShellHint(found, env = process.env) {
  if (/headless/i.test(found.path)) return undefined
  const install = onPath(env, 'apt-get') ? `sudo ${INSTALL_COMMAND}` : 'npx playwright install chromium-headless-shell'
  return `(the e2e tests take about half the browser CPU on Chromium's headless shell: \`${install}\`)`
}

/** The facts installPlan needs, from this machine. */
export function installFacts(env = process.env) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  const sudoWithoutPassword = uid !== 0 && onPath(env, 'sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0
  return { uid, hasAptGet: onPath(env, 'apt-get'), sudoWithoutPassword }
}

function onPath(env, name) {
  return (env.PATH ?? '').split(delimiter).filter(Boolean).some((dir) => probeExecutable(join(dir, name)))
}

function probeExecutable(path) {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * For `npm test`: a usable Chromium, installing Debian's when allowed. Returns `{ path, source,
 * version }` or `{ error }` (one line saying what to run). `say` receives progress lines.
 */
export function ensureChromium({ env = process.env, say = (line) => console.log(line) } = {}) {
  const found = findChromium({ env })
  if (found !== undefined) return found
  const plan = installPlan(installFacts(env))
  if (plan.action === 'instruct') return { error: plan.line }
  say(`No Chromium found for the end-to-end tests; installing Debian's ${PACKAGE}: ${plan.shown}`)
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['apt-get', 'update'], INSTALL_COMMAND.split(' ')]) {
    const [command, ...rest] = [...plan.argv, ...args]
    const run = spawnSync(command, rest, { stdio: 'inherit', env: aptEnv })
    if (run.status !== 0) return { error: `installing ${PACKAGE} failed (\`${[command, ...rest].join(' ')}\` exited ${run.status ?? run.signal}): install it yourself (\`sudo ${INSTALL_COMMAND}\`) or set CHROMIUM_PATH, then npm test again` }
  }
  return findChromium({ env }) ?? { error: `${PACKAGE} was installed but no usable Chromium was found afterwards: set CHROMIUM_PATH to one, then npm test again` }
}
