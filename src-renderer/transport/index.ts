// The renderer's one way to the Host: `connectHost()` picks the transport at run time (the
// preload bridge in Electron, a WebSocket in a browser). Components get a HostApi and never
// branch on which one it is.
import { findBridge, type SeamBridge } from './bridge'
import { createIpcHost } from './ipc-client'
import type { ConnectedHost } from './types'
import { createWsHost, defaultWebSocketUrl, type WebSocketLike } from './ws-client'

export type { ConnectedHost } from './types'
export type { ConnectionState, ConnectionStatus } from './connection'
export { HostCallError, type HostErrorCode } from './errors'
export type { SeamBridge } from './bridge'
export type { WebSocketLike } from './ws-client'

export interface ConnectOptions {
  /** Default: window.seam when present. */
  bridge?: SeamBridge
  /** Default: ws(s)://<location.host>/ws. */
  url?: string
  /** Where the page was loaded from. Default: window.location. */
  location?: { protocol: string; host: string }
  createSocket?: (url: string) => WebSocketLike
  requestTimeoutMs?: number
  /** How long to wait for the first WebSocket connection. Default 30 s. */
  connectTimeoutMs?: number
  backoff?: { initialMs: number; maxMs: number }
}

export async function connectHost(options: ConnectOptions = {}): Promise<ConnectedHost> {
  const bridge = options.bridge ?? findBridge()
  if (bridge) return createIpcHost(bridge)
  const url = options.url ?? webSocketUrlOf(options.location ?? window.location)
  const host = createWsHost({ url, createSocket: options.createSocket, requestTimeoutMs: options.requestTimeoutMs, backoff: options.backoff })
  const timeoutMs = options.connectTimeoutMs ?? 30_000
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      host.firstConnection,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`Could not reach the Seam host at ${url} within ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs)
      })
    ])
  } catch (error) {
    host.close()
    throw error
  } finally {
    clearTimeout(timer)
  }
  return host
}

/**
 * The web-mode host's WebSocket for a page served over http(s). A desktop window (seam://app) that
 * has no bridge lost its preload; retrying ws:///ws would only delay saying so.
 */
function webSocketUrlOf(location: { protocol: string; host: string }): string {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') {
    throw new Error(
      'This desktop window has no bridge to the Seam host: its preload script did not load. ' +
        'Rebuild with `npm run build` and start Seam again; the terminal that started Seam shows why.'
    )
  }
  return defaultWebSocketUrl(location)
}
