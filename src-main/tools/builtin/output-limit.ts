// Bounds on text the model sees. Long output keeps its head and its tail (where errors and exit
// notes usually are) with a marker in between saying how much was cut.

export function truncationMarker(dropped: number): string {
  return `\n\n... [${dropped} characters truncated] ...\n\n`
}

/** Keeps the first and last halves of `max` characters of `text` and marks the cut. */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text
  const half = Math.floor(max / 2)
  return text.slice(0, half) + truncationMarker(text.length - 2 * half) + text.slice(text.length - half)
}

/** Keeps the first `max` characters of `text` and says how much was left out and how to narrow it. */
export function truncateHead(text: string, max: number, hint: string): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n\n... [${text.length - max} characters truncated; ${hint}]`
}

/**
 * Accumulates a stream of text in bounded memory: the first `limit / 2` and the last `limit / 2`
 * characters are kept, whatever arrives in between is only counted.
 */
export class HeadTailBuffer {
  private head = ''
  private tail = ''
  private dropped = 0
  private readonly half: number

  constructor(limit: number) {
    this.half = Math.max(1, Math.floor(limit / 2))
  }

  push(text: string): void {
    if (this.head.length < this.half) {
      const room = this.half - this.head.length
      this.head += text.slice(0, room)
      text = text.slice(room)
      if (text.length === 0) return
    }
    this.tail += text
    // Trim lazily (at twice the size) so a stream of small chunks costs amortized O(1) per char.
    if (this.tail.length > 2 * this.half) {
      const excess = this.tail.length - this.half
      this.dropped += excess
      this.tail = this.tail.slice(excess)
    }
  }

  get truncated(): boolean {
    return this.dropped > 0 || this.tail.length > this.half
  }

  text(): string {
    const excess = Math.max(0, this.tail.length - this.half)
    const dropped = this.dropped + excess
    if (dropped === 0) return this.head + this.tail
    return this.head + truncationMarker(dropped) + this.tail.slice(excess)
  }
}
