// Pure checks behind the Electron shell's trust decisions, always with a URL parser (a prefix
// test lets `https://example.com.attacker.com` pass for `https://example.com`). No electron
// import here, so these run in plain unit tests.
import { appOriginOf } from './app-origin'

/** What we read from Electron's WebFrameMain (event.senderFrame). */
export interface FrameLike {
  readonly url: string
  readonly parent: unknown
}

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * Whether `url` is the app's own page: the same origin as `appUrl`, which is `seam://app/...`
 * (the renderer served from the app's custom scheme) or, in development, the dev server. A
 * file:// URL never is: no page opened from disk is trusted.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  const app = appOriginOf(appUrl)
  return app !== null && appOriginOf(url) === app
}

/** IPC is answered only for the app's own top-level frame; subframes and other pages are refused. */
export function isTrustedSender(frame: FrameLike | null | undefined, appUrl: string): boolean {
  if (!frame) return false
  if (frame.parent !== null && frame.parent !== undefined) return false
  if (typeof frame.url !== 'string') return false
  return isAppUrl(frame.url, appUrl)
}

/** shell.openExternal is used only for plain https links: no credentials, no other schemes. */
export function isSafeExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length > 4096) return false
  const parsed = parse(url)
  if (!parsed) return false
  return parsed.protocol === 'https:' && parsed.hostname !== '' && !parsed.username && !parsed.password
}
