// E2E: the same specs (e2e/*.spec.ts) drive the web-mode host in Chromium (project 'web') and
// the Electron app (project 'electron', only when ELECTRON_PATH points at a binary: none can be
// downloaded on the CI machines). Each test starts its own host: see e2e/fixtures.ts.
// The browser: CHROMIUM_PATH (`npm test` sets it to what scripts/chromium.mjs found or installed),
// else the same lookup (Debian's, Playwright's cache, Chrome, PATH). Run `npm run build` first.
import { availableParallelism } from 'node:os'
import { defineConfig } from '@playwright/test'
import type { TestOptions, WorkerOptions } from './e2e/fixtures'
import { findChromium } from './scripts/chromium.mjs'
import { scaledTimeout } from './scripts/time-factor.mjs'
import { EXPECT_TIMEOUT_MS, TEST_TIMEOUT_MS } from './e2e/support/timeouts'

function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  const found = findChromium()
  if (found === undefined || 'error' in found) return undefined // Playwright then says what is missing
  process.env.CHROMIUM_PATH = found.path // the workers load this config too: look once
  return found.path
}

export default defineConfig<TestOptions, WorkerOptions>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // One worker per core, at most four: each test starts its own host (port 0, its own temp
  // folders), so two tests never share anything but the machine; the tests wait on the host and
  // the browser far more than they compute.
  workers: Math.min(4, availableParallelism()),
  fullyParallel: false,
  // Written for an idle machine; scaled by how loaded or slow this one is (scripts/time-factor.mjs:
  // measured once, then read from SEAM_TEST_TIME_FACTOR by the workers and the host fixture), and
  // raised for each test by the load at its start (e2e/fixtures.ts, `loadFollowingTimeouts`).
  timeout: scaledTimeout(TEST_TIMEOUT_MS),
  expect: { timeout: scaledTimeout(EXPECT_TIMEOUT_MS) },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  projects: [
    {
      name: 'web',
      use: {
        target: 'web',
        launchOptions: {
          executablePath: chromiumPath(),
          args: ['--disable-gpu', '--disable-quic']
        }
      }
    },
    ...(process.env.ELECTRON_PATH ? [{ name: 'electron', use: { target: 'electron' as const } }] : [])
  ]
})
