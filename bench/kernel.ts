// The kernel's cost per dispatch: a waterfall through 10 pass-through listeners and an emit to 10
// listeners, each against a hand-written fixed-array middleware compose of the same 10 functions.
import { Kernel, type Next } from '../src-shared/kernel'
import { compareNs, line, type BenchLine } from './measure'

declare module '../src-shared/kernel/types' {
  interface Events {
    'bench/waterfall': (value: number, next: Next<number>) => number
    'bench/emit': (value: number) => void
  }
}

type Middleware = (value: number, next: () => number) => number

/** The baseline: the smallest correct compose of a fixed array of middleware. */
function compose(fns: readonly Middleware[], fallback: (value: number) => number): (value: number) => number {
  return (value) => {
    const dispatch = (i: number): number => (i === fns.length ? fallback(value) : fns[i](value, () => dispatch(i + 1)))
    return dispatch(0)
  }
}

export async function run(): Promise<BenchLine[]> {
  const kernel = new Kernel()
  let sink = 0
  const passThrough: Middleware = (_value, next) => next()
  const observer = (value: number) => {
    sink += value
  }
  for (let i = 0; i < 10; i++) {
    kernel.context.on('bench/waterfall', passThrough)
    kernel.context.on('bench/emit', observer)
  }
  const composed = compose(Array.from({ length: 10 }, () => passThrough), (v) => v + 1)
  const fns = Array.from({ length: 10 }, () => observer)

  const waterfall = compareNs(
    () => kernel.waterfall('bench/waterfall', 1, () => 2),
    () => composed(1)
  )
  const emit = compareNs(
    () => kernel.emit('bench/emit', 1),
    () => {
      for (let i = 0; i < fns.length; i++) fns[i](1)
    }
  )
  if (sink < 0) console.log(sink)
  return [
    line('kernel', 'waterfall_10_listeners', waterfall.value, 'ns/dispatch', waterfall.baseline),
    line('kernel', 'emit_10_listeners', emit.value, 'ns/dispatch', emit.baseline)
  ]
}
