// What `npm test` (test-all.mjs) reads from the runners' JSON reports besides the counts: every
// test's duration, for the list of the slowest. Plain JavaScript, as test-all.mjs; types in
// test-report.d.mts.
import { join, relative } from 'node:path'

/** Each vitest test (the JSON reporter's testResults[].assertionResults[]) as `file > full name` and seconds. */
export function vitestDurations(report, root) {
  const out = []
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (typeof test.duration === 'number') out.push({ runner: 'vitest', name: `${relative(root, file.name)} > ${test.fullName}`, seconds: test.duration / 1000 })
    }
  }
  return out
}

/** Every test of a Playwright JSON report, with its spec's file and the titles above it (describe blocks, then the spec's). */
export function playwrightTests(report) {
  const out = []
  const walk = (suite, titles) => {
    // The top suite of a file is titled with the file name: not a title of its own.
    const here = suite.title === suite.file ? titles : [...titles, suite.title]
    for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) out.push({ ...test, file: spec.file, titles: [...here, spec.title] })
    for (const child of suite.suites ?? []) walk(child, here)
  }
  for (const suite of report.suites ?? []) walk(suite, [])
  return out
}

/** Each Playwright test as `testDir/file > titles` and seconds, summed over its attempts (a retried test took all of them). */
export function playwrightDurations(tests, testDir) {
  return tests.map((test) => ({
    runner: `e2e ${test.projectName}`,
    name: `${join(testDir, test.file)} > ${test.titles.join(' > ')}`,
    seconds: (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0) / 1000
  }))
}

/** The `count` slowest, slowest first, one line each: seconds, runner, name. */
export function slowestLines(durations, count) {
  return [...durations]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map((d) => `${d.seconds.toFixed(1).padStart(7)} s  ${d.runner.padEnd(8)}  ${d.name}`)
}
