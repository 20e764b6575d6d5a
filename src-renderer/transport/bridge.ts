// What the preload exposes as `window.seam` in Electron (src-preload/index.ts). Declared here
// too because the renderer may import only src-shared, never the preload.

export interface SeamBridge {
  /** Resolves to the host's WireReply. */
  invoke(method: string, input: unknown): Promise<unknown>
  on(push: string, listener: (payload: unknown) => void): () => void
}

declare global {
  interface Window {
    seam?: SeamBridge
  }
}

/** The preload bridge when this page runs in the Electron window, otherwise undefined. */
export function findBridge(scope: { seam?: unknown } | undefined = typeof window === 'undefined' ? undefined : window): SeamBridge | undefined {
  const candidate = scope?.seam as Partial<SeamBridge> | undefined
  if (candidate && typeof candidate.invoke === 'function' && typeof candidate.on === 'function') return candidate as SeamBridge
  return undefined
}
