// Types for test-report.mjs.
export interface TestDuration {
  runner: string
  name: string
  seconds: number
}
export interface PlaywrightTest {
  projectName: string
  file: string
  titles: string[]
  status: string
  results?: Array<{ duration?: number }>
}
export declare function vitestDurations(report: unknown, root: string): TestDuration[]
export declare function playwrightTests(report: unknown): PlaywrightTest[]
export declare function playwrightDurations(tests: PlaywrightTest[], testDir: string): TestDuration[]
export declare function slowestLines(durations: TestDuration[], count: number): string[]
