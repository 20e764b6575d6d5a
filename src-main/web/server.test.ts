import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { pluginClientUrl } from '../transport/csp'
import { createTestHostCore } from '../transport/test-host-core'
import { startWebServer, type WebServer } from './server'

let root: string
let rendererDir: string
let server: WebServer

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw request: the path is sent as written, so `..` and `%2e` reach the server untouched. */
function get(path: string, options: { method?: string; host?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${server.port}` } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      }
    )
    req.on('error', reject)
    req.end()
  })
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-web-'))
  rendererDir = join(root, 'renderer')
  await mkdir(join(rendererDir, 'assets'), { recursive: true })
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div></body></html>')
  await writeFile(join(rendererDir, 'assets', 'index-abc.js'), 'console.log("app")')
  await writeFile(join(rendererDir, 'assets', 'style.css'), 'body{}')
  await writeFile(join(root, 'secret.txt'), 'top secret')
  await symlink(join(root, 'secret.txt'), join(rendererDir, 'assets', 'link.txt'))
  const pluginDir = join(root, 'bundles', 'demo')
  await mkdir(join(pluginDir, 'dist'), { recursive: true })
  await writeFile(join(pluginDir, 'dist', 'client.js'), 'export default {}')
  server = await startWebServer({
    core: createTestHostCore('web'),
    port: 0,
    rendererDir,
    log: () => {},
    resolvePluginFile: (name, file) =>
      (name === 'demo' || name === '@acme/demo') && file === 'dist/client.js' ? join(pluginDir, 'dist', 'client.js') : null
  })
})

afterAll(async () => {
  await server?.close()
  await rm(root, { recursive: true, force: true })
})

describe('web server', () => {
  it('listens on 127.0.0.1 and reports its URL', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
    expect(server.port).toBeGreaterThan(0)
  })

  it('serves index.html with the CSP and nosniff headers', async () => {
    const reply = await get('/')
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8')
    const csp = String(reply.headers['content-security-policy'])
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", `connect-src 'self' ws://127.0.0.1:${server.port} `]) {
      expect(csp).toContain(directive)
    }
    expect(csp).not.toContain('unsafe-eval')
    expect(reply.headers['x-content-type-options']).toBe('nosniff')
    expect(reply.body).toContain('<div id="root">')
    expect(reply.body).toContain('<base href="/">')
  })

  it('serves assets with their content types', async () => {
    const js = await get('/assets/index-abc.js')
    expect(js.status).toBe(200)
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.body).toBe('console.log("app")')
    expect(js.headers['content-security-policy']).toBeTruthy()
    expect((await get('/assets/style.css')).headers['content-type']).toBe('text/css; charset=utf-8')
    const head = await get('/assets/index-abc.js', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
  })

  it('falls back to index.html for app routes, 404 for missing files', async () => {
    const route = await get('/sessions/abc')
    expect(route.status).toBe(200)
    expect(route.body).toContain('<div id="root">')
    expect((await get('/assets/missing.js')).status).toBe(404)
  })

  it('refuses directory traversal in every spelling, and symlinks out of the root', async () => {
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e%5csecret.txt', '/assets/%00x.js', '/assets/link.txt']) {
      const reply = await get(path)
      expect(reply.body, path).not.toContain('top secret')
      expect([400, 404], path).toContain(reply.status)
    }
  })

  it('serves plugin client entries through the resolver only', async () => {
    const entry = await get('/plugins/demo/dist/client.js')
    expect(entry.status).toBe(200)
    expect(entry.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(entry.body).toBe('export default {}')
    expect((await get(pluginClientUrl('web', '@acme/demo', 'dist/client.js'))).body).toBe('export default {}')
    expect((await get('/plugins/demo/dist/other.js')).status).toBe(404)
    expect((await get('/plugins/demo/..%2f..%2fsecret.txt')).status).toBe(404)
    expect((await get('/plugins/unknown/x.js')).status).toBe(404)
  })

  it('answers only GET and HEAD, and only to loopback host names', async () => {
    expect((await get('/', { method: 'POST' })).status).toBe(405)
    expect((await get('/', { host: 'attacker.test' })).status).toBe(421)
    expect((await get('/', { host: `localhost:${server.port}` })).status).toBe(200)
  })

  it('carries the WebSocket transport on /ws', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { origin: server.url })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    const reply = new Promise<unknown>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))))
    socket.send(JSON.stringify({ id: 4, method: 'workspace/set', input: { path: '/w' } }))
    expect(await reply).toEqual({ id: 4, ok: true, output: { path: '/w' } })
    socket.close()
    expect((await get('/ws')).status).toBe(426)
  })
})
