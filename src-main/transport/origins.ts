// Origin checks with a URL parser (never string prefixes): `http://127.0.0.1:5180.evil.test`
// must not pass for `http://127.0.0.1:5180`.

/** The canonical origin of an http(s) URL, or null for anything else (including "null"). */
export function normalizeOrigin(value: string | undefined | null): string | null {
  if (!value) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  if (url.username || url.password) return null
  return url.origin
}

export function isAllowedOrigin(origin: string | undefined | null, allowed: readonly string[]): boolean {
  const normalized = normalizeOrigin(origin)
  if (normalized === null) return false
  return allowed.some((candidate) => normalizeOrigin(candidate) === normalized)
}

/** The origins a browser shows for a server listening on loopback at `port`. */
export function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]
}
