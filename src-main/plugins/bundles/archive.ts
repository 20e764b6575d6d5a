// Reading an npm-pack tarball safely: list every entry first and reject the whole archive if any
// entry could land outside the package folder (absolute paths, `..` segments, links pointing
// out, entries reached through a link), then extract only what was checked.
import { createHash } from 'node:crypto'
import { lstat, readdir, readFile, readlink, realpath } from 'node:fs/promises'
import path from 'node:path'
import { Parser, Unpack, type ReadEntry } from 'tar'
import { BundleError, isInside } from './manifest'

export interface ArchiveLimits {
  /** Largest total unpacked size accepted. Default 256 MiB. */
  maxBytes?: number
  /** Most entries accepted. Default 20 000. */
  maxEntries?: number
}

export interface ArchiveEntry {
  /** Path inside the package folder (the archive's single top-level folder, e.g. `package/`, removed). */
  path: string
  type: 'File' | 'Directory' | 'SymbolicLink' | 'Link'
  size: number
  linkpath?: string
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile'])

/** `sha512-<base64>`, the format npm writes in lock files. */
export function sha512Integrity(data: Buffer | string): string {
  return `sha512-${createHash('sha512').update(data).digest('base64')}`
}

interface RawEntry {
  path: string
  type: string
  size: number
  linkpath?: string
}

/** Reads a (gzipped) tar archive entry by entry without writing anything; `onEntry` consumes or resumes each. */
function readArchive(data: Buffer, onEntry: (entry: ReadEntry) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = new Parser({ strict: true, onReadEntry: onEntry })
    parser.on('error', (error: Error) => reject(new BundleError(`not a readable tar archive: ${error.message}`)))
    parser.on('end', () => resolve())
    parser.end(data)
  })
}

/** Lists a (gzipped) tar archive without writing anything. */
export async function listArchive(data: Buffer): Promise<RawEntry[]> {
  const entries: RawEntry[] = []
  await readArchive(data, (entry) => {
    entries.push({ path: entry.path, type: entry.type, size: entry.size, linkpath: entry.linkpath })
    entry.resume()
  })
  return entries
}

/** One file's bytes from a (gzipped) tar archive, by its path below the top folder; undefined when absent. */
export async function readArchiveFile(data: Buffer, inner: string): Promise<Buffer | undefined> {
  let found: Buffer | undefined
  await readArchive(data, (entry) => {
    if (!FILE_TYPES.has(entry.type) || entry.path.split('/').slice(1).join('/') !== inner) {
      entry.resume()
      return
    }
    const chunks: Buffer[] = []
    entry.on('data', (chunk: Buffer) => chunks.push(chunk))
    entry.on('end', () => (found = Buffer.concat(chunks)))
  })
  return found
}

/**
 * Checks every entry and returns them relative to the package folder. Throws a BundleError that
 * names the first offending entry.
 */
export function checkArchiveEntries(raw: readonly RawEntry[], limits: ArchiveLimits = {}): { root: string; entries: ArchiveEntry[] } {
  const maxBytes = limits.maxBytes ?? 256 * 1024 * 1024
  const maxEntries = limits.maxEntries ?? 20_000
  if (raw.length === 0) throw new BundleError('the archive is empty')
  if (raw.length > maxEntries) throw new BundleError(`the archive has ${raw.length} entries (at most ${maxEntries} accepted)`)
  const fail = (entry: RawEntry, why: string): never => {
    throw new BundleError(`archive entry "${entry.path}" ${why}; nothing was installed`)
  }
  let root: string | undefined
  let total = 0
  const entries: ArchiveEntry[] = []
  // Every link's path, so that nothing is written (or hard-linked) through one, whatever the order.
  const links = new Set<string>()
  for (const entry of raw) {
    if (entry.type !== 'SymbolicLink' && entry.type !== 'Link') continue
    links.add(entry.path.split('/').filter((s) => s !== '' && s !== '.').slice(1).join('/'))
  }
  const linkAbove = (inner: string): string | undefined => [...links].find((link) => link !== '' && inner.startsWith(`${link}/`))
  for (const entry of raw) {
    const name = entry.path
    if (isAbsoluteAnywhere(name)) fail(entry, 'has an absolute path')
    if (name.includes('\\')) fail(entry, 'contains a backslash')
    const segments = name.split('/').filter((s) => s !== '' && s !== '.')
    if (segments.includes('..')) fail(entry, "contains a '..' segment")
    if (segments.length === 0) fail(entry, 'has an empty path')
    root ??= segments[0]
    if (segments[0] !== root) fail(entry, `is outside the package folder "${root}/"`)
    const inner = segments.slice(1).join('/')
    const type = FILE_TYPES.has(entry.type) ? 'File' : entry.type
    if (type !== 'File' && type !== 'Directory' && type !== 'SymbolicLink' && type !== 'Link') fail(entry, `has an unsupported type (${entry.type})`)
    if (inner === '' && type !== 'Directory') fail(entry, 'replaces the package folder itself')
    const through = linkAbove(inner)
    if (through !== undefined) fail(entry, `lies under the link "${root}/${through}"`)
    const checked: ArchiveEntry = { path: inner, type: type as ArchiveEntry['type'], size: entry.size }
    if (type === 'SymbolicLink') {
      const target = entry.linkpath ?? ''
      if (target === '') fail(entry, 'is a symlink with no target')
      if (isAbsoluteAnywhere(target) || target.includes('\\')) fail(entry, `is a symlink pointing outside the package (${target})`)
      // Relative to the link's own folder. Chains of links are checked again on disk after extraction.
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(inner), target))
      if (resolved === '..' || resolved.startsWith('../')) fail(entry, `is a symlink pointing outside the package (${target})`)
      checked.linkpath = target
    } else if (type === 'Link') {
      // A hard link names another entry of the archive; it must be a plain path inside the package, not through a link.
      const target = entry.linkpath ?? ''
      const parts = target.split('/').filter((s) => s !== '' && s !== '.')
      const targetInner = parts.slice(1).join('/')
      if (isAbsoluteAnywhere(target) || target.includes('\\') || parts.includes('..') || parts[0] !== root || targetInner === '') {
        fail(entry, `is a hard link pointing outside the package (${target || 'no target'})`)
      }
      if (linkAbove(targetInner) !== undefined || links.has(targetInner)) fail(entry, `is a hard link to another link (${target})`)
      checked.linkpath = target
    }
    total += entry.size
    if (total > maxBytes) fail(entry, `takes the unpacked size past ${maxBytes} bytes`)
    entries.push(checked)
  }
  return { root: root as string, entries }
}

