import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { scaledTimeout } from './scripts/time-factor.mjs'
import { modulePathForDev } from './scripts/vite-module-path.mjs'

// e2e/ holds Playwright specs; vitest must not pick them up.
const INCLUDE = ['src-shared/**/*.test.{ts,tsx}', 'src-main/**/*.test.{ts,tsx}', 'src-renderer/**/*.test.{ts,tsx}', 'plugins/**/*.test.{ts,tsx}', 'test-support/**/*.test.ts', 'scripts/**/*.test.ts', 'examples/**/*.test.ts', 'packaging/**/*.test.ts', 'packages/**/*.test.ts']
const ISOLATED = ['src-main/electron/**/*.test.ts', 'plugins/worktrees/land.test.ts', 'src-renderer/markdown/highlight-client.test.ts']
// The renderer's component tests, each in happy-dom.
const DOM = ['src-renderer/**/*.test.tsx']

export default defineConfig({
  plugins: [react(), modulePathForDev()],
  test: {
    environment: 'node',
    // SessionLog.appendOwn checks the host's own events against the schemas in every test.
    env: { SEAM_CHECK_OWN_EVENTS: '1' },
    // Written for an idle machine; scaled by how loaded or slow this one is (scripts/time-factor.mjs).
    // One test file more than there are cores (Vitest's default leaves one core idle): most files
    // spend much of their time waiting on real processes (the built CLI, hooks, git, MCP servers).
    maxWorkers: availableParallelism() + 1,
    testTimeout: scaledTimeout(20_000),
    hookTimeout: scaledTimeout(20_000),
    // Each file re-reads the load when it starts and scales those two further if it rose.
    setupFiles: ['test-support/vitest-setup.ts'],
    // Once per run: the folder where the files that scaffold a bundle share one packed SDK.
    globalSetup: ['test-support/vitest-global-setup.ts'],
    projects: [
      {
        // A worker keeps the modules it loaded from one test file to the next instead of importing
        // them again for each of the ~320 files. These files hold their state in their own scopes
        // and temp folders, so none sees another's.
        extends: true,
        test: { name: 'shared', include: INCLUDE, exclude: [...configDefaults.exclude, ...ISOLATED, ...DOM], isolate: false }
      },
      // The same in happy-dom, as a project of its own: Vitest hands a worker its next file only when
      // that file's project and environment are the worker's, and runs each project's files together.
      // Mixed into 'shared' (ordered by duration), they made it stop and start a worker at almost
      // every switch: 76 workers in one run, 58 of them for 3 files or fewer.
      { extends: true, test: { name: 'dom', include: DOM, environment: 'happy-dom', isolate: false } },
      // A fresh module graph per file for those that replace modules (vi.mock) or drive the Electron
      // fakes, which, like Electron itself, are one app per process.
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } }
    ]
  }
})
