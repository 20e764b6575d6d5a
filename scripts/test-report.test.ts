// The slowest-tests list of `npm test` and the timeout factor, on report objects shaped as the
// runners write them (copied from a real vitest --reporter=json and Playwright json run).
import { expect, it } from 'vitest'
import { failureLines, playwrightDurations, playwrightTests, slowestLines, vitestDurations } from './test-report.mjs'
import { currentTimeFactor, factorOf, loadFactor, measureWorkload, REFERENCE_MS, timeFactor } from './time-factor.mjs'

const vitestReport = {
  numPassedTests: 2,
  testResults: [
    {
      name: '/repo/src-main/a.test.ts',
      status: 'passed',
      assertionResults: [
        { ancestorTitles: ['group'], fullName: 'group slow one', title: 'slow one', status: 'passed', duration: 12_500 },
        { ancestorTitles: [], fullName: 'quick one', title: 'quick one', status: 'passed', duration: 40 },
        { ancestorTitles: [], fullName: 'skipped one', title: 'skipped one', status: 'skipped' }
      ]
    }
  ]
}

const playwrightReport = {
  suites: [
    {
      title: 'a11y.spec.ts',
      file: 'a11y.spec.ts',
      specs: [],
      suites: [
        {
          title: 'dark scheme, checkpoints',
          file: 'a11y.spec.ts',
          specs: [{ title: 'the changes card', file: 'a11y.spec.ts', tests: [{ projectName: 'web', status: 'flaky', results: [{ duration: 30_000 }, { duration: 9_000 }] }] }]
        }
      ]
    },
    { title: 'slash.spec.ts', file: 'slash.spec.ts', specs: [{ title: '/help lists the commands', file: 'slash.spec.ts', tests: [{ projectName: 'web', status: 'expected', results: [{ duration: 9767 }] }] }] }
  ]
}

it('lists the slowest tests of both runners, slowest first, a retried test with all its attempts', () => {
  const tests = playwrightTests(playwrightReport)
  expect(tests.map((t) => t.titles)).toEqual([['dark scheme, checkpoints', 'the changes card'], ['/help lists the commands']])
  const durations = [...vitestDurations(vitestReport, '/repo'), ...playwrightDurations(tests, 'e2e')]
  expect(durations).toHaveLength(4)
  expect(slowestLines(durations, 3)).toEqual([
    '   39.0 s  e2e web   e2e/a11y.spec.ts > dark scheme, checkpoints > the changes card',
    '   12.5 s  vitest    src-main/a.test.ts > group slow one',
    '    9.8 s  e2e web   e2e/slash.spec.ts > /help lists the commands'
  ])
})

it('names every failed test of both runners with the first lines of its error, and a file that failed to load', () => {
  const failedVitest = {
    testResults: [
      {
        name: '/repo/src-main/b.test.ts',
        status: 'failed',
        assertionResults: [
          { fullName: 'group holds', status: 'failed', failureMessages: ['\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n\n    at b.test.ts:3:1\n    at run\n    at more\n    at cut'] },
          { fullName: 'group passes', status: 'passed' }
        ]
      },
      { name: '/repo/src-main/c.test.ts', status: 'failed', message: 'Failed to load url ./missing.js', assertionResults: [] }
    ]
  }
  const failedPlaywright = playwrightTests({
    suites: [{ title: 'x.spec.ts', file: 'x.spec.ts', specs: [{ title: 'shows it', file: 'x.spec.ts', tests: [{ projectName: 'web', status: 'unexpected', results: [{ error: { message: 'Timed out 5000ms waiting for expect(locator).toBeVisible()' } }] }] }] }]
  })
  expect([...failureLines(failedVitest, [], '/repo', 'e2e'), ...failureLines(undefined, failedPlaywright, '/repo', 'e2e')]).toEqual([
    'vitest    src-main/b.test.ts > group holds',
    '            AssertionError: expected 1 to be 2',
    '                at b.test.ts:3:1',
    '                at run',
    '                at more',
    'vitest    src-main/c.test.ts (the file failed)',
    '            Failed to load url ./missing.js',
    'e2e web   e2e/x.spec.ts > shows it',
    '            Timed out 5000ms waiting for expect(locator).toBeVisible()'
  ])
  expect(failureLines(vitestReport, playwrightTests(playwrightReport), '/repo', 'e2e')).toEqual([])
})

it('scales timeouts by the workload\'s time against the reference, never below 1 and at most 10', () => {
  expect(factorOf(REFERENCE_MS / 2)).toBe(1)
  expect(factorOf(REFERENCE_MS * 3.04)).toBe(3)
  expect(factorOf(REFERENCE_MS * 50)).toBe(10)
  const measured = measureWorkload()
  expect(measured.wallMs).toBeGreaterThan(0)
  expect(measured.cpuMs).toBeGreaterThan(0)
})

it('takes SEAM_TEST_TIME_FACTOR when given, refuses a bad one naming it, and stores a measured one for children', () => {
  expect(timeFactor({ SEAM_TEST_TIME_FACTOR: '2.5' })).toEqual({ factor: 2.5, measured: undefined })
  expect(() => timeFactor({ SEAM_TEST_TIME_FACTOR: '0.5' })).toThrow('SEAM_TEST_TIME_FACTOR must be a number of at least 1 (got "0.5")')
  expect(() => timeFactor({ SEAM_TEST_TIME_FACTOR: 'fast' })).toThrow('SEAM_TEST_TIME_FACTOR')
  const env: Record<string, string | undefined> = {}
  const { factor, measured } = timeFactor(env)
  expect(measured).toBeDefined()
  expect(factor).toBeGreaterThanOrEqual(1)
  expect(env.SEAM_TEST_TIME_FACTOR).toBe(String(factor))
})

it('scales with the load average per core beyond the two tasks per core the suite makes itself, within [1, 10], and never below the run factor', () => {
  expect(loadFactor(1.5, 2)).toBe(1)
  expect(loadFactor(8, 2)).toBe(2)
  expect(loadFactor(24, 2)).toBe(6)
  expect(loadFactor(500, 2)).toBe(10)
  expect(currentTimeFactor({ SEAM_TEST_TIME_FACTOR: '3' }, 8, 2)).toBe(3)
  expect(currentTimeFactor({ SEAM_TEST_TIME_FACTOR: '1.5' }, 16, 2)).toBe(4)
})
