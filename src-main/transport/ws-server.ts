// The WebSocket transport (web mode): `/ws` on the host's own HTTP server. Requests are
// `{id, method, input}`, replies `{id, ...WireReply}`, pushes `{push, payload}`. The Origin is
// checked before the upgrade, a malformed message gets an error reply and the connection stays.
import type { IncomingMessage, Server } from 'node:http'
import { createRequire } from 'node:module'
import type { Duplex } from 'node:stream'
import type { RawData, WebSocket } from 'ws'
import { WireRequestSchema, type WireReply } from '../../src-shared/contract/ipc'
import { formatZodError } from '../../src-shared/validation'
import type { HostCore } from './host-core'
import { isAllowedOrigin } from './origins'
import type { PushMessage, TransportLog } from './push-hub'

// ws is CommonJS, and `import` of CommonJS makes Node scan each of its files for the names it
// exports (its lexer, which V8 then optimises): 140 ms of CPU at every web host's start, where
// `require` takes 45 ms.
const { WebSocketServer, WebSocket: WebSocketClass } = createRequire(import.meta.url)('ws') as typeof import('ws')

export const WS_PATH = '/ws'
export const WS_MAX_PAYLOAD = 8 * 1024 * 1024
/** A client that stops reading is cut off rather than growing the host's memory without bound. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024

export interface WebSocketOptions {
  /** Origins allowed to connect; a function is read on every upgrade (the port may be known late). */
  allowedOrigins: readonly string[] | (() => readonly string[])
  path?: string
  maxPayload?: number
  /** Ping interval; a client that missed one pong is dropped. Default 30 s. */
  heartbeatMs?: number
  /** The Host header check of the HTTP side (DNS rebinding); false refuses with 421. */
  allowHost?: (host: string | undefined) => boolean
  /** Extra check of the upgrade request (web mode's access token); false refuses with 401. */
  authorize?: (req: IncomingMessage) => boolean
  log?: TransportLog
}

export interface AttachedWebSocket {
  readonly clientCount: number
  close(): Promise<void>
}

export type WireResponse = { id: number | null } & WireReply

export function attachWebSocket(httpServer: Server, core: HostCore, options: WebSocketOptions): AttachedWebSocket {
  const path = options.path ?? WS_PATH
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[seam] ${message}`, error ?? ''))
  const allowed = () => (typeof options.allowedOrigins === 'function' ? options.allowedOrigins() : options.allowedOrigins)
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? WS_MAX_PAYLOAD })
  const alive = new WeakMap<WebSocket, boolean>()

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = safePathname(req.url)
    if (pathname !== path) return refuse(socket, 404, 'Not Found')
    if (options.allowHost && !options.allowHost(req.headers.host)) {
      log(`refused a WebSocket for host ${JSON.stringify(req.headers.host ?? null)}`)
      return refuse(socket, 421, 'Misdirected Request')
    }
    if (!isAllowedOrigin(req.headers.origin, allowed())) {
      log(`refused a WebSocket from origin ${JSON.stringify(req.headers.origin ?? null)}`)
      return refuse(socket, 403, 'Forbidden')
    }
    if (options.authorize && !options.authorize(req)) {
      log('refused a WebSocket without the access token')
      return refuse(socket, 401, 'Unauthorized')
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  }
  httpServer.on('upgrade', onUpgrade)

  wss.on('connection', (ws: WebSocket) => {
    alive.set(ws, true)
    // Subscribed before counted: what the Host publishes for a new connection (its status) reaches it too.
    const unsubscribe = core.pushes.subscribe((message: PushMessage) => send(ws, message, log))
    const release = core.connections.acquire()
    ws.on('pong', () => alive.set(ws, true))
    ws.on('message', (data: RawData, isBinary: boolean) => {
      void handleMessage(ws, data, isBinary, core, log)
    })
    ws.on('error', (error) => log('WebSocket error', error))
    ws.on('close', () => {
      unsubscribe()
      release()
    })
  })

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate()
        continue
      }
      alive.set(ws, false)
      ws.ping()
    }
  }, options.heartbeatMs ?? 30_000)
  heartbeat.unref()

  return {
    get clientCount() {
      return wss.clients.size
    },
    close() {
      clearInterval(heartbeat)
      httpServer.off('upgrade', onUpgrade)
      for (const ws of wss.clients) ws.close(1001, 'host shutting down')
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          for (const ws of wss.clients) ws.terminate()
        }, 500)
        force.unref()
        wss.close(() => {
          clearTimeout(force)
          resolve()
        })
      })
    }
  }
}

async function handleMessage(ws: WebSocket, data: RawData, isBinary: boolean, core: HostCore, log: TransportLog): Promise<void> {
  if (isBinary) return send(ws, badMessage(null, 'binary messages are not part of the protocol'), log)
  let json: unknown
  try {
    json = JSON.parse(rawToString(data))
  } catch {
    return send(ws, badMessage(null, 'message is not valid JSON'), log)
  }
  const parsed = WireRequestSchema.safeParse(json)
  if (!parsed.success) {
    const id = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined
    const replyId = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null
    return send(ws, badMessage(replyId, formatZodError('message', parsed.error)), log)
  }
  const { id, method, input } = parsed.data
  const reply = await core.router.invoke(method, input, { transport: 'web' })
  send(ws, { id: id ?? null, ...reply }, log)
}

function badMessage(id: number | null, message: string): WireResponse {
  return { id, ok: false, error: { code: 'BAD_MESSAGE', message } }
}

function send(ws: WebSocket, message: WireResponse | PushMessage, log: TransportLog): void {
  if (ws.readyState !== WebSocketClass.OPEN) return
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    log('a WebSocket client stopped reading; disconnecting it')
    ws.terminate()
    return
  }
  let text: string
  try {
    text = JSON.stringify(message)
  } catch (error) {
    log('could not serialise a message for the WebSocket', error)
    return
  }
  ws.send(text)
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

function safePathname(url: string | undefined): string | null {
  try {
    return new URL(url ?? '/', 'http://host.invalid').pathname
  } catch {
    return null
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.once('finish', () => socket.destroy())
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`)
}
