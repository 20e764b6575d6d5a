#!/usr/bin/env node
// `npm test`: build, typecheck, unit tests (vitest) and e2e (Playwright, web project, plus the
// electron project when ELECTRON_PATH is set). The typecheck and the e2e tests run beside the unit
// tests after the build, each using the time the others leave the cores idle; vitest's output
// streams and the other two follow it unmixed (SEAM_TEST_OVERLAP=0 runs them one after another).
// First it makes sure there is a Chromium for the e2e tests (chromium.mjs: found, or installed from Debian where this user
// may; otherwise it stops at once with one line saying what to run). Every suite runs even when
// another failed. Ends with a summary (each step's wall and CPU seconds, child-cpu.mjs, which
// leave out Chromium's processes, reaped outside the step; then how busy the machine's cores were
// over the run, everything counted: well below 100% means the run left a core idle) and, as the very last
// line, `N passed, N failed` summed over vitest and Playwright (a failed build or typecheck counts
// as one failure), because CI reads neither runner's own output. Exits non-zero on any failure.
// Before anything runs it measures how loaded or slow this machine is (time-factor.mjs) and
// passes the factor on in SEAM_TEST_TIME_FACTOR: the vitest and Playwright configs scale their
// timeouts by it. Above the last line it lists the 10 slowest tests of both runners (from their
// JSON reports), so a test drifting towards its timeout shows before it fails, and below them every
// failed test with the first lines of its error, since a CI log may keep only its end.
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureChromium, headlessShellHint } from './chromium.mjs'
import { readMachineCpuSeconds } from './child-cpu.mjs'
import { REFERENCE_MS, timeFactor, TIME_FACTOR_ENV } from './time-factor.mjs'
import { failureLines, playwrightDurations, playwrightTests, slowestLines, vitestDurations } from './test-report.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bin = {
  electronVite: join(root, 'node_modules/electron-vite/bin/electron-vite.js'),
  // TypeScript 7's native compiler checks the same tsconfig in a fraction of 5.9's CPU time; 5.9
  // stays installed for what needs the compiler's JavaScript API (the SDK's API surface, import walls).
  tsc: join(root, 'node_modules/typescript-native/bin/tsc'),
  vitest: join(root, 'node_modules/vitest/vitest.mjs'),
  playwright: join(root, 'node_modules/@playwright/test/cli.js')
}
const childCpu = join(root, 'scripts/child-cpu.mjs')
const work = mkdtempSync(join(tmpdir(), 'seam-test-all-'))
const results = []
/** Every test's duration, from both reports (test-report.mjs). */
const durations = []
const SLOWEST = 10
/** What failed and why, from both reports (test-report.mjs): printed just above the last line. */
const failures = []

/**
 * Runs `node args` under child-cpu.mjs (its CPU seconds, with every process it started) and
 * resolves with its exit code, wall and CPU seconds. Its output goes to the terminal, or, with
 * `capture`, to a file printed by `printCaptured` once the step that streams live has finished,
 * so that two steps running at once never interleave their lines.
 */
function run(label, args, env = {}, { capture = false } = {}) {
  const header = `\n=== ${label}: node ${args.map((a) => a.replace(root + '/', '')).join(' ')}\n`
  if (capture) console.log(`\n=== ${label}: started beside the unit tests (its output follows theirs)`)
  else console.log(header)
  const started = Date.now()
  const slug = label.replace(/[^a-z0-9]+/gi, '-')
  const cpuFile = join(work, `${slug}.cpu.json`)
  const outFile = join(work, `${slug}.out`)
  const outFd = capture ? openSync(outFile, 'w') : undefined
  return new Promise((resolveRun) => {
    const finish = (code, signal) => {
      if (outFd !== undefined) closeSync(outFd)
      const cpuSeconds = readJson(cpuFile)?.cpuSeconds
      resolveRun({ code, signal, seconds: (Date.now() - started) / 1000, cpuSeconds, ...(capture ? { header, outFile } : {}) })
    }
    const child = spawn(process.execPath, [childCpu, cpuFile, ...args], {
      cwd: root,
      stdio: outFd === undefined ? 'inherit' : ['ignore', outFd, outFd],
      env: { ...process.env, ...env }
    })
    child.on('error', (error) => {
      console.error(`${label}: could not start: ${error.message}`)
      finish(1)
    })
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0), signal))
  })
}

