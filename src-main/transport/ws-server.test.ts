import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { attachWebSocket, type AttachedWebSocket } from './ws-server'
import { loopbackOrigins } from './origins'
import { createTestHostCore, type TestHostCore } from './test-host-core'

interface Harness {
  server: Server
  port: number
  core: TestHostCore
  ws: AttachedWebSocket
}

const open: Harness[] = []
const sockets: WebSocket[] = []

async function start(options: { maxPayload?: number } = {}): Promise<Harness> {
  const server = createServer((_req, res) => res.writeHead(404).end())
  const core = createTestHostCore('web')
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const ws = attachWebSocket(server, core, { allowedOrigins: () => loopbackOrigins(port), maxPayload: options.maxPayload, log: () => {} })
  const harness = { server, port, core, ws }
  open.push(harness)
  return harness
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) if (socket.readyState === WebSocket.OPEN) socket.terminate()
  for (const h of open.splice(0)) {
    await h.ws.close()
    await new Promise<void>((resolve) => h.server.close(() => resolve()))
  }
})

function connect(port: number, origin: string | undefined, path = '/ws'): WebSocket {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, origin === undefined ? {} : { origin })
  socket.on('error', () => {}) // refusals surface as 'unexpected-response'
  sockets.push(socket)
  return socket
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
}

function refusedWith(socket: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    socket.once('open', () => reject(new Error('connection was accepted')))
  })
}

/** Collects every message the socket receives, parsed. */
function inbox(socket: WebSocket) {
  const messages: Array<Record<string, unknown>> = []
  const waiters: Array<() => void> = []
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>)
    for (const wake of waiters.splice(0)) wake()
  })
  return {
    messages,
    async next(predicate: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (;;) {
        const found = messages.find(predicate)
        if (found) return found
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    }
  }
}

describe('ws-server', () => {
  it('refuses foreign, look-alike, opaque and missing origins with 403 before upgrading', async () => {
    const { port, core } = await start()
    const bad = [
      'http://evil.test',
      `http://127.0.0.1:${port}.evil.test`,
      `http://127.0.0.1:${port + 1}`,
      `https://127.0.0.1:${port}`,
      'null',
      'file://',
      undefined
    ]
    for (const origin of bad) {
      expect(await refusedWith(connect(port, origin)), String(origin)).toBe(403)
    }
    expect(core.connections.count).toBe(0)
  })

  it('accepts the server origins, on /ws only', async () => {
    const { port } = await start()
    await opened(connect(port, `http://127.0.0.1:${port}`))
    await opened(connect(port, `http://localhost:${port}`))
    expect(await refusedWith(connect(port, `http://127.0.0.1:${port}`, '/other'))).toBe(404)
  })

  it('round-trips a request, answers invalid input naming the field', async () => {
    const { port, core } = await start()
    const socket = connect(port, `http://127.0.0.1:${port}`)
    const box = inbox(socket)
    await opened(socket)
    socket.send(JSON.stringify({ id: 1, method: 'workspace/set', input: { path: '/tmp/w' } }))
    socket.send(JSON.stringify({ id: 2, method: 'workspace/set', input: { path: 5 } }))
    socket.send(JSON.stringify({ id: 3, method: 'no/such', input: {} }))
    expect(await box.next((m) => m.id === 1)).toEqual({ id: 1, ok: true, output: { path: '/tmp/w' } })
    const invalid = await box.next((m) => m.id === 2)
    expect(invalid).toMatchObject({ id: 2, ok: false, error: { code: 'INVALID_INPUT', field: 'path' } })
    expect(await box.next((m) => m.id === 3)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } })
    expect(core.calls).toEqual([{ method: 'workspace/set', input: { path: '/tmp/w' }, caller: { transport: 'web' } }])
  })

  it('answers malformed JSON and malformed shapes with BAD_MESSAGE and keeps the connection', async () => {
    const { port } = await start()
    const socket = connect(port, `http://127.0.0.1:${port}`)
    const box = inbox(socket)
    await opened(socket)
    socket.send('{not json')
    expect(await box.next(() => true)).toMatchObject({ id: null, ok: false, error: { code: 'BAD_MESSAGE' } })
    socket.send(JSON.stringify({ id: 9, input: {} }))
    const shape = await box.next((m) => m.id === 9)
    expect(shape).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } })
    expect(String((shape.error as { message: string }).message)).toContain('method')
    socket.send(Buffer.from([1, 2, 3]), { binary: true })
    await box.next((m) => m.id === null && box.messages.filter((x) => x.id === null).length === 2)
    socket.send(JSON.stringify({ id: 10, method: 'workspace/set', input: { path: '/still/alive' } }))
    expect(await box.next((m) => m.id === 10)).toMatchObject({ ok: true })
    expect(socket.readyState).toBe(WebSocket.OPEN)
  })

  it('fans validated pushes out to every client and drops invalid ones', async () => {
    const { port, core } = await start()
    const a = connect(port, `http://127.0.0.1:${port}`)
    const b = connect(port, `http://localhost:${port}`)
    const boxA = inbox(a)
    const boxB = inbox(b)
    await Promise.all([opened(a), opened(b)])
    await expect.poll(() => core.connections.count).toBe(2)
    expect(core.pushes.publish('approval/settled', { requestId: 'r', outcome: 5 } as never)).toBe(false)
    expect(core.pushes.publish('approval/settled', { requestId: 'r1', outcome: 'denied' })).toBe(true)
    const expected = { push: 'approval/settled', payload: { requestId: 'r1', outcome: 'denied' } }
    expect(await boxA.next((m) => m.push !== undefined)).toEqual(expected)
    expect(await boxB.next((m) => m.push !== undefined)).toEqual(expected)
    expect(boxA.messages).toHaveLength(1)
  })

  it('tracks connections and unsubscribes on close', async () => {
    const { port, core } = await start()
    const changes: number[] = []
    core.connections.onChange((count) => changes.push(count))
    const socket = connect(port, `http://127.0.0.1:${port}`)
    await opened(socket)
    await expect.poll(() => core.pushes.subscriberCount).toBe(1)
    socket.close()
    await expect.poll(() => core.connections.count).toBe(0)
    expect(core.pushes.subscriberCount).toBe(0)
    expect(changes).toEqual([1, 0])
  })

  it('delivers a push the host publishes as the connection is counted (app/status at connect) to that connection too', async () => {
    const { port, core } = await start()
    // What the Host does: every new connection makes it publish its status.
    core.connections.onChange((count) => {
      if (count > 0) core.pushes.publish('sessions/changed', {})
    })
    const socket = connect(port, `http://127.0.0.1:${port}`)
    const box = inbox(socket)
    await opened(socket)
    socket.send(JSON.stringify({ id: 1, method: 'workspace/set', input: { path: '/after' } }))
    await box.next((m) => m.id === 1)
    // Sent while the connection was being set up, so before any reply.
    expect(box.messages[0]).toEqual({ push: 'sessions/changed', payload: {} })
  })

  it('closes a connection whose message exceeds the size cap', async () => {
    const { port } = await start({ maxPayload: 1024 })
    const socket = connect(port, `http://127.0.0.1:${port}`)
    await opened(socket)
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
    socket.send(JSON.stringify({ id: 1, method: 'workspace/set', input: { path: 'x'.repeat(4096) } }))
    expect(await closed).toBe(1009)
  })
})
