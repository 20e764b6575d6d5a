// `seam://app/`: the desktop app's own origin. The built renderer is served from this privileged
// custom scheme (protocol.handle) with the strict CSP on every response, never from file://, so
// file:// is not an origin the app trusts: a page opened from disk can neither pass the IPC
// sender check nor load bundles' client code. Registered before 'ready', with the plugin scheme.
import { readFile } from 'node:fs/promises'
import { protocol, type Session } from 'electron'
import { contentSecurityPolicy, PLUGIN_SCHEME } from '../transport/csp'
import { contentTypeFor, decodeRequestPath, findFileInside } from '../transport/static-files'
import { APP_HOST, APP_SCHEME } from './app-origin'

export { APP_HOST, APP_ORIGIN, APP_SCHEME, APP_URL, appOriginOf, devServerUrlFor } from './app-origin'

/** Both schemes in one call: a later registerSchemesAsPrivileged call replaces an earlier one. */
export function registerAppSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    // standard + secure: a real origin with 'self', fetch and module scripts, like https.
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    { scheme: PLUGIN_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } }
  ])
}

const RESPONSE_HEADERS = {
  'content-security-policy': contentSecurityPolicy(),
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer'
}

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...RESPONSE_HEADERS, 'content-type': 'text/plain; charset=utf-8' } })
}

/** One request of `seam://app/...`: a file inside `rendererDir`, the SPA's index.html for routes, 404 otherwise. */
export async function appResponse(url: string, rendererDir: string): Promise<Response> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return text(400, 'Bad Request')
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return text(404, 'Not Found')
  const decoded = decodeRequestPath(parsed.pathname)
  if (decoded === null || decoded.split('/').includes('..')) return text(400, 'Bad Request')
  const wanted = decoded === '/' ? '/index.html' : decoded
  let file = await findFileInside(rendererDir, wanted)
  // Paths without an extension are routes of the single-page app.
  if (!file && !(wanted.split('/').pop() ?? '').includes('.')) file = await findFileInside(rendererDir, '/index.html')
  if (!file) return text(404, 'Not Found')
  return new Response(new Uint8Array(await readFile(file.path)), {
    status: 200,
    headers: { ...RESPONSE_HEADERS, 'content-type': contentTypeFor(file.path), 'cache-control': 'no-cache' }
  })
}

export function handleAppProtocol(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, (request) => appResponse(request.url, rendererDir))
}
