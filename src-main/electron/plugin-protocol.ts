// `seam-plugin://bundles/<name>/<file>`: installed bundles' client entries, resolved by the Host
// and served read-only, to the app's own origin only, and the CORS header names that origin,
// never `*`. Who asks is read from Electron's `request.initiatorOrigin` (set by the browser for
// requests web content makes, not writable by the page, absent for requests the browser starts
// itself), not from an Origin header a custom scheme's request may not carry. The scheme is
// registered before 'ready' (app-protocol.ts registers both schemes in one call).
import { readFile } from 'node:fs/promises'
import type { Session } from 'electron'
import { PLUGIN_SCHEME } from '../transport/csp'
import { parsePluginPath } from '../transport/plugin-path'
import { contentTypeFor, regularFile } from '../transport/static-files'

export type PluginFileResolver = (name: string, file: string) => string | null

/**
 * `requestOrigin` is the request's initiator origin; `appOrigin` the app's own (seam://app, or the
 * dev server's). Anything else (another page, an opaque origin, no initiator) gets 403.
 */
export async function pluginResponse(url: string, resolve: PluginFileResolver | undefined, requestOrigin: string | null, appOrigin: string): Promise<Response> {
  const notFound = () => new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } })
  if (requestOrigin === null || requestOrigin !== appOrigin) {
    return new Response('Forbidden: bundle client code is served to the Seam app only', { status: 403, headers: { 'content-type': 'text/plain', vary: 'Origin' } })
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return notFound()
  }
  if (parsed.protocol !== `${PLUGIN_SCHEME}:` || parsed.host !== 'bundles' || !resolve) return notFound()
  const request = parsePluginPath(parsed.pathname)
  if (!request) return notFound()
  const path = resolve(request.name, request.file)
  const file = path ? await regularFile(path) : null
  if (!file) return notFound()
  return new Response(new Uint8Array(await readFile(file.path)), {
    status: 200,
    headers: {
      'content-type': contentTypeFor(file.path),
      'x-content-type-options': 'nosniff',
      // Module scripts are fetched in CORS mode: allowed for the app's own origin, no other.
      'access-control-allow-origin': appOrigin,
      vary: 'Origin'
    }
  })
}

/** Electron's request: a fetch `Request` that also carries `initiatorOrigin` (Electron 45's protocol.handle). */
export type ProtocolRequest = Request & { readonly initiatorOrigin?: string }

/** The origin that made `request`, as Electron reports it; null for a browser-started request. */
export function initiatorOf(request: ProtocolRequest): string | null {
  return typeof request.initiatorOrigin === 'string' ? request.initiatorOrigin : null
}

export function pluginRequestHandler(resolve: PluginFileResolver | undefined, appOrigin: string, log: (message: string) => void): (request: Request) => Promise<Response> {
  return async (request) => {
    const initiator = initiatorOf(request)
    if (initiator !== appOrigin) log(`seam-plugin: refused ${request.url} to ${initiator === null ? 'a request without an initiator' : initiator}`)
    return pluginResponse(request.url, resolve, initiator, appOrigin)
  }
}

export function handlePluginProtocol(session: Session, resolve: PluginFileResolver | undefined, appOrigin: string, log: (message: string) => void): void {
  session.protocol.handle(PLUGIN_SCHEME, pluginRequestHandler(resolve, appOrigin, log))
}
