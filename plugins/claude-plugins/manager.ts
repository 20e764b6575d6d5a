// Adding marketplaces and installing plugins from them, as `claude plugin …` does: the
// marketplace and a plugin entry's source are fetched (sources.ts) into a staging folder, read,
// hashed and moved into `cache/<marketplace>/<plugin>/<version>/`, after the plugin's
// dependencies (of its marketplace, or of another one the marketplace allows).
// Every step that fails leaves the store as it was (staging is removed, JSON files are replaced
// whole, the copy is renamed into place).
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { satisfies } from 'semver'
import { describeMarketplaceSource, describePluginSource, fetchMarketplace, fetchPlugin, PluginManagerError } from './sources'
import { dependencyGraph, dependentsOf, orphanedDependencies } from './dependencies'
import { gitHead, gitPull } from './fetch'
import { readPluginFolder, type PluginLayout } from './manifest'
import { fetchRelease, resolveDependencyRelease, type ResolvedRelease } from './release-tags'
import { readMarketplace, type Marketplace, type MarketplaceEntry, type MarketplaceSource } from './marketplace'
import { UserConfigStore } from './user-config'
import { contentHash, pluginId, type InstalledRecord, type KnownMarketplace, type PluginStore } from './store'

export { describeMarketplaceSource, describePluginSource, parseMarketplaceArg, PluginManagerError } from './sources'

export interface InstallResult {
  id: string
  record: InstalledRecord
  layout: PluginLayout
  /** `installed`, `updated` (new content), `unchanged`. */
  status: 'installed' | 'updated' | 'unchanged'
  /** Its `dependencies` installed with it (or found installed already), in install order. */
  dependencies?: InstallResult[]
}

/** Why a plugin is being installed: asked for by the user, as a dependency, or an update keeping what it was. */
type InstallAs = 'explicit' | 'dependency' | 'keep'

/** One install's walk through dependencies: whose marketplace's allowlist applies, and what it added. */
interface DependencyWalk {
  rootId: string
  rootMarketplace: string
  allowed: ReadonlySet<string>
  installedNow: string[]
}

export class PluginManager {
  constructor(
    private readonly store: PluginStore,
    /** Marketplaces named by settings files the catalog honours (the user's, a trusted workspace's). */
    private readonly declared: () => Array<{ name: string; source: MarketplaceSource; file: string }>,
    private readonly changed: () => void
  ) {}

  // ---- marketplaces ------------------------------------------------------------------------

