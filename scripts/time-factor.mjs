// How much slower than the reference machine this machine runs right now, for test timeouts: a
// small fixed CPU workload (integer arithmetic, object churn, JSON and sha256, single-threaded) is
// timed a few times and its median wall time divided by what it takes on one idle core of the
// reference machine. A loaded or slow machine gets a factor above 1, and vitest.config.mts and
// playwright.config.ts multiply their test, hook and expect timeouts by it (floor 1, so an idle
// machine keeps the written timeouts; cap 10, so a hung test still ends). `npm test` measures it
// once and passes it on in SEAM_TEST_TIME_FACTOR; a config loaded without it measures for itself
// and sets it, so Playwright's workers and every child agree. Set SEAM_TEST_TIME_FACTOR to choose.
// Plain JavaScript so that Node runs it before anything is built; types in time-factor.d.mts.
import { createHash } from 'node:crypto'
import { availableParallelism, loadavg } from 'node:os'

export const TIME_FACTOR_ENV = 'SEAM_TEST_TIME_FACTOR'
/** The workload's median wall time on one idle core of the reference machine (its CPU time there, measured). */
export const REFERENCE_MS = 20
const SAMPLES = 9
const MAX_FACTOR = 10

function workload() {
  let h = 0
  for (let i = 0; i < 4_000_000; i++) h = (Math.imul(h, 31) + i) | 0
  const items = []
  for (let i = 0; i < 20_000; i++) items.push({ i, name: `item-${i}`, tags: [i % 7, i % 11] })
  return h ^ createHash('sha256').update(JSON.stringify(items)).digest()[0]
}

/** Times the workload (after one warm-up run): median wall and CPU milliseconds of `SAMPLES` runs. */
export function measureWorkload() {
  workload()
  const walls = []
  const cpus = []
  for (let k = 0; k < SAMPLES; k++) {
    const cpuBefore = process.cpuUsage()
    const start = performance.now()
    workload()
    walls.push(performance.now() - start)
    const cpu = process.cpuUsage(cpuBefore)
    cpus.push((cpu.user + cpu.system) / 1000)
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  return { wallMs: median(walls), cpuMs: median(cpus) }
}

/** The factor for a measured median wall time: wall / reference, rounded to a tenth, within [1, 10]. */
export function factorOf(wallMs) {
  return Math.min(MAX_FACTOR, Math.max(1, Math.round((wallMs / REFERENCE_MS) * 10) / 10))
}

/**
 * SEAM_TEST_TIME_FACTOR when set (a number of at least 1, else an error naming it), else measured
 * now and stored there for child processes. `measured` says which, with the workload's times.
 */
export function timeFactor(env = process.env) {
  const set = env[TIME_FACTOR_ENV]
  if (set !== undefined && set !== '') {
    const factor = Number(set)
    if (!Number.isFinite(factor) || factor < 1) throw new Error(`${TIME_FACTOR_ENV} must be a number of at least 1 (got "${set}")`)
    return { factor, measured: undefined }
  }
  const measured = measureWorkload()
  const factor = factorOf(measured.wallMs)
  env[TIME_FACTOR_ENV] = String(factor)
  return { factor, measured }
}

/** `ms` scaled by the machine's factor (measuring it on first use). */
export function scaledTimeout(ms, env = process.env) {
  return Math.round(ms * timeFactor(env).factor)
}

/**
 * The factor the machine's load asks for now: the one-minute load average per core, over the two
 * runnable tasks per core the suite itself makes on a calm machine (a worker per core, each
 * waiting on the real processes it starts), within [1, 10]. The workload above is timed once, when
 * `npm test` starts; other work that starts later (or the suite's own heaviest files) shows here.
 */
export function loadFactor(load = loadavg()[0], cores = availableParallelism()) {
  return Math.min(MAX_FACTOR, Math.max(1, Math.round((load / (2 * cores)) * 10) / 10))
}

/** The larger of the run's factor and the load's now: what a test file starting now should wait. */
export function currentTimeFactor(env = process.env, load = loadavg()[0], cores = availableParallelism()) {
  return Math.max(timeFactor(env).factor, loadFactor(load, cores))
}
