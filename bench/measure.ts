// Shared by the benchmarks: one JSON line per measure, against a baseline from the same run.
export interface BenchLine {
  bench: string
  metric: string
  value: number
  unit: string
  baseline: number
  ratio: number
  /** A limit the value should stay within (e.g. a frame budget), when the measure has one. */
  bound?: number
  withinBound?: boolean
}

export function line(bench: string, metric: string, value: number, unit: string, baseline: number, limit?: { bound: number }): BenchLine {
  const round = (n: number) => Math.round(n * 1000) / 1000
  const result: BenchLine = { bench, metric, value: round(value), unit, baseline: round(baseline), ratio: baseline === 0 ? 0 : round(value / baseline) }
  return limit === undefined ? result : { ...result, bound: limit.bound, withinBound: value <= limit.bound }
}

/** Nanoseconds per call of a synchronous `fn`, best of `rounds` after a warm-up. */
export function nsPerCall(fn: () => unknown, iterations = 200_000, rounds = 7): number {
  for (let i = 0; i < iterations; i++) fn()
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < iterations; i++) fn()
    const elapsed = Number(process.hrtime.bigint() - start) / iterations
    if (elapsed < best) best = elapsed
  }
  return best
}

/** Microseconds per call of an async `fn`, best of `rounds` after a warm-up. */
export async function usPerAsyncCall(fn: () => Promise<unknown>, iterations = 10_000, rounds = 5): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 2000); i++) await fn()
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < iterations; i++) await fn()
    const elapsed = Number(process.hrtime.bigint() - start) / iterations / 1000
    if (elapsed < best) best = elapsed
  }
  return best
}

/**
 * Nanoseconds per call of `subject` and of `baseline`, measured in alternating rounds so that
 * load from the rest of the machine hits both alike; the best round of each counts.
 */
export function compareNs(subject: () => unknown, baseline: () => unknown, iterations = 200_000, rounds = 9): { value: number; baseline: number } {
  const time = (fn: () => unknown) => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < iterations; i++) fn()
    return Number(process.hrtime.bigint() - start) / iterations
  }
  time(subject)
  time(baseline)
  let best = Infinity
  let bestBaseline = Infinity
  for (let r = 0; r < rounds; r++) {
    bestBaseline = Math.min(bestBaseline, time(baseline))
    best = Math.min(best, time(subject))
  }
  return { value: best, baseline: bestBaseline }
}
