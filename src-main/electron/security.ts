// Pure checks behind the Electron shell's trust decisions, always with a URL parser (a prefix
// test lets `https://example.com.attacker.com` pass for `https://example.com`). No electron
// import here, so these run in plain unit tests.
import { posix, win32 } from 'node:path'

/** What we read from Electron's WebFrameMain (event.senderFrame). */
export interface FrameLike {
  readonly url: string
  readonly parent: unknown
}

/**
 * The app's own page. A built app is a file, and a frame shows it when the frame's URL names
 * that file: the comparison is between file paths, because the text of the URL Chromium gives
 * a `loadFile` page differs from Node's `pathToFileURL` for paths with `[`, `]`, `~` or `%`,
 * and in drive-letter case on Windows. The dev server is an origin.
 */
export type AppPage =
  | { kind: 'file'; file: string; platform: 'posix' | 'win32'; ignoreCase: boolean }
  | { kind: 'server'; origin: string }

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * Percent-decodes a URL path the way Chromium's file loader does: each valid `%XX` is a byte
 * (UTF-8 as a whole), and a `%` not followed by two hex digits is itself (a folder named `100%`
 * reaches the URL unescaped, where `decodeURIComponent` and `fileURLToPath` would throw).
 */
export function decodeUrlPath(path: string): string {
  const bytes: number[] = []
  for (let i = 0; i < path.length; ) {
    if (path[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) {
      bytes.push(parseInt(path.slice(i + 1, i + 3), 16))
      i += 3
      continue
    }
    const codePoint = path.codePointAt(i)!
    const char = String.fromCodePoint(codePoint)
    bytes.push(...Buffer.from(char, 'utf8'))
    i += char.length
  }
  return Buffer.from(bytes).toString('utf8')
}

/** The local file a `file:` URL names, or null (another scheme, a remote host, no drive on Windows, a NUL). */
export function filePathOfUrl(url: URL, platform: 'posix' | 'win32'): string | null {
  if (url.protocol !== 'file:') return null
  const decoded = decodeUrlPath(url.pathname)
  if (decoded.includes('\0')) return null
  if (platform === 'posix') {
    if (url.host !== '' && url.host !== 'localhost') return null
    return posix.normalize(decoded)
  }
  if (url.host !== '' && url.host !== 'localhost') return win32.normalize(`\\\\${url.hostname}${decoded.replaceAll('/', '\\')}`)
  if (!/^\/[A-Za-z]:(\/|$)/.test(decoded)) return null
  return win32.normalize(decoded.slice(1).replaceAll('/', '\\'))
}

/** Whether two absolute paths name the same file, as the file system compares names. */
export function samePath(a: string, b: string, platform: 'posix' | 'win32', ignoreCase: boolean): boolean {
  const path = platform === 'win32' ? win32 : posix
  // Drive letters never differ by case, even in a case-sensitive NTFS folder.
  const drive = (value: string) => (platform === 'win32' ? value.replace(/^[a-z]:/, (d) => d.toUpperCase()) : value)
  const left = drive(path.normalize(a))
  const right = drive(path.normalize(b))
  if (!ignoreCase) return left === right
  // Case-insensitive file systems (NTFS, APFS by default) also ignore Unicode normalization form.
  const fold = (value: string) => value.normalize('NFC').toLowerCase()
  return fold(left) === fold(right)
}

/**
 * Whether `url` shows the app's own page: for a built app, a file: URL naming the renderer file
 * (query and fragment ignored); for the dev server, the same origin.
 */
export function isAppUrl(url: string, app: AppPage): boolean {
  const candidate = parse(url)
  if (!candidate) return false
  if (app.kind === 'file') {
    const path = filePathOfUrl(candidate, app.platform)
    return path !== null && samePath(path, app.file, app.platform, app.ignoreCase)
  }
  const origin = parse(app.origin)
  if (!origin || (origin.protocol !== 'http:' && origin.protocol !== 'https:')) return false
  return candidate.origin === origin.origin && !candidate.username && !candidate.password
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
