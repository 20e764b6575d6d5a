// Web mode's HTTP server: the built renderer as static files (SPA fallback to index.html),
// installed bundles' client entries under /plugins/<name>/<file>, and the WebSocket transport
// on /ws. Bound to loopback by default; every response carries the UI's security headers.
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { CONTENT_SECURITY_POLICY, webContentSecurityPolicy } from '../transport/csp'
import type { HostCore } from '../transport/host-core'
import { loopbackOrigins } from '../transport/origins'
import { parsePluginPath } from '../transport/plugin-path'
import type { TransportLog } from '../transport/push-hub'
import { attachWebSocket, WS_PATH } from '../transport/ws-server'
import type { AccessGate } from './access'
import { contentTypeFor, decodeRequestPath, findFileInside, regularFile, type FoundFile } from '../transport/static-files'

export const DEFAULT_WEB_PORT = 5180
export const DEFAULT_WEB_HOST = '127.0.0.1'

export interface WebServerOptions {
  core: HostCore
  /** Default 5180; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. Anything else exposes the UI (and the agent's tools) to that network. */
  host?: string
  /** The built renderer (out/renderer). */
  rendererDir: string
  /** Client entries of installed bundles; defaults to core.resolvePluginFile; null -> 404. */
  resolvePluginFile?: (name: string, file: string) => string | null
  /** Further origins allowed on the WebSocket (e.g. the address remote users type). */
  extraOrigins?: readonly string[]
  /** When given, every request and the WebSocket upgrade must carry its token (see access.ts). */
  access?: AccessGate
  log?: TransportLog
}

export interface WebServer {
  /** `http://127.0.0.1:PORT` (or the bound host). */
  readonly url: string
  readonly port: number
  readonly host: string
  close(): Promise<void>
}

/** The headers every response carries; `startWebServer` narrows connect-src to its own address. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin'
}

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? DEFAULT_WEB_HOST
  const rendererDir = resolve(options.rendererDir)
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[seam] ${message}`, error ?? ''))
  const resolvePlugin = options.resolvePluginFile ?? options.core.resolvePluginFile?.bind(options.core)
  const loopbackOnly = LOOPBACK_HOSTNAMES.has(host)
  let port = 0
  // Narrowed to this instance's own WebSocket address once the port is known (before any request).
  let headers: Readonly<Record<string, string>> = SECURITY_HEADERS
  const sendText = (res: ServerResponse, status: number, text: string) => sendTextWith(headers, res, status, text)

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`web request ${req.method} ${req.url} failed`, error)
      if (!res.headersSent) sendText(res, 500, 'Internal Server Error')
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD')
      return sendText(res, 405, 'Method Not Allowed')
    }
    // DNS rebinding: a loopback-bound server answers only to loopback names.
    if (loopbackOnly && !isLoopbackHostHeader(req.headers.host)) return sendText(res, 421, 'Misdirected Request')
    if (options.access) {
      if (options.access.land(req, res, headers)) return
      if (!options.access.allows(req)) {
        return sendText(res, 401, 'This Seam web UI needs the address printed when it started (it carries an access token). Open that link.')
      }
    }
    let pathname: string
    try {
      pathname = new URL(req.url ?? '/', 'http://host.invalid').pathname
    } catch {
      return sendText(res, 400, 'Bad Request')
    }
    if (pathname === WS_PATH) return sendText(res, 426, 'Upgrade Required')
    if (pathname.startsWith('/plugins/')) return servePlugin(req, res, pathname.slice('/plugins/'.length))

    const decoded = decodeRequestPath(pathname)
    if (decoded === null || decoded.split('/').includes('..')) return sendText(res, 400, 'Bad Request')
    if (decoded === '/' || decoded === '/index.html') return serveIndex(req, res)
    const file = await findFileInside(rendererDir, decoded)
    if (file) return sendFile(headers, req, res, file, decoded.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
    // Paths without an extension are routes of the single-page app; missing files are 404s.
    const last = decoded.split('/').pop() ?? ''
    if (!last.includes('.')) return serveIndex(req, res)
    return sendText(res, 404, 'Not Found')
  }

  async function serveIndex(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let html: string
    try {
      html = await readFile(join(rendererDir, 'index.html'), 'utf8')
    } catch {
      return sendText(res, 503, 'The renderer is not built: run `npm run build`.')
    }
    // The build uses relative asset URLs (for file:// in Electron); pin them to the root so
    // they resolve from nested SPA routes too.
    if (!/<base\s/i.test(html)) html = html.replace(/<head(\s[^>]*)?>/i, (tag) => `${tag}<base href="/">`)
    const body = Buffer.from(html, 'utf8')
    res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache' })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  async function servePlugin(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const request = parsePluginPath(rest)
    if (!request || !resolvePlugin) return sendText(res, 404, 'Not Found')
    const path = resolvePlugin(request.name, request.file)
    const file = path ? await regularFile(path) : null
    if (!file) return sendText(res, 404, 'Not Found')
    return sendFile(headers, req, res, file, 'no-cache')
  }

  await new Promise<void>((resolveListen, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new Error(`Port ${options.port ?? DEFAULT_WEB_PORT} on ${host} is in use: set PORT to another port (or 0 for any free one).`))
      } else reject(error)
    }
    server.once('error', onError)
    server.listen(options.port ?? DEFAULT_WEB_PORT, host, () => {
      server.off('error', onError)
      resolveListen()
    })
  })
  port = (server.address() as AddressInfo).port
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const url = `http://${displayHost}:${port}`
  const origins = [...loopbackOrigins(port), url, ...(options.extraOrigins ?? [])]
  headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': webContentSecurityPolicy(origins) }
  const access = options.access
  access?.bindPort(port)
  const ws = attachWebSocket(server, options.core, {
    allowedOrigins: origins,
    log,
    ...(loopbackOnly ? { allowHost: isLoopbackHostHeader } : {}),
    ...(access ? { authorize: (req: IncomingMessage) => access.allows(req) } : {})
  })

  return {
    url,
    port,
    host,
    async close() {
      await ws.close()
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose())
        server.closeAllConnections()
      })
    }
  }
}

function isLoopbackHostHeader(header: string | undefined): boolean {
  if (!header) return false
  try {
    return LOOPBACK_HOSTNAMES.has(new URL(`http://${header}`).hostname)
  } catch {
    return false
  }
}

function sendTextWith(headers: Readonly<Record<string, string>>, res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' })
  res.end(text)
}

function sendFile(headers: Readonly<Record<string, string>>, req: IncomingMessage, res: ServerResponse, file: FoundFile, cacheControl: string): void {
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentTypeFor(file.path),
    'Content-Length': file.size,
    'Last-Modified': file.mtime.toUTCString(),
    'Cache-Control': cacheControl
  })
  if (req.method === 'HEAD') return void res.end()
  const stream = createReadStream(file.path)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}
