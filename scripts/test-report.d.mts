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
  results?: Array<{ duration?: number; error?: { message?: string }; errors?: Array<{ message?: string }> }>
}
export declare function vitestDurations(report: unknown, root: string): TestDuration[]
export declare function playwrightTests(report: unknown): PlaywrightTest[]
export declare function playwrightDurations(tests: PlaywrightTest[], testDir: string): TestDuration[]
export declare function slowestLines(durations: TestDuration[], count: number): string[]
export declare function failureLines(vitestReport: unknown, playwrightTests: PlaywrightTest[] | undefined, root: string, testDir: string): string[]
