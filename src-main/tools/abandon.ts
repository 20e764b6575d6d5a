// After its caller cancels, a call gets one grace to wind down; then the pipeline stops waiting.
// A tool (or a listener) that ignores its signal and never settles cannot hold a cancel forever.

export const ABANDONED: unique symbol = Symbol('abandoned')

/** One call's deadline: `graceMs` after its signal aborts (counted from now when it already has). */
export interface Abandonment {
  /** Settles like `work`, or with ABANDONED once the deadline passed. A later rejection of `work` is handled. */
  race<T>(work: Promise<T>): Promise<T | typeof ABANDONED>
  /** Clears the timer and the abort listener. */
  dispose(): void
}

const NOT_CANCELLABLE: Abandonment = Object.freeze({ race: <T>(work: Promise<T>) => work, dispose: () => {} })

export function abandonment(signal: AbortSignal | undefined, graceMs: number): Abandonment {
  if (signal === undefined) return NOT_CANCELLABLE
  let timer: ReturnType<typeof setTimeout> | undefined
  let expire: () => void = () => {}
  const expired = new Promise<typeof ABANDONED>((resolve) => (expire = () => resolve(ABANDONED)))
  const start = (): void => void (timer = setTimeout(expire, graceMs))
  if (signal.aborted) start()
  else signal.addEventListener('abort', start, { once: true })
  return {
    race: (work) => Promise.race([work, expired]),
    dispose: () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', start)
    }
  }
}
