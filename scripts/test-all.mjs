#!/usr/bin/env node
// `npm test`: build, typecheck, unit tests (vitest) and e2e (Playwright, web project, plus the
// electron project when ELECTRON_PATH is set). First it makes sure there is a Chromium for the
// e2e tests (chromium.mjs: found, or installed from Debian where this user may; otherwise it stops
// at once with one line saying what to run). Every suite runs even when an earlier one failed;
// all output streams to the terminal. Ends with a summary and, as the very last line,
// `N passed, N failed` summed over vitest and Playwright (a failed build or typecheck counts as
// one failure), because CI reads neither runner's own output. Exits non-zero on any failure.
// Before anything runs it measures how loaded or slow this machine is (time-factor.mjs) and
// passes the factor on in SEAM_TEST_TIME_FACTOR: the vitest and Playwright configs scale their
// timeouts by it. Above the last line it lists the 10 slowest tests of both runners (from their
// JSON reports), so a test drifting towards its timeout shows before it fails, and below them every
// failed test with the first lines of its error, since a CI log may keep only its end.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureChromium } from './chromium.mjs'
import { REFERENCE_MS, timeFactor, TIME_FACTOR_ENV } from './time-factor.mjs'
import { failureLines, playwrightDurations, playwrightTests, slowestLines, vitestDurations } from './test-report.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bin = {
  electronVite: join(root, 'node_modules/electron-vite/bin/electron-vite.js'),
  tsc: join(root, 'node_modules/typescript/bin/tsc'),
  vitest: join(root, 'node_modules/vitest/vitest.mjs'),
  playwright: join(root, 'node_modules/@playwright/test/cli.js')
}
const work = mkdtempSync(join(tmpdir(), 'seam-test-all-'))
const results = []
/** Every test's duration, from both reports (test-report.mjs). */
const durations = []
const SLOWEST = 10
/** What failed and why, from both reports (test-report.mjs): printed just above the last line. */
const failures = []

function run(label, args, env = {}) {
  console.log(`\n=== ${label}: node ${args.map((a) => a.replace(root + '/', '')).join(' ')}\n`)
  const started = Date.now()
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
    child.on('error', (error) => {
      console.error(`${label}: could not start: ${error.message}`)
      resolveRun({ code: 1, seconds: (Date.now() - started) / 1000 })
    })
    child.on('exit', (code, signal) => resolveRun({ code: code ?? (signal ? 1 : 0), signal, seconds: (Date.now() - started) / 1000 }))
  })
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

/** A step without test counts (build, typecheck): nothing on success, one failure otherwise. */
async function step(name, args) {
  const { code, seconds } = await run(name, args)
  results.push({ name, passed: 0, failed: code === 0 ? 0 : 1, detail: code === 0 ? 'ok' : `FAILED (exit ${code})`, seconds })
}

