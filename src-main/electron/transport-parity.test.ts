// Plugin RPC answers the same through both carriers: Electron IPC (structured clone, applied
// here as Electron applies it) and the real WebSocket server (JSON). The router passes plugin
// values through JSON, so Dates, Maps, undefined and functions come out alike.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { BrowserWindow as ElectronWindow, IpcMain } from 'electron'
import { IPC_INVOKE_CHANNEL } from '../../src-shared/contract/channels'
import { Methods } from '../../src-shared/contract/ipc'
import { loopbackOrigins } from '../transport/origins'
import { JSON_NORMALIZED_METHODS } from '../transport/router'
import { createTestHostCore } from '../transport/test-host-core'
import { attachWebSocket } from '../transport/ws-server'
import { BrowserWindow, FakeIpcMain, invokeEvent } from './fake-electron'
import { registerIpc } from './ipc'
import type { AppPage } from './security'

const page: AppPage = { kind: 'app' }
const closers: Array<() => Promise<void>> = []

afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

function pluginReturning(value: () => unknown) {
  return createTestHostCore('web', { 'plugins/call': async () => value() })
}

async function viaIpc(result: () => unknown, input: unknown = {}): Promise<unknown> {
  const ipcMain = new FakeIpcMain()
  const core = pluginReturning(result)
  registerIpc({ ipcMain: ipcMain as unknown as IpcMain, core, page, log: () => {} }).attachWindow(new BrowserWindow({}) as unknown as ElectronWindow)
  const window = BrowserWindow.created.at(-1)!
  window.webContents.finishLoad('seam://app/index.html')
  const handler = ipcMain.handlers.get(IPC_INVOKE_CHANNEL)!
  // Electron clones the request into the main process and the reply back to the renderer.
  const request = structuredClone({ method: 'plugins/call', input: { plugin: 'p', method: 'm', input } })
  const reply = await handler(invokeEvent(window.webContents, { url: 'seam://app/index.html', parent: null }), request)
  return structuredClone(reply)
}

async function viaWebSocket(result: () => unknown, input: unknown = {}): Promise<unknown> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const ws = attachWebSocket(server, pluginReturning(result), { allowedOrigins: () => loopbackOrigins(port), log: () => {} })
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { origin: `http://127.0.0.1:${port}` })
  closers.push(async () => {
    socket.terminate()
    await ws.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  const reply = new Promise<unknown>((resolve) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number }
      if (message.id === 1) resolve(message)
    })
  })
  // The browser side serialises with JSON too.
  socket.send(JSON.stringify({ id: 1, method: 'plugins/call', input: { plugin: 'p', method: 'm', input } }))
  const { id: _id, ...rest } = (await reply) as { id: number }
  return rest
}

describe('plugin RPC gives the same answer over Electron IPC and the WebSocket', () => {
  it('Dates, Maps, Sets, undefined, functions, NaN and nested values', async () => {
    const result = () => ({
      when: new Date(0),
      map: new Map([['a', 1]]),
      set: new Set([1]),
      gone: undefined,
      fn: () => 1,
      nan: Number.NaN,
      list: [undefined, () => 2, 3],
      nested: { toJSON: () => 'custom' }
    })
    const ipc = await viaIpc(result)
    const web = await viaWebSocket(result)
    expect(ipc).toEqual(web)
    expect(ipc).toStrictEqual({
      ok: true,
      output: { when: '1970-01-01T00:00:00.000Z', map: {}, set: {}, nan: null, list: [null, null, 3], nested: 'custom' }
    })
  })

  it('a bare function or undefined result is no output on both', async () => {
    for (const result of [() => () => 1, () => undefined]) {
      const ipc = (await viaIpc(result)) as { ok: boolean; output?: unknown }
      const web = (await viaWebSocket(result)) as { ok: boolean; output?: unknown }
      expect(ipc.ok && web.ok).toBe(true)
      expect(ipc.output).toBeUndefined()
      expect(web.output).toBeUndefined()
    }
  })

  it('a result JSON cannot carry (BigInt, a cycle) is INVALID_OUTPUT on both, not a dropped reply', async () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    for (const result of [() => ({ big: 10n }), () => cyclic]) {
      const ipc = await viaIpc(result)
      const web = await viaWebSocket(result)
      expect(ipc).toEqual(web)
      expect(ipc).toMatchObject({ ok: false, error: { code: 'INVALID_OUTPUT', field: '(root)' } })
      expect((ipc as { error: { message: string } }).error.message).toMatch(/^plugins\/call output is not JSON: /)
    }
  })

  it('the plugin sees the same input from both (a Date sent over IPC arrives as its JSON text)', async () => {
    const seen: unknown[] = []
    const echo = () => seen.at(-1)
    const capture = (input: unknown) => {
      const core = createTestHostCore('web', {
        'plugins/call': async (parsed) => {
          seen.push(parsed.input)
          return parsed.input
        }
      })
      return core.router.invoke('plugins/call', { plugin: 'p', method: 'm', input }, { transport: 'electron' })
    }
    await capture({ at: new Date(0), m: new Map() })
    expect(echo()).toEqual({ at: '1970-01-01T00:00:00.000Z', m: {} })
  })

  it('every method whose output the contract leaves open is JSON-normalized', () => {
    const open = Object.entries(Methods)
      .filter(([, spec]) => (spec.output as { def?: { type?: string } }).def?.type === 'unknown')
      .map(([name]) => name)
    expect(open).toContain('plugins/call')
    for (const name of open) expect(JSON_NORMALIZED_METHODS.has(name as never), name).toBe(true)
  })
})
