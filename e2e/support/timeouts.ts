// The e2e timeouts as written for an idle machine; playwright.config.ts scales them by the run's
// factor and e2e/fixtures.ts again for each test by the load at its start.
export const TEST_TIMEOUT_MS = 30_000
export const EXPECT_TIMEOUT_MS = 10_000
export const HOST_START_TIMEOUT_MS = 20_000
