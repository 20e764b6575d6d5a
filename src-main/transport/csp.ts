// The Content Security Policy of the UI, one source for the web server's header, the Electron
// session header and (kept equal by a test) the meta tag in src-renderer/index.html.

/** Scheme the Electron shell serves installed bundles' client entries from. */
export const PLUGIN_SCHEME = 'seam-plugin'

const directives: Array<[string, string]> = [
  ['default-src', "'self'"],
  ['script-src', `'self' ${PLUGIN_SCHEME}:`],
  ['style-src', "'self' 'unsafe-inline'"],
  // 'self' covers the page's own ws:// address (CSP3); web mode's header names it too, and nothing else.
  ['connect-src', "'self'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self' data:"],
  ['object-src', "'none'"],
  ['base-uri', "'self'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"]
]

export const CONTENT_SECURITY_POLICY = directives.map(([name, value]) => `${name} ${value}`).join('; ')

/** What a <meta> tag can carry: browsers ignore frame-ancestors there (and warn about it). */
export const META_CONTENT_SECURITY_POLICY = directives
  .filter(([name]) => name !== 'frame-ancestors')
  .map(([name, value]) => `${name} ${value}`)
  .join('; ')

/**
 * Web mode's header: connect-src allows the host's own WebSocket addresses only (never any local
 * port, which would let a compromised page reach other local services).
 */
export function webContentSecurityPolicy(ownOrigins: readonly string[]): string {
  const sockets = [...new Set(ownOrigins.map((origin) => origin.replace(/^http/, 'ws')))]
  return CONTENT_SECURITY_POLICY.replace(`connect-src 'self'`, ['connect-src', "'self'", ...sockets].join(' '))
}

/** The dev server's React refresh preamble is an inline script; allowed in development only. */
export function contentSecurityPolicy(options: { dev?: boolean } = {}): string {
  if (!options.dev) return CONTENT_SECURITY_POLICY
  return CONTENT_SECURITY_POLICY.replace(`script-src 'self'`, `script-src 'self' 'unsafe-inline'`)
}

/** Where the renderer loads an installed bundle's client entry from, per transport. */
export function pluginClientUrl(mode: 'electron' | 'web', name: string, file: string): string {
  const path = `${encodeURIComponent(name)}/${file.split('/').map(encodeURIComponent).join('/')}`
  return mode === 'electron' ? `${PLUGIN_SCHEME}://bundles/${path}` : `/plugins/${path}`
}
