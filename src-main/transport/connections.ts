// Counts the UIs connected to the Host (Electron windows, WebSocket clients). The approval
// dialog uses it: with no UI connected nobody can answer, so pending requests settle at once.
export type ConnectionListener = (count: number) => void

export class ConnectionTracker {
  private open = 0
  private readonly listeners = new Set<ConnectionListener>()

  get count(): number {
    return this.open
  }

  /** Registers one connection; the returned release is idempotent. */
  acquire(): () => void {
    let released = false
    this.change(+1)
    return () => {
      if (released) return
      released = true
      this.change(-1)
    }
  }

  onChange(listener: ConnectionListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  private change(delta: number): void {
    this.open += delta
    const count = this.open
    for (const listener of [...this.listeners]) {
      try {
        listener(count)
      } catch (error) {
        console.error('[seam] connection listener failed:', error)
      }
    }
  }
}