/** Extracts the package folder of a checked archive into `dest` (which must exist and be empty). */
export function extractArchive(data: Buffer, dest: string, checked: { root: string; entries: readonly ArchiveEntry[] }): Promise<void> {
  const allowed = new Set(checked.entries.map((e) => path.posix.join(checked.root, e.path)))
  const skipped: string[] = []
  return new Promise((resolve, reject) => {
    const unpack = new Unpack({
      cwd: dest,
      strip: 1,
      strict: true,
      preservePaths: false,
      preserveOwner: false,
      // Second line of defence: only entries that passed the listing are written.
      filter: (entryPath: string) => {
        const normal = path.posix.normalize(entryPath).replace(/\/$/, '')
        const ok = allowed.has(normal)
        if (!ok) skipped.push(entryPath)
        return ok
      }
    })
    unpack.on('error', (error: Error) => reject(new BundleError(`extracting the archive failed: ${error.message}`)))
    unpack.on('close', () => {
      if (skipped.length) reject(new BundleError(`archive entry "${skipped[0]}" was not in the checked listing`))
      else resolve()
    })
    unpack.end(data)
  })
}

/**
 * Walks an installed tree and rejects any symlink that resolves outside it (defence in depth
 * after extraction, and the main check for folder bundles).
 */
export async function checkTreeLinks(root: string): Promise<void> {
  const realRoot = await realpath(root)
  const walk = async (dir: string): Promise<void> => {
    for (const item of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, item.name)
      if (item.isSymbolicLink()) {
        const target = await readlink(full)
        const relative = path.relative(root, full).split(path.sep).join('/')
        if (path.isAbsolute(target)) throw new BundleError(`"${relative}" is a symlink with an absolute target (${target}); nothing was installed`)
        if (!isInside(root, path.resolve(path.dirname(full), target))) {
          throw new BundleError(`"${relative}" is a symlink pointing outside the bundle (${target}); nothing was installed`)
        }
        let real: string
        try {
          real = await realpath(full)
        } catch {
          throw new BundleError(`"${relative}" is a symlink whose target does not exist (${target}); nothing was installed`)
        }
        if (!isInside(realRoot, real)) throw new BundleError(`"${relative}" is a symlink pointing outside the bundle (${target}); nothing was installed`)
      } else if (item.isDirectory()) {
        await walk(full)
      } else if (!item.isFile()) {
        throw new BundleError(`"${path.relative(root, full)}" is not a file, folder or symlink; nothing was installed`)
      }
    }
  }
  await walk(root)
}

/**
 * A deterministic hash of a folder: every path in sorted order with its kind and its content
 * hash (or link target), hashed again. Two folders with the same files get the same value.
 */
export async function folderIntegrity(root: string): Promise<string> {
  const lines: string[] = []
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const items = (await readdir(dir)).sort()
    for (const name of items) {
      const full = path.join(dir, name)
      const rel = prefix ? `${prefix}/${name}` : name
      const info = await lstat(full)
      if (info.isSymbolicLink()) lines.push(`link ${rel} ${await readlink(full)}`)
      else if (info.isDirectory()) {
        lines.push(`dir ${rel}`)
        await walk(full, rel)
      } else lines.push(`file ${rel} ${createHash('sha512').update(await readFile(full)).digest('base64')}`)
    }
  }
  await walk(root, '')
  return sha512Integrity(lines.join('\n'))
}

function isAbsoluteAnywhere(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[a-zA-Z]:/.test(p) || path.win32.isAbsolute(p)
}
