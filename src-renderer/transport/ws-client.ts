// HostApi over the WebSocket transport (web mode). Requests carry ids and time out; a dropped
// connection is re-opened with backoff. Push listeners live on this side, so they keep working
// across reconnects (the host sends every push to every connection). Calls made while
// reconnecting wait for the link; calls in flight when it drops reject with DISCONNECTED, since
// the host may or may not have run them.
import type { MethodInput, MethodName, MethodOutput, PushName, PushPayload } from '../../src-shared/contract/ipc'
import { createConnectionStore } from './connection'
import { HostCallError, unwrapReply } from './errors'
import type { ConnectedHost } from './types'

/** The part of the browser WebSocket (and of the `ws` package's) this client uses. */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
}

export interface WsHostOptions {
  /** `ws://127.0.0.1:5180/ws` */
  url: string
  /** Default: the global WebSocket. */
  createSocket?: (url: string) => WebSocketLike
  /** Per call. Default 30 s. */
  requestTimeoutMs?: number
  /** Reconnect delays: doubling from `initialMs` up to `maxMs`. Default 250 ms .. 5 s. */
  backoff?: { initialMs: number; maxMs: number }
}

export interface WsHost extends ConnectedHost {
  /** Settles when the first connection opens (or rejects when the client is closed first). */
  readonly firstConnection: Promise<void>
}

const OPEN = 1

/**
 * The largest request the host reads (its WS_MAX_PAYLOAD, kept equal by a test): a bigger one
 * would make it close the connection, so it is refused here instead.
 */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024

interface Pending {
  method: string
  resolve(output: unknown): void
  reject(error: Error): void
  timer: ReturnType<typeof setTimeout>
  /** The request text; sent when connected, undefined once sent. */
  unsent?: string
}

export function defaultWebSocketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`
}

export function createWsHost(options: WsHostOptions): WsHost {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike)
  const timeoutMs = options.requestTimeoutMs ?? 30_000
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 5_000 }
  const connection = createConnectionStore('connecting')
  const pending = new Map<number, Pending>()
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  let socket: WebSocketLike | null = null
  let nextId = 1
  let attempt = 0
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null
  let closed = false
  let resolveFirst!: () => void
  let rejectFirst!: (error: Error) => void
  const firstConnection = new Promise<void>((resolve, reject) => {
    resolveFirst = resolve
    rejectFirst = reject
  })
  firstConnection.catch(() => {}) // observed by connectHost; never an unhandled rejection

  function open(): void {
    if (closed) return
    let current: WebSocketLike
    try {
      current = createSocket(options.url)
    } catch (error) {
      console.error('[seam] could not open the WebSocket:', error)
      return scheduleReconnect()
    }
    socket = current
    current.onopen = () => {
      if (socket !== current) return
      attempt = 0
      connection.set('connected')
      resolveFirst()
      for (const entry of pending.values()) {
        if (entry.unsent !== undefined) {
          current.send(entry.unsent)
          entry.unsent = undefined
        }
      }
    }
    current.onmessage = (event) => {
      if (socket === current) receive(event.data)
    }
    current.onerror = () => {
      // A close event always follows; reconnecting happens there.
    }
    current.onclose = () => {
      if (socket !== current) return
      socket = null
      for (const [id, entry] of pending) {
        if (entry.unsent !== undefined) continue // not sent yet: it waits for the next connection
        settle(id, new HostCallError(entry.method, { code: 'DISCONNECTED', message: `The connection to the Seam host was lost before it answered '${entry.method}'.` }))
      }
      if (closed) return
      connection.set(connection.getState() === 'connecting' ? 'connecting' : 'reconnecting')
      scheduleReconnect()
    }
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return
    const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt)
    attempt += 1
    const delay = base / 2 + Math.random() * (base / 2)
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null
      open()
    }, delay)
  }

  function receive(data: unknown): void {
    let message: unknown
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data))
    } catch {
      console.warn('[seam] ignored a malformed message from the host')
      return
    }
    if (typeof message !== 'object' || message === null) return
    const record = message as Record<string, unknown>
    if (typeof record.push === 'string') {
      for (const listener of [...(listeners.get(record.push) ?? [])]) {
        try {
          listener(record.payload)
        } catch (error) {
          console.error(`[seam] a listener for '${record.push}' failed:`, error)
        }
      }
      return
    }
    if (typeof record.id === 'number') {
      const entry = pending.get(record.id)
      if (!entry) return
      try {
        settle(record.id, undefined, unwrapReply(entry.method, record))
      } catch (error) {
        settle(record.id, error as Error)
      }
      return
    }
    if (record.ok === false) console.warn('[seam] the host could not read a message:', record.error)
  }

  function settle(id: number, error: Error | undefined, output?: unknown): void {
    const entry = pending.get(id)
    if (!entry) return
    pending.delete(id)
    clearTimeout(entry.timer)
    if (error) entry.reject(error)
    else entry.resolve(output)
  }

  open()

  return {
    transport: 'web',
    connection,
    firstConnection,
    invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      if (closed) return Promise.reject(new HostCallError(method, { code: 'CLOSED', message: 'The connection to the Seam host is closed.' }))
      const id = nextId++
      let text: string
      try {
        text = JSON.stringify({ id, method, input })
      } catch (error) {
        return Promise.reject(new HostCallError(method, { code: 'BAD_MESSAGE', message: `'${method}' input cannot be sent: ${String(error)}` }))
      }
      // Below a third of the limit in characters it is below the limit in UTF-8 bytes.
      const bytes = text.length * 3 <= MAX_REQUEST_BYTES ? 0 : new TextEncoder().encode(text).length
      if (bytes > MAX_REQUEST_BYTES) {
        const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`
        return Promise.reject(new HostCallError(method, { code: 'TOO_LARGE', message: `'${method}' is too large to send (${mb(bytes)}; the limit is ${mb(MAX_REQUEST_BYTES)}).` }))
      }
      return new Promise<MethodOutput<M>>((resolve, reject) => {
        const timer = setTimeout(() => {
          const seconds = Math.round(timeoutMs / 100) / 10
          settle(id, new HostCallError(method, { code: 'TIMEOUT', message: `The Seam host did not answer '${method}' within ${seconds} s.` }))
        }, timeoutMs)
        const entry: Pending = { method, resolve: resolve as (output: unknown) => void, reject, timer }
        pending.set(id, entry)
        if (socket && socket.readyState === OPEN) socket.send(text)
        else entry.unsent = text
      })
    },
    on<P extends PushName>(push: P, listener: (payload: PushPayload<P>) => void): () => void {
      const relay = (payload: unknown) => listener(payload as PushPayload<P>)
      let set = listeners.get(push)
      if (!set) listeners.set(push, (set = new Set()))
      set.add(relay)
      return () => {
        set.delete(relay)
      }
    },
    close() {
      if (closed) return
      closed = true
      if (reconnectTimer) clearTimeout(reconnectTimer)
      reconnectTimer = null
      for (const [id, entry] of pending) settle(id, new HostCallError(entry.method, { code: 'CLOSED', message: 'The connection to the Seam host was closed.' }))
      const current = socket
      socket = null
      current?.close(1000, 'client closed')
      connection.set('closed')
      rejectFirst(new Error('The connection to the Seam host was closed before it opened.'))
    }
  }
}