async function vitest() {
  const out = join(work, 'vitest.json')
  const { code, seconds } = await run('unit (vitest)', [bin.vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`])
  const report = readJson(out)
  if (!report) {
    results.push({ name: 'unit (vitest)', passed: 0, failed: 1, detail: `no report (exit ${code})`, seconds })
    return
  }
  // A file that fails to load has no tests but is still a failure.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')
  ).length
  let passed = report.numPassedTests ?? 0
  let failed = (report.numFailedTests ?? 0) + brokenFiles
  if (code !== 0 && failed === 0) failed = 1 // e.g. unhandled errors after the tests
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  const extra = [brokenFiles ? `${brokenFiles} file(s) failed to load` : '', skipped ? `${skipped} skipped` : '', code !== 0 && failed === 1 && !report.numFailedTests && !brokenFiles ? `exit ${code}` : '']
    .filter(Boolean)
    .join(', ')
  results.push({ name: 'unit (vitest)', passed, failed, detail: `${passed} passed, ${failed} failed${extra ? ` (${extra})` : ''}`, seconds })
  durations.push(...vitestDurations(report, root))
  failures.push(...failureLines(report, [], root, 'e2e'))
}

async function playwright() {
  const out = join(work, 'playwright.json')
  const projects = ['web', ...(process.env.ELECTRON_PATH ? ['electron'] : [])]
  const args = [bin.playwright, 'test', ...projects.map((p) => `--project=${p}`), '--reporter=list,json']
  const { code, seconds } = await run(`e2e (playwright: ${projects.join(', ')})`, args, { PLAYWRIGHT_JSON_OUTPUT_NAME: out })
  const report = readJson(out)
  if (!report) {
    results.push({ name: 'e2e (playwright)', passed: 0, failed: 1, detail: `no report (exit ${code})`, seconds })
    return
  }
  const tests = playwrightTests(report)
  for (const project of projects) {
    const mine = tests.filter((t) => t.projectName === project)
    const passed = mine.filter((t) => t.status === 'expected' || t.status === 'flaky').length
    const failed = mine.filter((t) => t.status === 'unexpected').length
    const skipped = mine.filter((t) => t.status === 'skipped').length
    results.push({ name: `e2e (${project})`, passed, failed, detail: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`, seconds })
  }
  durations.push(...playwrightDurations(tests, 'e2e'))
  failures.push(...failureLines(undefined, tests, root, 'e2e'))
  const counted = results.filter((r) => r.name.startsWith('e2e (')).reduce((sum, r) => sum + r.failed, 0)
  const globalErrors = (report.errors ?? []).length
  if (code !== 0 && counted === 0) {
    results.push({ name: 'e2e (runner)', passed: 0, failed: 1, detail: `exit ${code}${globalErrors ? `, ${globalErrors} error(s) outside tests` : ''}`, seconds: 0 })
  }
}

const browser = ensureChromium()
if ('error' in browser) {
  rmSync(work, { recursive: true, force: true })
  console.error(browser.error)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
console.log(`e2e browser: ${browser.path} (${browser.version}; ${browser.source})`)
process.env.CHROMIUM_PATH = browser.path // for Playwright (playwright.config.ts) and every child
// Sets SEAM_TEST_TIME_FACTOR (unless given) for the configs of both runners and their workers.
let time
try {
  time = timeFactor()
} catch (error) {
  rmSync(work, { recursive: true, force: true })
  console.error(error.message)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
console.log(
  time.measured
    ? `test timeouts x${time.factor}: a fixed CPU workload took ${time.measured.wallMs.toFixed(0)} ms here (${time.measured.cpuMs.toFixed(0)} ms of CPU), ${REFERENCE_MS} ms on an idle reference core`
    : `test timeouts x${time.factor} (${TIME_FACTOR_ENV} was set)`
)

try {
  await step('build', [bin.electronVite, 'build'])
  await step('typecheck', [bin.tsc, '--noEmit', '-p', 'tsconfig.json'])
  await vitest()
  if (!existsSync(join(root, 'out/main/web.js'))) console.log('\n(out/main/web.js is missing: the e2e tests will fail to start the host)')
  await playwright()
} finally {
  rmSync(work, { recursive: true, force: true })
}

const passed = results.reduce((sum, r) => sum + r.passed, 0)
const failed = results.reduce((sum, r) => sum + r.failed, 0)
const width = Math.max(...results.map((r) => r.name.length))
console.log('\n=== summary')
for (const r of results) console.log(`${r.failed ? '✗' : '✓'} ${r.name.padEnd(width)}  ${r.detail}  [${r.seconds.toFixed(1)} s]`)
if (durations.length > 0) {
  console.log(`\n=== slowest ${Math.min(SLOWEST, durations.length)} tests (timeouts x${time.factor})`)
  for (const text of slowestLines(durations, SLOWEST)) console.log(text)
}
if (failures.length > 0) {
  console.log('\n=== failed')
  for (const text of failures) console.log(text)
}
console.log(`${passed} passed, ${failed} failed`)
process.exitCode = failed > 0 ? 1 : 0
