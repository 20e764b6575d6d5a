// Fuzzy file search over a workspace for the composer's `@` picker (`files/search`). The file
// list comes from the walker Glob and Grep use (same ignore rules), capped, and is kept per
// workspace for a short time so that each keystroke ranks a list already in memory; ranking is
// fuzzysort's (Sublime Text-like: consecutive runs and word starts score higher).
import path from 'node:path'
import fuzzysort from 'fuzzysort'
import { walkFiles } from '../tools/builtin/file-walk'

export interface FileSearchOptions {
  /** How long a walked list is reused before the next search walks again. Default 5 s. */
  ttlMs?: number
  /** Files walked at most per workspace; past it `truncated` is set. Default 50,000. */
  maxFiles?: number
  /** Workspaces whose lists are kept at once (least recently used dropped). Default 4. */
  maxWorkspaces?: number
  now?: () => number
}

export interface FileMatch {
  /** Relative to the workspace, `/`-separated. */
  path: string
  /** Positions in `path` of the query's characters (for highlighting). */
  indexes: number[]
}

export interface FileSearchResult {
  files: FileMatch[]
  /** The walk stopped at `maxFiles`: files past it are not searched. */
  truncated: boolean
}

interface Listing {
  at: number
  paths: string[]
  prepared: ReturnType<typeof fuzzysort.prepare>[]
  truncated: boolean
}

export class WorkspaceFileSearch {
  private readonly listings = new Map<string, Promise<Listing>>()
  private readonly ttlMs: number
  private readonly maxFiles: number
  private readonly maxWorkspaces: number
  private readonly now: () => number

  constructor(options: FileSearchOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5_000
    this.maxFiles = options.maxFiles ?? 50_000
    this.maxWorkspaces = options.maxWorkspaces ?? 4
    this.now = options.now ?? Date.now
  }

  /** Up to `limit` files of `workspace` ranked against `query`; an empty query lists the shallowest files first. */
  async search(workspace: string, query: string, limit: number): Promise<FileSearchResult> {
    const listing = await this.listing(workspace)
    const needle = query.trim()
    if (needle === '') return { files: listing.paths.slice(0, limit).map((p) => ({ path: p, indexes: [] })), truncated: listing.truncated }
    const results = fuzzysort.go(needle, listing.prepared, { limit, threshold: 0 })
    return { files: results.map((result) => ({ path: result.target, indexes: [...result.indexes] })), truncated: listing.truncated }
  }

  /** Forgets the list of `workspace` (or all), so the next search walks again. */
  invalidate(workspace?: string): void {
    if (workspace === undefined) this.listings.clear()
    else this.listings.delete(workspace)
  }

  private listing(workspace: string): Promise<Listing> {
    const cached = this.listings.get(workspace)
    if (cached) {
      this.listings.delete(workspace)
      this.listings.set(workspace, cached)
      return cached.then((listing) => (this.now() - listing.at <= this.ttlMs ? listing : this.walk(workspace)))
    }
    return this.walk(workspace)
  }

  private walk(workspace: string): Promise<Listing> {
    const started = this.now()
    const pending = walkFiles(workspace, { maxFiles: this.maxFiles }).then(({ files, truncated }) => {
      const paths = files.map((file) => path.relative(workspace, file).split(path.sep).join('/'))
      return { at: started, paths, prepared: paths.map((p) => fuzzysort.prepare(p)), truncated }
    })
    this.listings.set(workspace, pending)
    // A failed walk is not kept: the next search tries again.
    pending.catch(() => {
      if (this.listings.get(workspace) === pending) this.listings.delete(workspace)
    })
    while (this.listings.size > this.maxWorkspaces) this.listings.delete(this.listings.keys().next().value!)
    return pending
  }
}
