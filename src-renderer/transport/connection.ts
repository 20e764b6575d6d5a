// The transport's connection state as a tiny external store (fits React's useSyncExternalStore):
// `connecting` before the first open, `connected`, `reconnecting` after a drop, `closed` at the end.

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed'

export interface ConnectionStatus {
  /** Bound: can be passed around on its own. */
  readonly getState: () => ConnectionState
  /** Bound; the listener also receives the new state. Returns the unsubscribe function. */
  readonly subscribe: (listener: (state: ConnectionState) => void) => () => void
}

export interface ConnectionStore extends ConnectionStatus {
  set(state: ConnectionState): void
}

export function createConnectionStore(initial: ConnectionState): ConnectionStore {
  let state = initial
  const listeners = new Set<(state: ConnectionState) => void>()
  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    set(next) {
      if (next === state) return
      state = next
      for (const listener of [...listeners]) {
        try {
          listener(state)
        } catch (error) {
          console.error('[seam] connection listener failed:', error)
        }
      }
    }
  }
}
