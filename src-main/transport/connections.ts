// Counts the UIs connected to the Host (Electron windows, WebSocket clients). The approval
// dialog uses it: with no UI connected nobody can answer, so pending requests settle at once,
// and a UI that goes away (closed, reloaded, dropped) takes its open dialogs with it.
export type ConnectionListener = (count: number, change: 'opened' | 'closed') => void

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
    const change = delta > 0 ? 'opened' : 'closed'
    for (const listener of [...this.listeners]) {
      try {
        listener(count, change)
      } catch (error) {
        console.error('[seam] connection listener failed:', error)
      }
    }
  }
}
