// S19: runs the calls of one step. Calls of tools that allow overlap run in parallel up to
// `limit`; any other call runs alone (in-flight calls finish first, later calls wait for it).
// Results come back in call order. Once `signal` aborts, calls not yet started are skipped
// (`skip` gives them their result) and the started ones are awaited.

export interface CallRunner<C, R> {
  limit: number
  signal: AbortSignal
  concurrent(call: C): boolean
  run(call: C): Promise<R>
  skip(call: C): Promise<R>
}

export interface CallOutcome<R> {
  /** In call order; undefined where `run` rejected (a broken contract: see `errors`). */
  results: Array<R | undefined>
  errors: unknown[]
}

export function runCalls<C, R>(calls: readonly C[], runner: CallRunner<C, R>): Promise<CallOutcome<R>> {
  // The common step of one call: no slots to manage, and no async frame of its own.
  if (calls.length === 1) {
    let running: Promise<R>
    try {
      running = runner.signal.aborted ? runner.skip(calls[0]) : runner.run(calls[0])
    } catch (error) {
      return Promise.resolve({ results: [undefined], errors: [error] })
    }
    return running.then(
      (result) => ({ results: [result], errors: [] }),
      (error: unknown) => ({ results: [undefined], errors: [error] })
    )
  }
  return runMany(calls, runner)
}

async function runMany<C, R>(calls: readonly C[], runner: CallRunner<C, R>): Promise<CallOutcome<R>> {
  const results: Array<R | undefined> = new Array(calls.length).fill(undefined)
  const errors: unknown[] = []
  const inFlight = new Set<Promise<void>>()
  const start = (index: number): Promise<void> => {
    const running: Promise<void> = runner.run(calls[index]).then(
      (result) => {
        results[index] = result
        inFlight.delete(running)
      },
      (error: unknown) => {
        errors.push(error)
        inFlight.delete(running)
      }
    )
    inFlight.add(running)
    return running
  }
  const halted = () => runner.signal.aborted || errors.length > 0

  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]
    const alone = !runner.concurrent(call)
    const room = alone ? 1 : runner.limit
    while (inFlight.size >= room) await Promise.race(inFlight)
    if (halted()) {
      results[index] = await runner.skip(call)
      continue
    }
    const running = start(index)
    if (alone) await running
  }
  await Promise.all(inFlight)
  return { results, errors }
}