/** A captured step's header and output, now that the terminal is free. */
function printCaptured(result) {
  if (!result.outFile) return
  console.log(result.header)
  process.stdout.write(readFileSync(result.outFile))
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

/** A step without test counts (build, typecheck): nothing on success, one failure otherwise. */
async function step(name, args, options) {
  const ran = await run(name, args, {}, options)
  return { ran, results: [{ name, passed: 0, failed: ran.code === 0 ? 0 : 1, detail: ran.code === 0 ? 'ok' : `FAILED (exit ${ran.code})`, seconds: ran.seconds, cpuSeconds: ran.cpuSeconds }] }
}

async function vitest() {
  const out = join(work, 'vitest.json')
  const ran = await run('unit (vitest)', [bin.vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`])
  const { code, seconds, cpuSeconds } = ran
  const report = readJson(out)
  if (!report) return { ran, results: [{ name: 'unit (vitest)', passed: 0, failed: 1, detail: `no report (exit ${code})`, seconds, cpuSeconds }] }
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
  durations.push(...vitestDurations(report, root))
  failures.push(...failureLines(report, [], root, 'e2e'))
  return { ran, results: [{ name: 'unit (vitest)', passed, failed, detail: `${passed} passed, ${failed} failed${extra ? ` (${extra})` : ''}`, seconds, cpuSeconds }] }
}

async function playwright(options) {
  const out = join(work, 'playwright.json')
  const projects = ['web', ...(process.env.ELECTRON_PATH ? ['electron'] : [])]
  const args = [bin.playwright, 'test', ...projects.map((p) => `--project=${p}`), '--reporter=list,json']
  const ran = await run(`e2e (playwright: ${projects.join(', ')})`, args, { PLAYWRIGHT_JSON_OUTPUT_NAME: out }, options)
  const { code, seconds, cpuSeconds } = ran
  const report = readJson(out)
  if (!report) return { ran, results: [{ name: 'e2e (playwright)', passed: 0, failed: 1, detail: `no report (exit ${code})`, seconds, cpuSeconds }] }
  const tests = playwrightTests(report)
  const results = []
  for (const project of projects) {
    const mine = tests.filter((t) => t.projectName === project)
    const passed = mine.filter((t) => t.status === 'expected' || t.status === 'flaky').length
    const failed = mine.filter((t) => t.status === 'unexpected').length
    const skipped = mine.filter((t) => t.status === 'skipped').length
    // One process runs every project: its time and CPU belong to the first row.
    results.push({ name: `e2e (${project})`, passed, failed, detail: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`, seconds, cpuSeconds: project === projects[0] ? cpuSeconds : undefined })
  }
  durations.push(...playwrightDurations(tests, 'e2e'))
  failures.push(...failureLines(undefined, tests, root, 'e2e'))
  const counted = results.reduce((sum, r) => sum + r.failed, 0)
  const globalErrors = (report.errors ?? []).length
  if (code !== 0 && counted === 0) {
    results.push({ name: 'e2e (runner)', passed: 0, failed: 1, detail: `exit ${code}${globalErrors ? `, ${globalErrors} error(s) outside tests` : ''}`, seconds: 0 })
  }
  return { ran, results }
}

const browser = ensureChromium()
if ('error' in browser) {
  rmSync(work, { recursive: true, force: true })
  console.error(browser.error)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
console.log(`e2e browser: ${browser.path} (${browser.version}; ${browser.source})`)
const hint = headlessShellHint(browser)
if (hint) console.log(hint)
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

/** The typecheck and the e2e tests run beside the unit tests (see the top), unless SEAM_TEST_OVERLAP=0. */
const overlap = process.env.SEAM_TEST_OVERLAP !== '0'
const suiteStarted = Date.now()
const machineAtStart = readMachineCpuSeconds()
// One folder for the run where the vitest files and the e2e specs that scaffold a bundle share
// the SDK packed once (test-support/packed-sdk.ts).
process.env.SEAM_TEST_SDK_DIR = join(work, 'sdk')
mkdirSync(process.env.SEAM_TEST_SDK_DIR)
try {
  results.push(...(await step('build', [bin.electronVite, 'build'])).results)
  if (!existsSync(join(root, 'out/main/web.js'))) console.log('\n(out/main/web.js is missing: the e2e tests will fail to start the host)')
  if (overlap) {
    // The typecheck and the e2e tests beside the unit tests: vitest's files spend much of their
    // time waiting on the processes they start, and Playwright's workers on the browser and
    // the host. Their output is printed after vitest's.
    const typecheck = step('typecheck', [bin.tsc, '--noEmit', '-p', 'tsconfig.json'], { capture: true })
    const e2e = playwright({ capture: true })
    const unit = await vitest()
    for (const pending of [typecheck, unit, e2e]) {
      const done = await pending
      printCaptured(done.ran)
      results.push(...done.results)
    }
  } else {
    results.push(...(await step('typecheck', [bin.tsc, '--noEmit', '-p', 'tsconfig.json'])).results)
    results.push(...(await vitest()).results)
    results.push(...(await playwright()).results)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
const suiteSeconds = (Date.now() - suiteStarted) / 1000
const machineAtEnd = readMachineCpuSeconds()

const passed = results.reduce((sum, r) => sum + r.passed, 0)
const failed = results.reduce((sum, r) => sum + r.failed, 0)
const width = Math.max(...results.map((r) => r.name.length))
console.log('\n=== summary')
const cpu = (r) => (r.cpuSeconds === undefined ? '' : `, ${r.cpuSeconds.toFixed(0)} s CPU`)
for (const r of results) console.log(`${r.failed ? '✗' : '✓'} ${r.name.padEnd(width)}  ${r.detail}  [${r.seconds.toFixed(1)} s${cpu(r)}]`)
const cpuTotal = results.reduce((sum, r) => sum + (r.cpuSeconds ?? 0), 0)
console.log(`all steps: ${suiteSeconds.toFixed(0)} s${cpuTotal > 0 ? `, ${cpuTotal.toFixed(0)} s CPU on ${availableParallelism()} cores` : ''}`)
if (machineAtStart && machineAtEnd) {
  const busy = machineAtEnd.busy - machineAtStart.busy
  const all = machineAtEnd.all - machineAtStart.all
  // The steps' figures leave out what no step waited for (Chromium's processes); this counts everything.
  console.log(`machine: busy ${busy.toFixed(0)} s of the ${all.toFixed(0)} s of CPU its cores had meanwhile (${((busy / all) * 100).toFixed(0)}%), every process counted: Chromium's, the kernel's, and any other work on it`)
}
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
