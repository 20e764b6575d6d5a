// A real npm registry on loopback for tests: verdaccio (the devDependency, run as its own
// process) with a temp storage, an htpasswd user store and no uplinks, so nothing leaves the
// machine. In front of it, a loopback proxy that records every request (to prove what was, or
// was not, downloaded) and can alter tarball bytes or a packument's integrity on the way through
// (to prove the client refuses them). Users are created through the registry's own adduser
// endpoint; bundles are published with the real `npm publish`.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = path.resolve(import.meta.dirname, '..')
const VERDACCIO_BIN = path.join(ROOT, 'node_modules/verdaccio/bin/verdaccio')

export type Tamper =
  /** Flip a byte in every tarball served. */
  | 'tarball-bytes'
  /** Replace every version's dist.integrity in packuments with the hash of other bytes. */
  | 'packument-integrity'
  | null

export interface LocalRegistry {
  /** verdaccio itself, e.g. http://127.0.0.1:4873/ */
  directUrl: string
  /** The recording (and optionally tampering) proxy in front of it. */
  proxyUrl: string
  /** Every request the proxy forwarded, in order: method and path. */
  requests: { method: string; path: string; accept?: string; authorization: boolean }[]
  tamper: Tamper
  /** verdaccio's own log lines (JSON, level http). */
  log(): string
  /** Creates a user through PUT /-/user/org.couchdb.user:NAME and returns its token. */
  addUser(name: string, password: string): Promise<string>
  /** `npm publish DIR` to verdaccio with the given token. */
  publish(dir: string, token: string): Promise<void>
  close(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

function configYaml(storage: string, htpasswd: string): string {
  return [
    `storage: ${JSON.stringify(storage)}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(htpasswd)}`,
    '    max_users: 100',
    // No uplinks: a package that is not here is a 404, never a fetch from elsewhere.
    'uplinks: {}',
    'packages:',
    "  '@private/*':",
    '    access: $authenticated',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'web:',
    '  enable: false',
    'log: { type: stdout, format: json, level: http }',
    ''
  ].join('\n')
}

export async function startLocalRegistry(): Promise<LocalRegistry> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seam-registry-'))
  const storage = path.join(dir, 'storage')
  await mkdir(storage)
  const config = path.join(dir, 'config.yaml')
  await writeFile(config, configYaml(storage, path.join(dir, 'htpasswd')))
  const port = await freePort()
  const directUrl = `http://127.0.0.1:${port}/`
  const child: ChildProcess = spawn(process.execPath, [VERDACCIO_BIN, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' }
  })
  let output = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const exited = once(child, 'exit')

  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}): ${output}`)
    try {
      const response = await fetch(`${directUrl}-/ping`)
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill()
      throw new Error(`verdaccio did not answer on ${directUrl} within 30 s: ${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }

  const registry: LocalRegistry = {
    directUrl,
    proxyUrl: '',
    requests: [],
    tamper: null,
    log: () => output,
    async addUser(name, password) {
      const response = await fetch(`${directUrl}-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, email: `${name}@example.invalid`, type: 'user', roles: [], date: new Date().toISOString() })
      })
      const body = (await response.json()) as { token?: string; error?: string }
      if (response.status !== 201 || !body.token) throw new Error(`adduser ${name}: ${response.status} ${JSON.stringify(body)}`)
      return body.token
    },
    async publish(bundle, token) {
      const userconfig = path.join(dir, `publish-${Date.now()}-${Math.random().toString(16).slice(2)}.npmrc`)
      await writeFile(userconfig, `//127.0.0.1:${port}/:_authToken=${token}\n`)
      try {
        await run('npm', ['publish', bundle, '--registry', directUrl, '--userconfig', userconfig, '--ignore-scripts', '--access', 'public', '--provenance=false'], {
          cwd: dir,
          env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }
        })
      } finally {
        await rm(userconfig, { force: true })
      }
    },
    async close() {
      proxy.closeAllConnections()
      proxy.close()
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      await rm(dir, { recursive: true, force: true })
    }
  }

  const proxy = http.createServer((req, res) => void forward(registry, port, req, res))
  proxy.listen(0, '127.0.0.1')
  await once(proxy, 'listening')
  registry.proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`
  return registry
}

async function forward(registry: LocalRegistry, port: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/'
  registry.requests.push({ method: req.method ?? 'GET', path: url, accept: req.headers.accept, authorization: req.headers.authorization !== undefined })
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  // The Host header goes through unchanged: verdaccio writes tarball URLs for the host it was asked on (this proxy).
  const headers = { ...req.headers, 'accept-encoding': 'identity' }
  const upstream = http.request({ host: '127.0.0.1', port, path: url, method: req.method, headers })
  upstream.end(Buffer.concat(chunks))
  upstream.on('error', (error) => {
    res.writeHead(502, { 'content-type': 'text/plain' })
    res.end(`proxy: ${error.message}`)
  })
  upstream.on('response', async (answer) => {
    const parts: Buffer[] = []
    for await (const chunk of answer) parts.push(chunk as Buffer)
    let body = Buffer.concat(parts)
    const type = String(answer.headers['content-type'] ?? '')
    if (registry.tamper === 'tarball-bytes' && url.endsWith('.tgz') && body.length > 0) {
      body = Buffer.from(body)
      body[body.length - 1] ^= 0xff
    } else if (registry.tamper === 'packument-integrity' && type.includes('json') && answer.statusCode === 200) {
      const doc = JSON.parse(body.toString('utf8')) as { versions?: Record<string, { dist?: { integrity?: string } }> }
      for (const version of Object.values(doc.versions ?? {})) {
        if (version.dist?.integrity) version.dist.integrity = `sha512-${Buffer.alloc(64, 7).toString('base64')}`
      }
      body = Buffer.from(JSON.stringify(doc))
    }
    const out = { ...answer.headers, 'content-length': String(body.length) }
    delete out['transfer-encoding']
    delete out.etag
    res.writeHead(answer.statusCode ?? 502, out)
    res.end(body)
  })
}
