// Web mode's access token, on a real server: the printed link sets a cookie; without it neither
// the page nor the WebSocket opens.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createTestHostCore } from '../transport/test-host-core'
import { accessCookieName, createAccessGate, newAccessToken } from './access'
import { startWebServer, type WebServer } from './server'

const token = newAccessToken()
let root: string
let server: WebServer

function get(path: string, cookie?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${server.port}` }
    if (cookie) headers.cookie = cookie
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

function openSocket(headers: Record<string, string>, path = '/ws', port = server.port): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { origin: `http://127.0.0.1:${port}`, ...headers } })
    ws.on('open', () => {
      ws.close()
      resolve('open')
    })
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.on('error', () => resolve(0))
  })
}

let ACCESS_COOKIE: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-web-access-'))
  await mkdir(join(root, 'renderer'))
  await writeFile(join(root, 'renderer', 'index.html'), '<!doctype html><html><head></head><body>seam</body></html>')
  server = await startWebServer({ core: createTestHostCore('web'), port: 0, rendererDir: join(root, 'renderer'), access: createAccessGate(token), log: () => {} })
  ACCESS_COOKIE = accessCookieName(server.port)
})

afterAll(async () => {
  await server.close()
  await rm(root, { recursive: true, force: true })
})

describe('web access token', () => {
  it('refuses the page without the token, and with a wrong one', async () => {
    expect((await get('/')).status).toBe(401)
    expect((await get('/?token=nope')).status).toBe(401)
    expect((await get('/')).body).toContain('access token')
  })

  it('the printed link sets an HttpOnly, SameSite=Strict cookie and redirects to the page without the token', async () => {
    const landing = await get(`/?token=${token}`)
    expect(landing.status).toBe(303)
    expect(landing.headers.location).toBe('/')
    expect(String(landing.headers['set-cookie'])).toMatch(new RegExp(`^${ACCESS_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`))
    const page = await get('/', `${ACCESS_COOKIE}=${token}`)
    expect(page.status).toBe(200)
    expect(page.body).toContain('seam')
  })

  it('the WebSocket opens only with the token', async () => {
    expect(await openSocket({})).toBe(401)
    expect(await openSocket({ cookie: `${ACCESS_COOKIE}=wrong` })).toBe(401)
    expect(await openSocket({ cookie: `other=1; ${ACCESS_COOKIE}=${token}` })).toBe('open')
  })

  it('accepts the token in the query only on the landing request, never on the WebSocket or as a pass for one request (issue 13: Web mode)', async () => {
    expect(await openSocket({}, `/ws?token=${token}`)).toBe(401)
    // Any other path with the token is a landing too: it only sets the cookie and redirects, serving nothing.
    const asset = await get(`/index.html?token=${token}`)
    expect(asset.status).toBe(303)
    expect(asset.body).toBe('')
  })

  it('names the cookie per instance: two Seam web hosts on one machine do not share or overwrite it (issue 13: Web mode)', async () => {
    const other = await startWebServer({ core: createTestHostCore('web'), port: 0, rendererDir: join(root, 'renderer'), access: createAccessGate(token), log: () => {} })
    try {
      expect(accessCookieName(other.port)).not.toBe(ACCESS_COOKIE)
      // Even with the same token, this instance's cookie does not open the other one.
      expect(await openSocket({ cookie: `${ACCESS_COOKIE}=${token}` }, '/ws', other.port)).toBe(401)
      expect(await openSocket({ cookie: `${accessCookieName(other.port)}=${token}` }, '/ws', other.port)).toBe('open')
    } finally {
      await other.close()
    }
  })

  it('checks the Host header on the WebSocket upgrade as the HTTP side does (DNS rebinding; issue 13: Web mode)', async () => {
    const cookie = `${ACCESS_COOKIE}=${token}`
    expect(await openSocket({ cookie, host: `rebind.attacker.test:${server.port}` })).toBe(421)
    expect(await openSocket({ cookie, host: `localhost:${server.port}` })).toBe('open')
  })

  it('the page\'s CSP lets it reach only this host\'s own WebSocket address (issue 13: Web mode)', async () => {
    const page = await get('/', `${ACCESS_COOKIE}=${token}`)
    const connect = String(page.headers['content-security-policy']).split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src'))
    expect(connect).toBe(`connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port} ws://[::1]:${server.port}`)
  })
})
