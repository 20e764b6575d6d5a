// A counting semaphore for hook runs (Seam caps how many hooks run at once; Claude Code does
// not). Excess runs wait in FIFO order; a run never fails because of the cap.

export class HookLimiter {
  private max: number
  private running = 0
  private highest = 0
  private readonly queue: Array<() => void> = []

  constructor(max: number) {
    this.max = checkMax(max)
  }

  /** Runs now if a slot is free, otherwise after every earlier waiter has started. */
  async run<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.running >= this.max || this.queue.length > 0) {
      await new Promise<void>((start) => this.queue.push(start))
    } else {
      this.acquire()
    }
    try {
      return await fn()
    } finally {
      this.release()
    }
  }

  /** Changing the cap applies to waiting runs at once; runs already going are never interrupted. */
  setMax(max: number): void {
    this.max = checkMax(max)
    this.drain()
  }

  /** Runs holding a slot now. */
  get active(): number {
    return this.running
  }

  /** Highest `active` seen so far. */
  get peak(): number {
    return this.highest
  }

  /** Runs waiting for a slot. */
  get waiting(): number {
    return this.queue.length
  }

  get limit(): number {
    return this.max
  }

  private acquire(): void {
    this.running++
    if (this.running > this.highest) this.highest = this.running
  }

  private release(): void {
    this.running--
    this.drain()
  }

  private drain(): void {
    while (this.running < this.max && this.queue.length > 0) {
      this.acquire()
      this.queue.shift()?.()
    }
  }
}

function checkMax(max: number): number {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`HookLimiter: max must be an integer >= 1, got ${max}`)
  return max
}

const sharedLimiters = new WeakMap<object, HookLimiter>()

/**
 * The one limiter of a host (keyed by its kernel), shared by every bridge: the cap on hook
 * processes counts Claude Code and Codex hooks together, and survives a bridge's restart so
 * hooks still running from before it keep counting. `max` updates the cap.
 */
export function sharedHookLimiter(host: object, max: number): HookLimiter {
  let limiter = sharedLimiters.get(host)
  if (!limiter) sharedLimiters.set(host, (limiter = new HookLimiter(max)))
  else limiter.setMax(max)
  return limiter
}
