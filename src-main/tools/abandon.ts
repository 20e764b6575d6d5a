// After its caller cancels, a call gets one grace to wind down; then the pipeline stops waiting.
// A tool (or a listener) that ignores its signal and never settles cannot hold a cancel forever.
//
// The calls of one signal (a turn's) share one deadline: one abort listener per signal and grace,
// added by the first call, and one timer while a call is racing it after the abort. A call costs
// a race (one promise) and no listener or timer of its own. Only a call that starts after its
// signal aborted counts its grace from its start, with a timer of its own.

export const ABANDONED: unique symbol = Symbol('abandoned')

/** One call's deadline: `graceMs` after its signal aborts (counted from now when it already has). */
export interface Abandonment {
  /** Settles like `work`, or with ABANDONED once the deadline passed. A later rejection of `work` is handled. */
  race<T>(work: Promise<T>): Promise<T | typeof ABANDONED>
  /** Clears what this call alone holds (the timer of a call started after the abort). */
  dispose(): void
}

const NOT_CANCELLABLE: Abandonment = Object.freeze({ race: <T>(work: Promise<T>) => work, dispose: () => {} })
const EXPIRED: Promise<typeof ABANDONED> = Promise.resolve(ABANDONED)

type Waiter = (value: typeof ABANDONED) => void

/** The deadline every call of one signal shares: `graceMs` after the signal aborted. */
class SharedDeadline implements Abandonment {
  private readonly waiters = new Set<Waiter>()
  private abortedAt: number | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private expired = false

  constructor(
    signal: AbortSignal,
    private readonly graceMs: number
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true })
  }

  race<T>(work: Promise<T>): Promise<T | typeof ABANDONED> {
    // Past the deadline: as a race against an expired deadline (work already settled still wins).
    if (this.expired) return Promise.race([work, EXPIRED])
    return new Promise<T | typeof ABANDONED>((resolve, reject) => {
      const waiter: Waiter = resolve
      this.waiters.add(waiter)
      if (this.abortedAt !== undefined) this.arm()
      work.then(
        (value) => {
          this.release(waiter)
          resolve(value)
        },
        (error: unknown) => {
          this.release(waiter)
          reject(error)
        }
      )
    })
  }

  dispose(): void {}

  private readonly onAbort = (): void => {
    this.abortedAt = performance.now()
    if (this.waiters.size > 0) this.arm()
  }

  /** Runs the timer for the rest of the grace while someone races; the deadline stays where the abort put it. */
  private arm(): void {
    if (this.timer !== undefined || this.abortedAt === undefined) return
    const left = this.abortedAt + this.graceMs - performance.now()
    if (left <= 0) this.expire()
    else this.timer = setTimeout(() => this.expire(), left)
  }

  private expire(): void {
    this.timer = undefined
    this.expired = true
    const waiting = [...this.waiters]
    this.waiters.clear()
    for (const waiter of waiting) waiter(ABANDONED)
  }

  /** A race settled by its work: with nobody racing, no timer is left running (nothing keeps the process up). */
  private release(waiter: Waiter): void {
    this.waiters.delete(waiter)
    if (this.waiters.size === 0 && this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
  }
}

const shared = new WeakMap<AbortSignal, Map<number, SharedDeadline>>()

export function abandonment(signal: AbortSignal | undefined, graceMs: number): Abandonment {
  if (signal === undefined) return NOT_CANCELLABLE
  if (signal.aborted) return ownDeadline(graceMs)
  let byGrace = shared.get(signal)
  if (byGrace === undefined) {
    byGrace = new Map()
    shared.set(signal, byGrace)
  }
  let deadline = byGrace.get(graceMs)
  if (deadline === undefined) {
    deadline = new SharedDeadline(signal, graceMs)
    byGrace.set(graceMs, deadline)
  }
  return deadline
}

/** A call that starts already cancelled: its grace counts from now. */
function ownDeadline(graceMs: number): Abandonment {
  let expire: () => void = () => {}
  const expired = new Promise<typeof ABANDONED>((resolve) => (expire = () => resolve(ABANDONED)))
  const timer = setTimeout(expire, graceMs)
  return {
    race: (work) => Promise.race([work, expired]),
    dispose: () => clearTimeout(timer)
  }
}
