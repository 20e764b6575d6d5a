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

/** The first `lines` non-empty lines of a failure message, without ANSI colours, each cut to 200 characters. */
function firstLines(message, lines) {
  return String(message ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, lines)
    .map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line))
}

/**
 * Every failed test of both runners as `runner  file > name` and the first lines of its error, so
 * the end of `npm test`'s output (all a CI log may keep) says what failed and why. A vitest file
 * that failed to load is listed with its own message.
 */
export function failureLines(vitestReport, playwrightList, root, testDir) {
  const out = []
  for (const file of vitestReport?.testResults ?? []) {
    const name = relative(root, file.name)
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed')
    if (file.status === 'failed' && failedTests.length === 0) out.push(`vitest    ${name} (the file failed)`, ...firstLines(file.message, 4).map((l) => `            ${l}`))
    for (const test of failedTests) out.push(`vitest    ${name} > ${test.fullName}`, ...firstLines((test.failureMessages ?? []).join('\n'), 4).map((l) => `            ${l}`))
  }
  for (const test of playwrightList ?? []) {
    if (test.status !== 'unexpected') continue
    const last = (test.results ?? []).at(-1)
    const message = last?.error?.message ?? (last?.errors ?? []).map((e) => e.message).join('\n')
    out.push(`e2e ${test.projectName}   ${join(testDir, test.file)} > ${test.titles.join(' > ')}`, ...firstLines(message, 4).map((l) => `            ${l}`))
  }
  return out
}
