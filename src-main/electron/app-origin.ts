// The desktop app's own origin, `seam://app`, and the checks that compare with it. No electron
// import here, so the shell's trust decisions run in plain unit tests.

export const APP_SCHEME = 'seam'
export const APP_HOST = 'app'
/** What the renderer's `location.origin` reads as, and what every trust check compares with. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_URL = `${APP_ORIGIN}/index.html`

/** The app's origin for a page URL, or null. Custom schemes have an opaque origin in the URL parser, so compare scheme and host. */
export function appOriginOf(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol === `${APP_SCHEME}:`) return parsed.host === APP_HOST && !parsed.username && !parsed.password && !parsed.port ? APP_ORIGIN : null
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.username || parsed.password ? null : parsed.origin
  return null
}

/**
 * electron-vite's dev server, honoured only in development: a packaged app never loads a page
 * named by an environment variable, and even in development only a loopback http URL.
 */
export function devServerUrlFor(options: { isPackaged: boolean; env: Readonly<Record<string, string | undefined>> }): string | undefined {
  if (options.isPackaged) return undefined
  const value = options.env.ELECTRON_RENDERER_URL
  if (!value) return undefined
  try {
    const url = new URL(value)
    const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]'
    return url.protocol === 'http:' && loopback && !url.username && !url.password ? url.href : undefined
  } catch {
    return undefined
  }
}
