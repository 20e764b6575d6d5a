import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import { pluginClientUrl } from '../transport/csp'
import { FakeSession, app, protocol } from './fake-electron'
import { handlePluginProtocol, pluginResponse, type ProtocolRequest } from './plugin-protocol'
import { registerAppSchemes } from './app-protocol'
import { APP_ORIGIN as APP } from './app-origin'

/** A request as Electron 45's protocol.handle passes it: a fetch Request plus `initiatorOrigin`. */
function electronRequest(url: string, init: { initiatorOrigin?: string; headers?: Record<string, string> } = {}): ProtocolRequest {
  const request = new Request(url, { headers: init.headers })
  return init.initiatorOrigin === undefined ? request : Object.assign(request, { initiatorOrigin: init.initiatorOrigin })
}

let root: string
let resolve: (name: string, file: string) => string | null

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-plugin-proto-'))
  await mkdir(join(root, 'scoped', 'dist'), { recursive: true })
  await writeFile(join(root, 'scoped', 'dist', 'client.js'), 'export default 1')
  await writeFile(join(root, 'outside.txt'), 'nope')
  resolve = (name, file) => (name === '@acme/panel' && file === 'dist/client.js' ? join(root, 'scoped', 'dist', 'client.js') : null)
})

afterAll(() => rm(root, { recursive: true, force: true }))

describe('seam-plugin:// protocol', () => {
  it('registers a secure, standard scheme, once and before ready as Electron requires', async () => {
    registerAppSchemes()
    expect(protocol.privileged).toContainEqual(expect.objectContaining({ scheme: 'seam-plugin', privileges: expect.objectContaining({ standard: true, secure: true }) }))
    expect(() => registerAppSchemes()).toThrow(/already called/)
    protocol.privileged.length = 0
    await app.whenReady()
    expect(() => registerAppSchemes()).toThrow(/before app is ready/)
    app.ready = false
  })

  it('serves a resolved client entry as JavaScript', async () => {
    const url = pluginClientUrl('electron', '@acme/panel', 'dist/client.js')
    expect(url).toBe('seam-plugin://bundles/%40acme%2Fpanel/dist/client.js')
    const response = await pluginResponse(url, resolve, APP, APP)
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(APP)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await response.text()).toBe('export default 1')
  })

  it('answers 404 for anything the resolver does not vouch for', async () => {
    for (const url of [
      'seam-plugin://bundles/%40acme%2Fpanel/dist/other.js',
      'seam-plugin://bundles/%40acme%2Fpanel/..%2F..%2Foutside.txt',
      'seam-plugin://elsewhere/%40acme%2Fpanel/dist/client.js',
      'seam-plugin://bundles/only-a-name'
    ]) {
      expect((await pluginResponse(url, resolve, APP, APP)).status, url).toBe(404)
    }
    expect((await pluginResponse('seam-plugin://bundles/x/y.js', undefined, APP, APP)).status).toBe(404)
  })

  it('serves client code only to the app\'s own origin, never with Access-Control-Allow-Origin: * (issue 13: Bundles)', async () => {
    const url = pluginClientUrl('electron', '@acme/panel', 'dist/client.js')
    for (const origin of [null, 'null', 'file://', 'https://attacker.example', 'seam://app.evil', 'http://localhost:5173']) {
      const response = await pluginResponse(url, resolve, origin, APP)
      expect(response.status, String(origin)).toBe(403)
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    }
    const dev = await pluginResponse(url, resolve, 'http://localhost:5173', 'http://localhost:5173')
    expect(dev.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })

  it("decides on Electron's request.initiatorOrigin, not on a header the request may lack or carry forged (issue 30)", async () => {
    const session = new FakeSession()
    const logged: string[] = []
    handlePluginProtocol(session as never, resolve, APP, (line) => logged.push(line))
    const handler = session.protocolHandlers.get('seam-plugin')!
    const url = pluginClientUrl('electron', '@acme/panel', 'dist/client.js')

    const fromApp = await handler(electronRequest(url, { initiatorOrigin: APP }))
    expect(fromApp.status).toBe(200)
    expect(await fromApp.text()).toBe('export default 1')

    // The browser itself (no initiator), even with an Origin header naming the app.
    const noInitiator = await handler(electronRequest(url, { headers: { origin: APP } }))
    expect(noInitiator.status).toBe(403)
    // Another origin, an opaque one (a sandboxed frame, data: URL), a look-alike.
    for (const initiatorOrigin of ['https://attacker.example', 'null', 'seam://app.evil', 'file://']) {
      const response = await handler(electronRequest(url, { initiatorOrigin, headers: { origin: APP } }))
      expect(response.status, initiatorOrigin).toBe(403)
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    }
    expect(logged).toContain(`seam-plugin: refused ${url} to a request without an initiator`)
    expect(logged).toContain(`seam-plugin: refused ${url} to https://attacker.example`)
    expect(logged).toHaveLength(5)
  })
})
