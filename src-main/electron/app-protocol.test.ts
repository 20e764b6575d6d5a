// The renderer served from seam://app (issue 13: Electron): files inside the built renderer only,
// the strict CSP on every response, the dev server URL honoured in development only.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import { CONTENT_SECURITY_POLICY } from '../transport/csp'
import { FakeSession, protocol } from './fake-electron'
import { APP_ORIGIN, APP_URL, appOriginOf, appResponse, devServerUrlFor, handleAppProtocol, registerAppSchemes } from './app-protocol'

let root: string
let rendererDir: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-app-proto-'))
  rendererDir = join(root, 'renderer')
  await mkdir(join(rendererDir, 'assets'), { recursive: true })
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Seam</title>')
  await writeFile(join(rendererDir, 'assets', 'index-1.js'), 'console.log(1)')
  await writeFile(join(root, 'secret.txt'), 'outside the renderer')
})

afterAll(() => rm(root, { recursive: true, force: true }))

describe('seam://app protocol', () => {
  it('registers the app and plugin schemes as standard, secure schemes in one call', () => {
    protocol.privileged.length = 0
    registerAppSchemes()
    expect(protocol.privileged).toEqual([
      expect.objectContaining({ scheme: 'seam', privileges: expect.objectContaining({ standard: true, secure: true }) }),
      expect.objectContaining({ scheme: 'seam-plugin', privileges: expect.objectContaining({ standard: true, secure: true }) })
    ])
  })

  it('serves the built renderer with the strict CSP (no unsafe-inline script, no wildcard connect-src)', async () => {
    const page = await appResponse(APP_URL, rendererDir)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    const scriptSrc = page.headers.get('content-security-policy')!.split(';').find((d) => d.trim().startsWith('script-src'))
    expect(scriptSrc).not.toContain('unsafe-inline')
    expect(page.headers.get('content-security-policy')).not.toContain(':*')
    expect(await page.text()).toContain('<title>Seam</title>')
    const script = await appResponse(`${APP_ORIGIN}/assets/index-1.js`, rendererDir)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    // A route of the single-page app is the page; a missing file is not.
    expect(await (await appResponse(`${APP_ORIGIN}/sessions/abc`, rendererDir)).text()).toContain('Seam')
    expect((await appResponse(`${APP_ORIGIN}/assets/missing.js`, rendererDir)).status).toBe(404)
  })

  it('serves nothing outside the renderer folder, and nothing for another host', async () => {
    for (const url of [`${APP_ORIGIN}/../secret.txt`, `${APP_ORIGIN}/%2e%2e/secret.txt`, `${APP_ORIGIN}/..%2fsecret.txt`, 'seam://other/index.html']) {
      const response = await appResponse(url, rendererDir)
      expect(response.status, url).toBeGreaterThanOrEqual(400)
      expect(await response.text()).not.toContain('outside the renderer')
    }
  })

  it('is handled on the session', async () => {
    const session = new FakeSession()
    handleAppProtocol(session as never, rendererDir)
    const handler = session.protocolHandlers.get('seam')!
    const response = (await handler(new Request(APP_URL))) as Response
    expect(response.status).toBe(200)
  })

  it('the app origin is seam://app; file:// and look-alikes have none', () => {
    expect(appOriginOf('seam://app/index.html#/x')).toBe(APP_ORIGIN)
    for (const url of ['file:///opt/seam/out/renderer/index.html', 'seam://app:8080/', 'seam://u@app/', 'seam://apps/', 'seam-plugin://bundles/x']) {
      expect(appOriginOf(url), url).not.toBe(APP_ORIGIN)
    }
  })
})

describe('ELECTRON_RENDERER_URL (issue 13: Electron)', () => {
  it('is ignored in a packaged build', () => {
    expect(devServerUrlFor({ isPackaged: true, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' } })).toBeUndefined()
  })

  it('is honoured in development for a loopback http URL only', () => {
    expect(devServerUrlFor({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' } })).toBe('http://localhost:5173/')
    expect(devServerUrlFor({ isPackaged: false, env: {} })).toBeUndefined()
    for (const url of ['https://attacker.example/', 'http://evil.test:5173/', 'file:///tmp/x.html', 'http://u:p@localhost:5173/', 'not a url']) {
      expect(devServerUrlFor({ isPackaged: false, env: { ELECTRON_RENDERER_URL: url } }), url).toBeUndefined()
    }
  })
})
