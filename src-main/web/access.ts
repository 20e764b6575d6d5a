// Web mode's access token. Binding to 127.0.0.1 keeps other machines out, not other local users
// or processes, and this UI runs shell commands. So the host prints its URL with a one-time
// `?token=`; that landing visit trades it for an HttpOnly, SameSite=Strict cookie (and a redirect
// to the clean URL), and every later request (static files and the WebSocket upgrade) must carry
// the cookie: the token in a query string is accepted nowhere else. The cookie is named after the
// port, because cookies ignore ports: two Seam instances on one machine keep their own.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The cookie of the instance listening on `port`. */
export function accessCookieName(port: number): string {
  return `seam_token_${port}`
}

export interface AccessGate {
  readonly token: string
  /** The name of the cookie (per instance: set once the port is known). */
  readonly cookieName: string
  /** Names the cookie after the port the server listens on. */
  bindPort(port: number): void
  /** True when the request carries this instance's cookie with the token. */
  allows(req: IncomingMessage): boolean
  /**
   * A visit with `?token=` in the URL: set the cookie and redirect to the same page without it,
   * so the token does not stay in the address bar or the history. Returns true when handled.
   */
  land(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): boolean
}

export function newAccessToken(): string {
  return randomBytes(24).toString('base64url')
}

export function createAccessGate(token: string): AccessGate {
  const expected = Buffer.from(token)
  const matches = (candidate: string | undefined | null) => {
    if (!candidate) return false
    const given = Buffer.from(candidate)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
  let cookieName = 'seam_token'
  return {
    token,
    get cookieName() {
      return cookieName
    },
    bindPort(port) {
      cookieName = accessCookieName(port)
    },
    allows: (req) => matches(cookieOf(req, cookieName)),
    land(req, res, headers) {
      const url = parseUrl(req)
      if (!url || !url.searchParams.has('token')) return false
      if (!matches(url.searchParams.get('token'))) return false
      url.searchParams.delete('token')
      res.writeHead(303, {
        ...headers,
        'Set-Cookie': `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        Location: `${url.pathname}${url.search}`,
        'Cache-Control': 'no-store'
      })
      res.end()
      return true
    }
  }
}

function parseUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://host.invalid')
  } catch {
    return null
  }
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie
  if (!header) return undefined
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
  }
  return undefined
}
