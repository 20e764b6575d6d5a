// Pure checks behind the Electron shell's trust decisions, always with a URL parser (a prefix
// test lets `https://example.com.attacker.com` pass for `https://example.com`). No electron
// import here, so these run in plain unit tests.

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
 * Whether `url` is the app's own page: for a file:// app, the same file (query and fragment
 * ignored); for the dev server, the same origin.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  const candidate = parse(url)
  const app = parse(appUrl)
  if (!candidate || !app) return false
  if (app.protocol === 'file:') {
    return candidate.protocol === 'file:' && candidate.host === app.host && candidate.pathname === app.pathname
  }
  if (app.protocol === 'http:' || app.protocol === 'https:') {
    return candidate.origin === app.origin && !candidate.username && !candidate.password
  }
  return false
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
