// `seam-plugin://bundles/<name>/<file>`: installed bundles' client entries for the file:// app
// page, resolved by the Host and served read-only. The scheme is registered before 'ready'.
import { readFile } from 'node:fs/promises'
import { protocol, type Session } from 'electron'
import { PLUGIN_SCHEME } from '../transport/csp'
import { parsePluginPath } from '../transport/plugin-path'
import { contentTypeFor, regularFile } from '../transport/static-files'

export function registerPluginScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: PLUGIN_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }
  ])
}

export type PluginFileResolver = (name: string, file: string) => string | null

export async function pluginResponse(url: string, resolve: PluginFileResolver | undefined): Promise<Response> {
  const notFound = () => new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } })
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
      // Module scripts are fetched in CORS mode; the file:// page's origin is opaque.
      'access-control-allow-origin': '*'
    }
  })
}

export function handlePluginProtocol(session: Session, resolve: PluginFileResolver | undefined): void {
  session.protocol.handle(PLUGIN_SCHEME, (request) => pluginResponse(request.url, resolve))
}
