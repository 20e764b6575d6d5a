// The WebSocket client against the real ws-server and router (a tiny handler set), with the
// `ws` package standing in for the browser's WebSocket.
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { scaledTestMs } from '../../src-main/process/liveness'
import WebSocket from 'ws'
import { attachWebSocket, WS_MAX_PAYLOAD, type AttachedWebSocket } from '../../src-main/transport/ws-server'
import { createTestHostCore, type TestHostCore } from '../../src-main/transport/test-host-core'
import { connectHost, HostCallError, type ConnectedHost, type ConnectionState } from './index'
import { defaultWebSocketUrl, MAX_REQUEST_BYTES, type WebSocketLike } from './ws-client'

interface Harness {
  server: Server
  port: number
  core: TestHostCore
  ws: AttachedWebSocket
  sockets: Set<Socket>
  /** Cuts every live connection, as a network drop or host restart would. */
  drop(): void
}

const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startHost(): Promise<Harness> {
  const server = createServer((_req, res) => res.writeHead(404).end())
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const core = createTestHostCore('web')
  const ws = attachWebSocket(server, core, { allowedOrigins: [`http://127.0.0.1:${port}`], log: () => {} })
  cleanups.push(async () => {
    await ws.close()
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return {
    server,
    port,
    core,
    ws,
    sockets,
    drop: () => {
      for (const socket of sockets) socket.destroy()
    }
  }
}

async function connect(h: Harness, extra: { requestTimeoutMs?: number } = {}): Promise<ConnectedHost> {
  const host = await connectHost({
    url: `ws://127.0.0.1:${h.port}/ws`,
    createSocket: (url) => new WebSocket(url, { origin: `http://127.0.0.1:${h.port}` }) as unknown as WebSocketLike,
    backoff: { initialMs: 20, maxMs: 100 },
    ...extra
  })
  cleanups.push(() => host.close())
  return host
}

function waitForState(host: ConnectedHost, wanted: ConnectionState): Promise<void> {
  return new Promise((resolve) => {
    if (host.connection.getState() === wanted) return resolve()
    const off = host.connection.subscribe((state) => {
      if (state !== wanted) return
      off()
      resolve()
    })
  })
}

describe('WebSocket HostApi client', () => {
  it('round-trips calls and rejects invalid input with the field named', async () => {
    const h = await startHost()
    const host = await connect(h)
    expect(host.transport).toBe('web')
    expect(host.connection.getState()).toBe('connected')
    expect(await host.invoke('workspace/set', { path: '/w' })).toEqual({ path: '/w' })
    const error = await host.invoke('workspace/set', { path: 7 as unknown as string }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HostCallError)
    expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'path', method: 'workspace/set' })
    await expect(host.invoke('app/status', {})).rejects.toMatchObject({ code: 'UNSUPPORTED' })
  })

  it('answers concurrent calls by id, whatever order the host finishes them in', async () => {
    const h = await startHost()
    const host = await connect(h)
    const slow = host.invoke('sessions/rename', { id: 's1', title: 'slow:150' })
    const fast = host.invoke('workspace/set', { path: '/fast' })
    expect(await fast).toEqual({ path: '/fast' })
    expect(await slow).toEqual({ ok: true })
  })

  it('delivers pushes to listeners until they unsubscribe', async () => {
    const h = await startHost()
    const host = await connect(h)
    const seen: unknown[] = []
    const off = host.on('approval/settled', (payload) => seen.push(payload))
    await expect.poll(() => h.core.pushes.subscriberCount).toBe(1)
    h.core.pushes.publish('approval/settled', { requestId: 'a', outcome: 'denied' })
    await expect.poll(() => seen).toEqual([{ requestId: 'a', outcome: 'denied' }])
    off()
    h.core.pushes.publish('approval/settled', { requestId: 'b', outcome: 'denied' })
    await host.invoke('workspace/set', { path: '/sync' }) // the push would have arrived before this reply
    expect(seen).toHaveLength(1)
  })

  it('reconnects after a drop, keeps its push listeners, and shows the state', async () => {
    const h = await startHost()
    const host = await connect(h)
    const states: ConnectionState[] = []
    host.connection.subscribe((state) => states.push(state))
    const seen: unknown[] = []
    host.on('sessions/changed', (payload) => seen.push(payload))
    h.drop()
    await waitForState(host, 'reconnecting')
    await waitForState(host, 'connected')
    expect(states).toEqual(['reconnecting', 'connected'])
    await expect.poll(() => h.core.connections.count).toBe(1)
    h.core.pushes.publish('sessions/changed', {})
    await expect.poll(() => seen).toEqual([{}])
    expect(await host.invoke('workspace/set', { path: '/again' })).toEqual({ path: '/again' })
  })

  it('rejects a call in flight when the connection drops, and sends calls made while reconnecting', async () => {
    const h = await startHost()
    const host = await connect(h)
    const inFlight = host.invoke('sessions/rename', { id: 's1', title: 'slow:300' })
    await expect.poll(() => h.core.calls.length).toBe(1)
    h.drop()
    await expect(inFlight).rejects.toMatchObject({ code: 'DISCONNECTED' })
    const queued = host.invoke('workspace/set', { path: '/queued' })
    expect(await queued).toEqual({ path: '/queued' })
  })

  it('refuses a call too large for the host instead of sending it (the host would cut the connection)', async () => {
    expect(MAX_REQUEST_BYTES).toBe(WS_MAX_PAYLOAD)
    const h = await startHost()
    const host = await connect(h)
    const states: ConnectionState[] = []
    host.connection.subscribe((state) => states.push(state))
    // 3 bytes per character in UTF-8: under the cap in characters, over it in bytes.
    const input = '€'.repeat(Math.ceil(MAX_REQUEST_BYTES / 3) + 10)
    const error = await host.invoke('plugins/call', { plugin: 'p', method: 'm', input }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HostCallError)
    expect(error).toMatchObject({ code: 'TOO_LARGE', method: 'plugins/call' })
    expect((error as Error).message).toContain('too large')
    // The link stayed up: the next call goes through on the same connection.
    expect(await host.invoke('workspace/set', { path: '/after' })).toEqual({ path: '/after' })
    expect(states).toEqual([])
    expect(h.core.connections.count).toBe(1)
  })

  it('times out a call the host does not answer, with a clear message', async () => {
    const h = await startHost()
    const host = await connect(h, { requestTimeoutMs: 100 })
    const error = await host.invoke('sessions/rename', { id: 's1', title: 'slow:1000' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'TIMEOUT' })
    expect((error as Error).message).toContain("did not answer 'sessions/rename'")
  })

  it('rejects pending and later calls once closed', async () => {
    const h = await startHost()
    const host = await connect(h)
    const pending = host.invoke('sessions/rename', { id: 's1', title: 'slow:300' })
    host.close()
    await expect(pending).rejects.toMatchObject({ code: 'CLOSED' })
    await expect(host.invoke('workspace/set', { path: '/x' })).rejects.toMatchObject({ code: 'CLOSED' })
    expect(host.connection.getState()).toBe('closed')
  })

  it('gives up on the first connection after the connect timeout', async () => {
    const h = await startHost()
    await expect(
      connectHost({
        url: `ws://127.0.0.1:${h.port}/ws`,
        // A foreign origin: the host refuses every attempt.
        createSocket: (url) => new WebSocket(url, { origin: 'http://evil.test' }) as unknown as WebSocketLike,
        backoff: { initialMs: 20, maxMs: 50 },
        connectTimeoutMs: 300
      })
    ).rejects.toThrow(/Could not reach the Seam host/)
  })

  it('a desktop window (file://) without the preload bridge fails at once, without trying ws:///ws', async () => {
    const tried: string[] = []
    const started = Date.now()
    const failure = connectHost({
      bridge: undefined,
      location: { protocol: 'file:', host: '' },
      createSocket: (url) => {
        tried.push(url)
        throw new Error('must not be called')
      }
    })
    await expect(failure).rejects.toThrow(/no bridge to the Seam host: its preload script did not load\. Rebuild with `npm run build`/)
    expect(tried).toEqual([])
    expect(Date.now() - started).toBeLessThan(scaledTestMs(1000))
  })

  it('derives the WebSocket URL from the page location', () => {
    expect(defaultWebSocketUrl({ protocol: 'http:', host: '127.0.0.1:5180' })).toBe('ws://127.0.0.1:5180/ws')
    expect(defaultWebSocketUrl({ protocol: 'https:', host: 'seam.example' })).toBe('wss://seam.example/ws')
  })
})

describe('Electron HostApi client', () => {
  it('uses the preload bridge when given one and unwraps its replies', async () => {
    const listeners: Array<[string, (payload: unknown) => void]> = []
    const host = await connectHost({
      bridge: {
        invoke: async (method, input) =>
          method === 'workspace/set' ? { ok: true, output: input } : { ok: false, error: { code: 'INVALID_INPUT', message: 'bad', field: 'x' } },
        on: (push, listener) => {
          listeners.push([push, listener])
          return () => {}
        }
      }
    })
    expect(host.transport).toBe('electron')
    expect(host.connection.getState()).toBe('connected')
    expect(await host.invoke('workspace/set', { path: '/e' })).toEqual({ path: '/e' })
    await expect(host.invoke('app/status', {})).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'x' })
    const seen: unknown[] = []
    host.on('sessions/changed', (payload) => seen.push(payload))
    listeners[0]![1]({})
    expect(listeners[0]![0]).toBe('sessions/changed')
    expect(seen).toEqual([{}])
  })
})
