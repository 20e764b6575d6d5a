// For the loop's test files: one fixture per test, cleaned up after it. Kept apart from
// loop-fixture.ts, which the benchmark also imports (outside vitest).
import { afterEach } from 'vitest'
import { createLoopFixture, type LoopFixture, type LoopFixtureOptions } from './loop-fixture'

export function useLoopFixture(): { setup(options: LoopFixtureOptions): Promise<LoopFixture>; current(): LoopFixture | undefined } {
  let fixture: LoopFixture | undefined
  afterEach(async () => {
    await fixture?.cleanup()
    fixture = undefined
  })
  return {
    setup: async (options) => (fixture = await createLoopFixture(options)),
    current: () => fixture
  }
}