  async addMarketplace(source: MarketplaceSource): Promise<{ name: string; marketplace: Marketplace; known: KnownMarketplace }> {
    const staging = this.staging()
    try {
      const location = source.source === 'directory' ? source.path : join(staging, 'm')
      const commit = await fetchMarketplace(source, location)
      const marketplace = readMarketplace(location)
      const known = this.store.marketplaces()
      if (known[marketplace.name] !== undefined) {
        throw new PluginManagerError(`marketplace "${marketplace.name}" is already added (from ${describeMarketplaceSource(known[marketplace.name].source)}): use seam plugin marketplace update ${marketplace.name}`)
      }
      let installLocation = location
      if (source.source !== 'directory') {
        installLocation = this.store.marketplaceDir(marketplace.name)
        rmSync(installLocation, { recursive: true, force: true })
        mkdirSync(join(installLocation, '..'), { recursive: true })
        renameSync(location, installLocation)
      }
      const record: KnownMarketplace = { source, installLocation, lastUpdated: new Date().toISOString(), ...(commit ? { commit } : {}) }
      this.store.updateMarketplaces((current) => ({ ...current, [marketplace.name]: record }))
      this.changed()
      return { name: marketplace.name, marketplace, known: record }
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }

  /** Added marketplaces, and the ones settings files declare that are not added yet. */
  listMarketplaces(): Array<{ name: string; source: MarketplaceSource; added: boolean; location?: string; declaredIn?: string; plugins?: number; problem?: string }> {
    const known = this.store.marketplaces()
    const rows: ReturnType<PluginManager['listMarketplaces']> = []
    for (const [name, record] of Object.entries(known)) {
      const row: (typeof rows)[number] = { name, source: record.source, added: true, location: record.installLocation }
      try {
        row.plugins = readMarketplace(record.installLocation).plugins.length
      } catch (error) {
        row.problem = (error as Error).message
      }
      rows.push(row)
    }
    for (const declared of this.declared()) {
      if (known[declared.name] === undefined && !rows.some((r) => r.name === declared.name)) rows.push({ name: declared.name, source: declared.source, added: false, declaredIn: declared.file })
    }
    return rows
  }

  async updateMarketplace(name: string): Promise<KnownMarketplace> {
    const known = this.store.marketplaces()
    const record = known[name]
    if (record === undefined) throw new PluginManagerError(`no marketplace "${name}" is added (seam plugin marketplace list)`)
    let commit = record.commit
    if (record.source.source === 'git' || record.source.source === 'github') {
      await gitPull(record.installLocation)
      commit = await gitHead(record.installLocation)
    } else if (record.source.source !== 'directory') {
      const staging = this.staging()
      try {
        await fetchMarketplace(record.source, join(staging, 'm'))
        readMarketplace(join(staging, 'm'))
        rmSync(record.installLocation, { recursive: true, force: true })
        renameSync(join(staging, 'm'), record.installLocation)
      } finally {
        rmSync(staging, { recursive: true, force: true })
      }
    }
    readMarketplace(record.installLocation)
    const next: KnownMarketplace = { ...record, lastUpdated: new Date().toISOString(), ...(commit ? { commit } : {}) }
    this.store.updateMarketplaces((current) => {
      if (current[name] === undefined) throw new PluginManagerError(`marketplace "${name}" was removed while it was being updated`)
      return { ...current, [name]: next }
    })
    this.changed()
    return next
  }

  /** Removes the marketplace and uninstalls the plugins installed from it (as Claude Code does). */
  removeMarketplace(name: string): string[] {
    const known = this.store.marketplaces()
    const record = known[name]
    if (record === undefined) throw new PluginManagerError(`no marketplace "${name}" is added (seam plugin marketplace list)`)
    const removed = Object.values(this.store.installed()).filter((r) => r.marketplace === name).map((r) => pluginId(r.name, r.marketplace))
    for (const id of removed) this.uninstall(id, { quiet: true })
    this.store.updateMarketplaces((current) => {
      const rest = { ...current }
      delete rest[name]
      return rest
    })
    if (record.source.source !== 'directory') rmSync(record.installLocation, { recursive: true, force: true })
    this.changed()
    return removed
  }

  // ---- plugins ------------------------------------------------------------------------------

  /** Installs `name@marketplace` (adding the marketplace first when a settings file declares it). */
  async install(id: string): Promise<InstallResult> {
    return this.installRoot(id, 'explicit')
  }

  /**
   * Installs `id` and its dependencies. `asked`: `explicit` (the user installs it: no longer one
   * installed only as a dependency) or `keep` (an update keeps what it was).
   */
  private async installRoot(id: string, asked: 'explicit' | 'keep'): Promise<InstallResult> {
    const [name, marketplaceName] = parseId(id)
    const { marketplace, record: market } = await this.marketplace(marketplaceName)
    const entry = marketplace.plugins.find((p) => p.name === name)
    if (entry === undefined) throw new PluginManagerError(`marketplace "${marketplaceName}" has no plugin "${name}" (it lists ${marketplace.plugins.map((p) => p.name).join(', ') || 'none'})`)
    // Only the marketplace of the plugin asked for decides which others its dependencies may come
    // from, for the whole chain (as Claude Code: trust does not pass from one marketplace to the next).
    const walk: DependencyWalk = { rootId: pluginId(name, marketplace.name), rootMarketplace: marketplace.name, allowed: new Set(marketplace.allowCrossMarketplaceDependenciesOn ?? []), installedNow: [] }
    try {
      return await this.installWithDependencies(entry, marketplace, market, [], walk, asked)
    } catch (error) {
      // Nothing half-done: the dependencies this call installed go again, newest first.
      for (const id of walk.installedNow.reverse()) this.uninstall(id, { quiet: true })
      if (walk.installedNow.length > 0) this.changed()
      throw error
    }
  }

  /** The installed plugins whose `dependencies` name `id` (of any marketplace), for uninstall and disable to say. */
  dependents(id: string): string[] {
    const [name, marketplace] = parseId(id)
    return dependentsOf(pluginId(name, marketplace), dependencyGraph(this.store.installed()))
  }

  /** The plugins installed as dependencies that nothing installed needs any more (what `prune` removes). */
  orphans(): string[] {
    return orphanedDependencies(this.store.installed())
  }

  /** Uninstalls `orphans()` (their data and userConfig values too, as uninstall does); returns them. */
  prune(): string[] {
    const orphans = this.orphans()
    for (const id of orphans) this.uninstall(id, { quiet: true })
    if (orphans.length > 0) this.changed()
    return orphans
  }

  /**
   * Installs `entry` after its `dependencies`, refusing with the manifest's field when one cannot
   * be had: another marketplace the root's marketplace does not allow, a marketplace not added, a
   * plugin the marketplace does not list, a version outside the range (checked against the
   * version installed). A dependency installed already is used as it is (whatever its
   * marketplace, as in Claude Code: installing it yourself is the other way to allow it). `chain`
   * stops a cycle; `walk.installedNow` collects what this call installed.
   */
  private async installWithDependencies(entry: MarketplaceEntry, marketplace: Marketplace, market: KnownMarketplace, chain: string[], walk: DependencyWalk, asked: InstallAs, release?: ResolvedRelease): Promise<InstallResult> {
    const id = pluginId(entry.name, marketplace.name)
    const dependencies: InstallResult[] = []
    const result = await this.installEntry(entry, marketplace, market, asked, release, async (layout) => {
      for (const [i, dependency] of layout.dependencies.entries()) {
        const where = `${layout.manifestFile !== undefined ? `${entry.name}'s plugin.json` : `${entry.name}'s marketplace entry`}: dependencies[${i}]`
        const depMarketplace = dependency.marketplace ?? marketplace.name
        const depId = pluginId(dependency.name, depMarketplace)
        if (chain.includes(depId) || depId === id) continue
        const already = this.store.installed()[depId]
        let found: InstallResult
        if (already !== undefined && existsSync(already.installPath)) {
          found = { id: depId, record: already, layout: readPluginFolder(already.installPath, { name: already.name }), status: 'unchanged' }
        } else {
          if (depMarketplace !== walk.rootMarketplace && !walk.allowed.has(depMarketplace)) {
            throw new PluginManagerError(
              `${where}: ${depId} is in marketplace "${depMarketplace}", which marketplace "${walk.rootMarketplace}" (that ${walk.rootId} comes from) does not list in allowCrossMarketplaceDependenciesOn: dependencies on another marketplace are refused unless it does, or unless ${depId} is installed first (seam plugin install ${depId}); ${id} is not installed`
            )
          }
          const source = depMarketplace === marketplace.name ? { marketplace, record: market } : this.addedMarketplace(depMarketplace, `${where}: ${depId}: `, id)
          const depEntry = source.marketplace.plugins.find((p) => p.name === dependency.name)
          if (depEntry === undefined) throw new PluginManagerError(`${where}: marketplace "${depMarketplace}" has no plugin "${dependency.name}" (it lists ${source.marketplace.plugins.map((p) => p.name).join(', ') || 'none'}); ${id} is not installed`)
          // A range picks the highest release tagged in it (release-tags.ts); without tags, the listed copy is checked below.
          const release = dependency.version === undefined ? undefined : await resolveDependencyRelease(depEntry, source.record, dependency.version, { where, depId, dependent: id })
          found = await this.installWithDependencies(depEntry, source.marketplace, source.record, [...chain, id], walk, 'dependency', release)
          walk.installedNow.push(depId)
        }
        if (dependency.version !== undefined && !satisfies(found.record.version, dependency.version, { includePrerelease: true })) {
          throw new PluginManagerError(`${where}: ${depId} is at version ${found.record.version}, which does not satisfy "${dependency.version}"; ${id} is not installed`)
        }
        dependencies.push(found)
      }
    })
    return dependencies.length > 0 ? { ...result, dependencies } : result
  }

  /** A marketplace already added (a dependency never adds one), read; refused naming it otherwise. */
  private addedMarketplace(name: string, where: string, dependent: string): { marketplace: Marketplace; record: KnownMarketplace } {
    const record = this.store.marketplaces()[name]
    if (record === undefined) {
      const declared = this.declared().find((d) => d.name === name)
      const how = declared !== undefined ? `seam plugin marketplace add ${describeMarketplaceSource(declared.source)}, as ${declared.file} declares it` : 'seam plugin marketplace add SOURCE'
      throw new PluginManagerError(`${where}marketplace "${name}" is not added (${how}), then install again; ${dependent} is not installed`)
    }
    return { marketplace: readMarketplace(record.installLocation), record }
  }

  /** Re-fetches the marketplace, then installs the plugin again if its content changed. */
  async update(id: string): Promise<InstallResult> {
    const [name, marketplaceName] = parseId(id)
    const installed = this.store.installed()[pluginId(name, marketplaceName)]
    if (installed === undefined) throw new PluginManagerError(`${id} is not installed (seam plugin install ${id})`)
    await this.updateMarketplace(marketplaceName)
    return this.installRoot(id, 'keep')
  }

  uninstall(id: string, options: { keepData?: boolean; quiet?: boolean } = {}): InstalledRecord {
    const [name, marketplace] = parseId(id)
    const key = pluginId(name, marketplace)
    const record = this.store.installed()[key]
    if (record === undefined) throw new PluginManagerError(`${key} is not installed (seam plugin list)`)
    this.store.updateInstalled((current) => {
      const rest = { ...current }
      delete rest[key]
      return rest
    })
    rmSync(record.installPath, { recursive: true, force: true })
    removeEmptyParents(record.installPath, 2)
    if (!options.keepData) {
      rmSync(this.store.dataDir(name, marketplace), { recursive: true, force: true })
      new UserConfigStore((plugin, market) => this.store.userConfigFile(plugin, market)).remove(name, marketplace)
    }
    if (!options.quiet) this.changed()
    return record
  }

  setEnabled(id: string, enabled: boolean): InstalledRecord {
    const [name, marketplace] = parseId(id)
    const key = pluginId(name, marketplace)
    const updated = this.store.updateInstalled((current) => {
      const record = current[key]
      if (record === undefined) throw new PluginManagerError(`${key} is not installed (seam plugin install ${key})`)
      return { ...current, [key]: { ...record, enabled } }
    })
    this.changed()
    return updated[key]
  }

  private async marketplace(name: string): Promise<{ marketplace: Marketplace; record: KnownMarketplace }> {
    let record = this.store.marketplaces()[name]
    if (record === undefined) {
      const declared = this.declared().find((d) => d.name === name)
      if (declared === undefined) throw new PluginManagerError(`no marketplace "${name}" is added: seam plugin marketplace add SOURCE first`)
      const added = await this.addMarketplace(declared.source)
      if (added.name !== name) throw new PluginManagerError(`${declared.file}: extraKnownMarketplaces.${name}: the marketplace found there is named "${added.name}"`)
      record = added.known
    }
    return { marketplace: readMarketplace(record.installLocation), record }
  }

  /** `beforeCommit` sees the fetched plugin before anything is written (dependencies install there); throwing leaves nothing of it. */
  private async installEntry(entry: MarketplaceEntry, marketplace: Marketplace, market: KnownMarketplace, asked: InstallAs, release: ResolvedRelease | undefined, beforeCommit?: (layout: PluginLayout) => Promise<void>): Promise<InstallResult> {
    const id = pluginId(entry.name, marketplace.name)
    const staging = this.staging()
    try {
      const files = join(staging, 'p')
      let fetched: { commit?: string; packageVersion?: string }
      if (release !== undefined) {
        await fetchRelease(entry.source, release.home, release.release, files, marketplace)
        fetched = { commit: release.release.commit }
      } else {
        fetched = await fetchPlugin(entry.source, files, market.installLocation, marketplace)
      }
      const { commit, packageVersion } = fetched
      // strict (the default): plugin.json is the authority, the entry fills what it lacks; a folder without one takes the entry's.
      const layout = readPluginFolder(files, { ...entry, name: entry.name })
      if (layout.name !== entry.name) throw new PluginManagerError(`${layout.manifestFile}: name: "${layout.name}" does not match the marketplace entry "${entry.name}"`)
      await beforeCommit?.(layout)
      const hash = contentHash(files)
      // An npm package's own version counts as a git commit does, after plugin.json's and the entry's.
      // A tag-resolved release is the tag's version (whatever plugin.json at that commit says), in a
      // folder named with its commit too, so a tag moved to another commit never reuses a stale copy.
      const version = release?.release.version ?? layout.version ?? entry.version ?? packageVersion ?? (commit ? commit.slice(0, 12) : hash.slice(0, 12))
      const previous = this.store.installed()[id]
      // Installed only as a dependency until the user installs it by name.
      const auto = asked === 'dependency' ? (previous === undefined || previous.auto === true) : asked === 'keep' && previous?.auto === true
      if (previous && previous.contentHash === hash && existsSync(previous.installPath)) {
        let record = previous
        if (previous.auto === true && !auto) {
          record = { ...previous }
          delete record.auto
          this.store.updateInstalled((current) => ({ ...current, [id]: record }))
        }
        return { id, record, layout: readPluginFolder(previous.installPath, { ...entry, name: entry.name }), status: 'unchanged' }
      }
      const installPath = this.store.cacheDir(marketplace.name, entry.name, release !== undefined ? `${version}-${release.release.commit.slice(0, 12)}` : version)
      mkdirSync(join(installPath, '..'), { recursive: true })
      const old = existsSync(installPath) ? `${installPath}.old-${process.pid}-${Date.now()}` : undefined
      if (old) renameSync(installPath, old)
      renameSync(files, installPath)
      if (old) rmSync(old, { recursive: true, force: true })
      if (previous && previous.installPath !== installPath) rmSync(previous.installPath, { recursive: true, force: true })
      mkdirSync(this.store.dataDir(entry.name, marketplace.name), { recursive: true, mode: 0o700 })
      const now = new Date().toISOString()
      const record: InstalledRecord = {
        name: entry.name,
        marketplace: marketplace.name,
        version,
        installPath,
        contentHash: hash,
        installedAt: previous?.installedAt ?? now,
        lastUpdated: now,
        source: describePluginSource(entry.source, marketplace.name),
        ...(previous?.enabled !== undefined ? { enabled: previous.enabled } : {}),
        ...(auto ? { auto } : {})
      }
      this.store.updateInstalled((current) => ({ ...current, [id]: record }))
      this.changed()
      return { id, record, layout: readPluginFolder(installPath, { ...entry, name: entry.name }), status: previous ? 'updated' : 'installed' }
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }

  private staging(): string {
    mkdirSync(this.store.dir, { recursive: true, mode: 0o700 })
    return mkdtempSync(join(this.store.dir, '.staging-'))
  }
}

/** The plugin's and the marketplace's cache folders once nothing is left in them (other versions keep them). */
function removeEmptyParents(path: string, levels: number): void {
  let dir = dirname(path)
  for (let i = 0; i < levels; i++, dir = dirname(dir)) {
    try {
      rmdirSync(dir)
    } catch {
      return // not empty, or gone already
    }
  }
}

function parseId(id: string): [string, string] {
  const at = id.lastIndexOf('@')
  if (at <= 0 || at === id.length - 1) throw new PluginManagerError(`"${id}" is not NAME@MARKETPLACE`)
  return [id.slice(0, at), id.slice(at + 1)]
}

