// Coalesces high-rate pushes (streamed tokens, tool output) into one store update per frame, so
// a fast stream costs one render per frame, not one per token.

export interface FrameBatch<T> {
  push(item: T): void
  /** Applies what is pending now (before an event that must see it applied). */
  flush(): void
  dispose(): void
}

const FALLBACK_MS = 50

export function frameBatch<T>(apply: (items: T[]) => void): FrameBatch<T> {
  let pending: T[] = []
  let frame: number | null = null
  let timer: ReturnType<typeof setTimeout> | null = null

  const cancel = () => {
    if (frame !== null && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame)
    if (timer !== null) clearTimeout(timer)
    frame = null
    timer = null
  }
  const flush = () => {
    cancel()
    if (pending.length === 0) return
    const items = pending
    pending = []
    apply(items)
  }
  return {
    push(item) {
      pending.push(item)
      if (frame !== null || timer !== null) return
      // rAF stops in hidden windows; the timer keeps the stream moving there.
      if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(flush)
      timer = setTimeout(flush, FALLBACK_MS)
    },
    flush,
    dispose() {
      cancel()
      pending = []
    }
  }
}
