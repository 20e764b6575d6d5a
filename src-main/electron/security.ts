// Pure checks behind the Electron shell's trust decisions, always with a URL parser (a prefix
// test lets `https://example.com.attacker.com` pass for `https://example.com`). No electron
// import here, so these run in plain unit tests.
import { APP_ORIGIN, appOriginOf } from './app-origin'

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** What we read from Electron's WebFrameMain (event.senderFrame). */
export interface FrameLike {
  readonly url: string
  readonly parent: unknown
}

/**
 * The app's own page: an origin. A built app is served from `seam://app` (app-protocol.ts), never
 * from file://, so no page opened from disk is ever trusted; in development, the dev server.
 */
export type AppPage = { kind: 'app' } | { kind: 'server'; origin: string }

/** Whether `url` shows the app's own page: the same origin (path, query and fragment ignored). */
export function isAppUrl(url: string, app: AppPage): boolean {
  const expected = app.kind === 'app' ? APP_ORIGIN : appOriginOf(app.origin)
  if (expected === null || (app.kind === 'server' && !/^https?:/.test(expected))) return false
  return appOriginOf(url) === expected
}

/** IPC is answered only for the app's own top-level frame; subframes and other pages are refused. */
export function isTrustedSender(frame: FrameLike | null | undefined, app: AppPage): boolean {
  if (!frame) return false
  if (frame.parent !== null && frame.parent !== undefined) return false
  if (typeof frame.url !== 'string') return false
  return isAppUrl(frame.url, app)
}

/** shell.openExternal is used only for plain https links: no credentials, no other schemes. */
export function isSafeExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length > 4096) return false
  const parsed = parse(url)
  if (!parsed) return false
  return parsed.protocol === 'https:' && parsed.hostname !== '' && !parsed.username && !parsed.password
}
