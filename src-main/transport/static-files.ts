// Resolving and typing files the web server may send. A request path is decoded once, resolved
// against its root and refused unless it stays inside that root (symlinks included).
import { realpath, stat } from 'node:fs/promises'
import { extname, isAbsolute, relative, resolve } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm'
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** Decodes a URL pathname; null when it is malformed or smuggles a NUL or a backslash. */
export function decodeRequestPath(pathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  return decoded
}

export interface FoundFile {
  path: string
  size: number
  mtime: Date
}

/** The regular file at `decodedPath` under `root`, or null (missing, a directory, or outside). */
export async function findFileInside(root: string, decodedPath: string): Promise<FoundFile | null> {
  const absoluteRoot = resolve(root)
  const candidate = resolve(absoluteRoot, '.' + (decodedPath.startsWith('/') ? decodedPath : `/${decodedPath}`))
  if (!isInside(absoluteRoot, candidate)) return null
  return regularFile(candidate, absoluteRoot)
}

/** `path` when it is a regular file whose real location is inside `root` (if given). */
export async function regularFile(path: string, root?: string): Promise<FoundFile | null> {
  try {
    const real = await realpath(path)
    if (root !== undefined && !isInside(await realpath(root), real)) return null
    const info = await stat(real)
    if (!info.isFile()) return null
    return { path: real, size: info.size, mtime: info.mtime }
  } catch {
    return null
  }
}
