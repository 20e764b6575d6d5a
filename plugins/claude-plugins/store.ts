// What Seam keeps in its home about Claude Code plugins (`<seamHome>/claude-plugins/`), laid out as
// Claude Code lays out `~/.claude/plugins/`:
//   known_marketplaces.json            the marketplaces added, their source and where they are
//   marketplaces/<name>/               a marketplace's clone (or unpacked npm package)
//   installed_plugins.json             installed plugins: version, copy, content hash, switch
//   cache/<marketplace>/<plugin>/<version>/   one copy per version (CLAUDE_PLUGIN_ROOT)
//   data/<plugin>-<marketplace>/       CLAUDE_PLUGIN_DATA, kept across updates
//   user-config/<plugin>-<marketplace>.json   its userConfig values (0600)
// The JSON files are written whole and atomically, each change read and written under a lock shared
// by Seam's processes (none loses another's); a file that fails its schema is an error naming the
// field, never silently replaced.
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { withFileLockSync, writeFileAtomic } from '@seam/sdk/node'
import { MarketplaceSourceSchema } from './marketplace'

export const KnownMarketplaceSchema = z.object({
  source: MarketplaceSourceSchema,
  installLocation: z.string(),
  lastUpdated: z.string(),
  /** The clone's commit, for git marketplaces. */
  commit: z.string().optional()
})
export type KnownMarketplace = z.output<typeof KnownMarketplaceSchema>
const KnownMarketplacesSchema = z.record(z.string(), KnownMarketplaceSchema)

export const InstalledRecordSchema = z.object({
  name: z.string(),
  marketplace: z.string(),
  version: z.string(),
  installPath: z.string(),
  /** sha256 of the copied files (see contentHash): the copy is used only while it still matches. */
  contentHash: z.string(),
  installedAt: z.string(),
  lastUpdated: z.string(),
  /** Where the files came from, as the marketplace entry says (shown by list and the manager). */
  source: z.string(),
  /** Seam's own switch (`seam plugin enable|disable`); absent: settings files and defaultEnabled decide. */
  enabled: z.boolean().optional(),
  /** Installed only because another plugin depends on it (`seam plugin prune` removes it once nothing does). */
  auto: z.boolean().optional()
})
export type InstalledRecord = z.output<typeof InstalledRecordSchema>
const InstalledFileSchema = z.object({ version: z.literal(1), plugins: z.record(z.string(), InstalledRecordSchema) })

export class PluginStore {
  readonly dir: string
  constructor(seamHome: string) {
    this.dir = join(seamHome, 'claude-plugins')
  }

  get marketplacesFile(): string {
    return join(this.dir, 'known_marketplaces.json')
  }
  get installedFile(): string {
    return join(this.dir, 'installed_plugins.json')
  }
  marketplaceDir(name: string): string {
    return join(this.dir, 'marketplaces', name)
  }
  cacheDir(marketplace: string, plugin: string, version: string): string {
    return join(this.dir, 'cache', safeSegment(marketplace), safeSegment(plugin), safeSegment(version))
  }
  /** A plugin's userConfig values, one 0600 file per plugin (user-config.ts). */
  userConfigFile(plugin: string, marketplace: string | undefined): string {
    return join(this.dir, 'user-config', `${safeSegment(`${plugin}-${marketplace ?? 'inline'}`)}.json`)
  }
  dataDir(plugin: string, marketplace: string | undefined): string {
    return join(this.dir, 'data', safeSegment(`${plugin}-${marketplace ?? 'inline'}`))
  }

  marketplaces(): Record<string, KnownMarketplace> {
    return readJson(this.marketplacesFile, KnownMarketplacesSchema, {})
  }
  /**
   * Reads the marketplaces, changes them and writes them as one step that no other Seam process
   * interleaves with (so two processes adding at once both keep theirs); returns what was written.
   */
  updateMarketplaces(change: (known: Record<string, KnownMarketplace>) => Record<string, KnownMarketplace>): Record<string, KnownMarketplace> {
    return this.locked(() => {
      const next = change(this.marketplaces())
      writeFileAtomic(this.marketplacesFile, `${JSON.stringify(next, null, 2)}\n`, 0o600)
      return next
    })
  }
  installed(): Record<string, InstalledRecord> {
    return readJson(this.installedFile, InstalledFileSchema, { version: 1 as const, plugins: {} }).plugins
  }
  /** `updateMarketplaces`, for the installed plugins. */
  updateInstalled(change: (installed: Record<string, InstalledRecord>) => Record<string, InstalledRecord>): Record<string, InstalledRecord> {
    return this.locked(() => {
      const plugins = change(this.installed())
      writeFileAtomic(this.installedFile, `${JSON.stringify({ version: 1, plugins }, null, 2)}\n`, 0o600)
      return plugins
    })
  }
  /** The lock both JSON files are changed under; held only for a read and a write. */
  get lockFile(): string {
    return join(this.dir, '.store.lock')
  }
  private locked<T>(step: () => T): T {
    return withFileLockSync(this.lockFile, step, { patienceMs: STORE_LOCK_PATIENCE_MS })
  }
}

/** A read and a write take milliseconds: a lock held this long belongs to a stuck process. */
const STORE_LOCK_PATIENCE_MS = 30_000

/** `plugin@marketplace`, the id Claude Code's settings use (`enabledPlugins`). */
export function pluginId(name: string, marketplace: string): string {
  return `${name}@${marketplace}`
}

/** A path segment from a name or version: anything outside `[A-Za-z0-9._-]` becomes `-`, never `.`/`..`. */
export function safeSegment(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9._-]/g, '-')
  return cleaned === '.' || cleaned === '..' || cleaned === '' ? `-${cleaned}` : cleaned
}

function readJson<T>(file: string, schema: z.ZodType<T>, empty: T): T {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty
    throw error
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new Error(`${file}: not valid JSON: ${(error as Error).message}`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new Error(formatZodError(file, parsed.error))
  return parsed.data
}

/**
 * sha256 over a folder's files: each relative path (sorted), its kind, the executable bit and its
 * bytes (a link: its target). Any change to what the plugin can run changes it.
 */
export function contentHash(root: string): string {
  const hash = createHash('sha256')
  const walk = (dir: string) => {
    const entries = readdirSync(dir).sort()
    for (const entry of entries) {
      const path = join(dir, entry)
      const rel = relative(root, path).split(sep).join('/')
      const stat = lstatSync(path)
      if (stat.isSymbolicLink()) {
        hash.update(`L ${rel}\0${readlinkSync(path)}\0`)
      } else if (stat.isDirectory()) {
        if (entry === '.git' && dir === root) continue
        hash.update(`D ${rel}\0`)
        walk(path)
      } else if (stat.isFile()) {
        hash.update(`F ${rel} ${stat.mode & 0o111 ? 'x' : '-'}\0`)
        hash.update(readFileSync(path))
        hash.update('\0')
      }
    }
  }
  if (existsSync(root)) walk(root)
  return hash.digest('hex')
}
