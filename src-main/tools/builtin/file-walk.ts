// Listing files under a directory for Glob, Grep and the composer's file picker. Like ripgrep
// (what Claude Code's Glob and Grep run): ignore files are honoured (`ignore-rules.ts`), an
// ignored directory is never entered, version-control folders are never searched, dot files are
// included and symbolic links are not followed. node_modules is skipped too unless asked for.
import fs from 'node:fs/promises'
import path from 'node:path'
import picomatch from 'picomatch'
import { ancestorLayers, findRepoRoot, ignoreVerdict, readLayer, relativeBelow, type IgnoreLayer } from './ignore-rules'

/** Never searched, whatever the options (Claude Code's Grep leaves these out too). */
export const VCS_DIRS: ReadonlySet<string> = new Set(['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'])
/** Skipped like an ignored directory unless the pattern names it or ignored files are included. */
export const DEFAULT_IGNORED_DIRS: ReadonlySet<string> = new Set(['node_modules'])

/** Directories read at once. */
const READDIR_CONCURRENCY = 64

export interface WalkOptions {
  /** List files the ignore files (and the default-ignored directories) leave out. Default false. */
  includeIgnored?: boolean
  /** Directory names of DEFAULT_IGNORED_DIRS that are walked anyway (the pattern names them). */
  allowDirs?: ReadonlySet<string>
  /** Stop after this many files; `truncated` says so. */
  maxFiles?: number
  /** Deepest level entered below the root (0: the root's own entries only). Default unlimited. */
  maxDepth?: number
  signal?: AbortSignal
  /** Where git's config is looked up for the global excludes file (HOME, XDG_CONFIG_HOME). Default: this process's. */
  env?: NodeJS.ProcessEnv
}

export interface WalkResult {
  /** Absolute paths, breadth first, each directory's entries by name. */
  files: string[]
  truncated: boolean
}

interface PendingDir {
  dir: string
  depth: number
  layers: readonly IgnoreLayer[]
}

/** Every file under `root` that the ignore rules keep (all of them with `includeIgnored`). */
export async function walkFiles(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const includeIgnored = options.includeIgnored ?? false
  const maxFiles = options.maxFiles ?? Infinity
  const maxDepth = options.maxDepth ?? Infinity
  const repoRoot = await findRepoRoot(root)
  let rootLayers: IgnoreLayer[] = []
  if (!includeIgnored) {
    rootLayers = await ancestorLayers(root, repoRoot, options.env)
    // A root the caller named explicitly is searched even when a rule above it ignores it (as
    // ripgrep searches a path it is given); only the rules inside it apply then.
    if (ignoreVerdict(rootLayers, root, true) === 'ignored') rootLayers = []
  }
  const files: string[] = []
  let level: PendingDir[] = [{ dir: root, depth: 0, layers: rootLayers }]
  while (level.length > 0) {
    const next: PendingDir[] = []
    for (let i = 0; i < level.length; i += READDIR_CONCURRENCY) {
      options.signal?.throwIfAborted()
      const batch = level.slice(i, i + READDIR_CONCURRENCY)
      const listed = await Promise.all(batch.map((pending) => listDirectory(pending, repoRoot !== undefined, includeIgnored, options.allowDirs)))
      for (const [k, entries] of listed.entries()) {
        const pending = batch[k]!
        for (const file of entries.files) {
          if (files.length >= maxFiles) return { files, truncated: true }
          files.push(file)
        }
        if (pending.depth < maxDepth) for (const dir of entries.dirs) next.push({ dir, depth: pending.depth + 1, layers: entries.layers })
      }
    }
    level = next
  }
  return { files, truncated: false }
}

interface Listing {
  files: string[]
  dirs: string[]
  /** The rules in force below this directory (its own ignore files added). */
  layers: readonly IgnoreLayer[]
}

async function listDirectory(pending: PendingDir, inRepo: boolean, includeIgnored: boolean, allowDirs: ReadonlySet<string> | undefined): Promise<Listing> {
  let entries: import('node:fs').Dirent[]
  try {
    entries = await fs.readdir(pending.dir, { withFileTypes: true })
  } catch (error) {
    // The root itself must exist (callers report that); a folder below it that vanished or
    // cannot be read is skipped, as ripgrep skips it.
    if (pending.depth === 0) throw error
    return { files: [], dirs: [], layers: pending.layers }
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  let layers = pending.layers
  if (!includeIgnored) {
    const own = await readLayer(pending.dir, new Set(entries.map((entry) => entry.name)), inRepo)
    if (own) layers = [...layers, own]
  }
  const files: string[] = []
  const dirs: string[] = []
  for (const entry of entries) {
    const full = path.join(pending.dir, entry.name)
    if (entry.isDirectory()) {
      if (VCS_DIRS.has(entry.name)) continue
      if (!includeIgnored) {
        if (DEFAULT_IGNORED_DIRS.has(entry.name) && !allowDirs?.has(entry.name)) continue
        if (ignoreVerdict(layers, full, true) === 'ignored') continue
      }
      dirs.push(full)
    } else if (entry.isFile()) {
      if (!includeIgnored && ignoreVerdict(layers, full, false) === 'ignored') continue
      files.push(full)
    }
    // Symbolic links (and sockets, fifos) are not followed nor listed.
  }
  return { files, dirs, layers }
}

/**
 * Absolute paths of files under `root` matching `pattern` (a glob relative to `root`), ignore
 * rules applied unless `includeIgnored`. A default-ignored directory is walked when the pattern
 * names it (e.g. `node_modules/foo/**`).
 */
export async function listFiles(root: string, pattern: string, signal?: AbortSignal, options: { includeIgnored?: boolean } = {}): Promise<string[]> {
  const segments = pattern.split('/')
  const allowDirs = new Set([...DEFAULT_IGNORED_DIRS].filter((dir) => segments.includes(dir)))
  const matches = picomatch(pattern, { dot: true })
  const { files } = await walkFiles(root, { includeIgnored: options.includeIgnored, allowDirs, maxDepth: patternDepth(pattern), signal })
  return files.filter((file) => {
    const relative = relativeBelow(root, file)
    return relative !== undefined && matches(relative)
  })
}

/** How deep below the root a match can lie: unlimited with `**` (or a brace holding a `/`), else the segment count less one. */
export function patternDepth(pattern: string): number {
  if (pattern.includes('**') || /\{[^}]*\/[^}]*\}/.test(pattern)) return Infinity
  return pattern.split('/').length - 1
}
