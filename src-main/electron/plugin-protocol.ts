// `seam-plugin://bundles/<name>/<file>`: installed bundles' client entries, resolved by the Host
// and served read-only, to the app's own origin only (the Origin of the module request must be
// the app's, and the CORS header names that origin, never `*`). The scheme is registered before
// 'ready' (app-protocol.ts registers both schemes in one call).
import { readFile } from 'node:fs/promises'
import { protocol, type Session } from 'electron'
import { PLUGIN_SCHEME } from '../transport/csp'
import { parsePluginPath } from '../transport/plugin-path'
import { contentTypeFor, regularFile } from '../transport/static-files'

/** Only the plugin scheme; the app registers both schemes with registerAppSchemes(). */
export function registerPluginScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: PLUGIN_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }
  ])
}

export type PluginFileResolver = (name: string, file: string) => string | null

/**
 * `requestOrigin` is the request's Origin header; `appOrigin` the app's own (seam://app, or the
 * dev server's). Anything else (another page, a request without an Origin) gets 403.
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

export function handlePluginProtocol(session: Session, resolve: PluginFileResolver | undefined, appOrigin: string): void {
  session.protocol.handle(PLUGIN_SCHEME, (request) => pluginResponse(request.url, resolve, request.headers.get('origin'), appOrigin))
}
