// Adding marketplaces and installing plugins from them, as `claude plugin …` does: the
// marketplace is a local folder (read in place), a git repository (URL or path, cloned with the
// system git), a URL to a marketplace.json, or an npm package; a plugin entry's source is fetched
// into a staging folder, read, hashed and moved into `cache/<marketplace>/<plugin>/<version>/`.
// Every step that fails leaves the store as it was (staging is removed, JSON files are replaced
// whole, the copy is renamed into place).
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { satisfies } from 'semver'
import { isWithin } from '@seam/sdk/node'
import { copyTree, gitClone, gitHead, gitPull, npmFetch } from './fetch'
import { readPluginFolder, type PluginLayout } from './manifest'
import { MARKETPLACE_FILE, readMarketplace, type Marketplace, type MarketplaceEntry, type MarketplaceSource, type PluginSource } from './marketplace'
import { UserConfigStore } from './user-config'
import { contentHash, pluginId, type InstalledRecord, type KnownMarketplace, type PluginStore } from './store'

export interface InstallResult {
  id: string
  record: InstalledRecord
  layout: PluginLayout
  /** `installed`, `updated` (new content), `unchanged`. */
  status: 'installed' | 'updated' | 'unchanged'
  /** Its `dependencies` installed with it (or found installed already), in install order. */
  dependencies?: InstallResult[]
}

export class PluginManagerError extends Error {}

/** Turns what the user typed after `marketplace add` into a source (Claude Code's accepted forms, plus `npm:`). */
export function parseMarketplaceArg(arg: string, cwd: string): MarketplaceSource {
  if (arg.startsWith('npm:')) {
    const spec = arg.slice(4)
    const at = spec.lastIndexOf('@')
    return at > 0 ? { source: 'npm', package: spec.slice(0, at), version: spec.slice(at + 1) } : { source: 'npm', package: spec }
  }
  const [base, ref] = splitRef(arg)
  if (/^(https?|git|ssh|file):\/\//.test(base) || /^[\w.-]+@[\w.-]+:/.test(base)) {
    if (/^https?:\/\//.test(base) && base.endsWith('.json')) return { source: 'url', url: base }
    return ref !== undefined ? { source: 'git', url: base, ref } : { source: 'git', url: base }
  }
  const local = resolve(cwd, base)
  if (existsSync(local)) {
    // A folder holding a marketplace is read in place; a git repository given by path (`repo.git`, a bare one) is cloned.
    if (existsSync(join(local, MARKETPLACE_FILE))) return { source: 'directory', path: local }
    return ref !== undefined ? { source: 'git', url: local, ref } : { source: 'git', url: local }
  }
  if (/^[\w.-]+\/[\w.-]+$/.test(base)) return ref !== undefined ? { source: 'github', repo: base, ref } : { source: 'github', repo: base }
  throw new PluginManagerError(`"${arg}" is not a marketplace: give a folder, a git URL or path, owner/repo, a URL to a marketplace.json, or npm:PACKAGE`)
}

function splitRef(arg: string): [string, string | undefined] {
  const hash = arg.lastIndexOf('#')
  return hash > 0 ? [arg.slice(0, hash), arg.slice(hash + 1)] : [arg, undefined]
}

export function describeMarketplaceSource(source: MarketplaceSource): string {
  switch (source.source) {
    case 'directory':
      return source.path
    case 'github':
      return `github:${source.repo}${source.ref ? `#${source.ref}` : ''}`
    case 'git':
      return `${source.url}${source.ref ? `#${source.ref}` : ''}`
    case 'url':
      return source.url
    case 'npm':
      return `npm:${source.package}${source.version ? `@${source.version}` : ''}`
  }
}

export function describePluginSource(source: PluginSource, marketplace: string): string {
  if (typeof source === 'string') return `${marketplace}:${source}`
  switch (source.source) {
    case 'github':
      return `github:${source.repo}${source.ref ? `#${source.ref}` : ''}${source.sha ? `@${source.sha}` : ''}`
    case 'url':
      return `${source.url}${source.ref ? `#${source.ref}` : ''}${source.sha ? `@${source.sha}` : ''}`
    case 'git-subdir':
      return `${source.url}//${source.path}${source.ref ? `#${source.ref}` : ''}`
    case 'npm':
      return `npm:${source.package}${source.version ? `@${source.version}` : ''}`
    case 'archive':
      return source.url
    case 'command':
      return `command: ${source.command}`
  }
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
      this.store.saveMarketplaces({ ...known, [marketplace.name]: record })
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
    this.store.saveMarketplaces({ ...known, [name]: next })
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
    const rest = { ...known }
    delete rest[name]
    this.store.saveMarketplaces(rest)
    if (record.source.source !== 'directory') rmSync(record.installLocation, { recursive: true, force: true })
    this.changed()
    return removed
  }

  // ---- plugins ------------------------------------------------------------------------------

  /** Installs `name@marketplace` (adding the marketplace first when a settings file declares it). */
  async install(id: string): Promise<InstallResult> {
    const [name, marketplaceName] = parseId(id)
    const { marketplace, record: market } = await this.marketplace(marketplaceName)
    const entry = marketplace.plugins.find((p) => p.name === name)
    if (entry === undefined) throw new PluginManagerError(`marketplace "${marketplaceName}" has no plugin "${name}" (it lists ${marketplace.plugins.map((p) => p.name).join(', ') || 'none'})`)
    const installedNow: string[] = []
    try {
      return await this.installWithDependencies(entry, marketplace, market, [], installedNow)
    } catch (error) {
      // Nothing half-done: the dependencies this call installed go again, newest first.
      for (const id of installedNow.reverse()) this.uninstall(id, { quiet: true })
      if (installedNow.length > 0) this.changed()
      throw error
    }
  }

  /** The installed plugins whose `dependencies` name `id` (same marketplace), for uninstall and disable to say. */
  dependents(id: string): string[] {
    const [name, marketplace] = parseId(id)
    const out: string[] = []
    for (const [other, record] of Object.entries(this.store.installed())) {
      if (other === pluginId(name, marketplace) || record.marketplace !== marketplace) continue
      try {
        if (readPluginFolder(record.installPath, { name: record.name }).dependencies.some((dependency) => dependency.name === name)) out.push(other)
      } catch {
        // a copy that cannot be read names no dependency; the catalog reports it
      }
    }
    return out
  }

  /**
   * Installs `entry` after its `dependencies` (plugins of the same marketplace; a semver range
   * checked against the version installed), refusing with the manifest's field when one is not
   * in the marketplace or its version does not satisfy the range. A dependency installed already
   * is used as it is. `chain` stops a cycle; `installedNow` collects what this call installed.
   */
  private async installWithDependencies(entry: MarketplaceEntry, marketplace: Marketplace, market: KnownMarketplace, chain: string[], installedNow: string[]): Promise<InstallResult> {
    const id = pluginId(entry.name, marketplace.name)
    const dependencies: InstallResult[] = []
    const result = await this.installEntry(entry, marketplace, market, async (layout) => {
      for (const [i, dependency] of layout.dependencies.entries()) {
        const where = `${layout.manifestFile !== undefined ? `${entry.name}'s plugin.json` : `${entry.name}'s marketplace entry`}: dependencies[${i}]`
        const depId = pluginId(dependency.name, marketplace.name)
        if (chain.includes(depId) || depId === id) continue
        const depEntry = marketplace.plugins.find((p) => p.name === dependency.name)
        if (depEntry === undefined) throw new PluginManagerError(`${where}: marketplace "${marketplace.name}" has no plugin "${dependency.name}" (it lists ${marketplace.plugins.map((p) => p.name).join(', ') || 'none'}); ${id} is not installed`)
        const already = this.store.installed()[depId]
        let found: InstallResult
        if (already !== undefined && existsSync(already.installPath)) {
          found = { id: depId, record: already, layout: readPluginFolder(already.installPath, { ...depEntry, name: depEntry.name }), status: 'unchanged' }
        } else {
          found = await this.installWithDependencies(depEntry, marketplace, market, [...chain, id], installedNow)
          installedNow.push(depId)
        }
        if (dependency.version !== undefined && !satisfies(found.record.version, dependency.version, { includePrerelease: true })) {
          throw new PluginManagerError(`${where}: ${depId} is at version ${found.record.version}, which does not satisfy "${dependency.version}"; ${id} is not installed`)
        }
        dependencies.push(found)
      }
    })
    return dependencies.length > 0 ? { ...result, dependencies } : result
  }

  /** Re-fetches the marketplace, then installs the plugin again if its content changed. */
  async update(id: string): Promise<InstallResult> {
    const [name, marketplaceName] = parseId(id)
    const installed = this.store.installed()[pluginId(name, marketplaceName)]
    if (installed === undefined) throw new PluginManagerError(`${id} is not installed (seam plugin install ${id})`)
    await this.updateMarketplace(marketplaceName)
    return this.install(id)
  }

  uninstall(id: string, options: { keepData?: boolean; quiet?: boolean } = {}): InstalledRecord {
    const [name, marketplace] = parseId(id)
    const key = pluginId(name, marketplace)
    const installed = this.store.installed()
    const record = installed[key]
    if (record === undefined) throw new PluginManagerError(`${key} is not installed (seam plugin list)`)
    const rest = { ...installed }
    delete rest[key]
    this.store.saveInstalled(rest)
    rmSync(record.installPath, { recursive: true, force: true })
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
    const installed = this.store.installed()
    const record = installed[key]
    if (record === undefined) throw new PluginManagerError(`${key} is not installed (seam plugin install ${key})`)
    const next = { ...record, enabled }
    this.store.saveInstalled({ ...installed, [key]: next })
    this.changed()
    return next
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
  private async installEntry(entry: MarketplaceEntry, marketplace: Marketplace, market: KnownMarketplace, beforeCommit?: (layout: PluginLayout) => Promise<void>): Promise<InstallResult> {
    const id = pluginId(entry.name, marketplace.name)
    const staging = this.staging()
    try {
      const files = join(staging, 'p')
      const { commit, packageVersion } = await fetchPlugin(entry.source, files, market.installLocation, marketplace)
      // strict (the default): plugin.json is the authority, the entry fills what it lacks; a folder without one takes the entry's.
      const layout = readPluginFolder(files, { ...entry, name: entry.name })
      if (layout.name !== entry.name) throw new PluginManagerError(`${layout.manifestFile}: name: "${layout.name}" does not match the marketplace entry "${entry.name}"`)
      await beforeCommit?.(layout)
      const hash = contentHash(files)
      // An npm package's own version counts as a git commit does, after plugin.json's and the entry's.
      const version = layout.version ?? entry.version ?? packageVersion ?? (commit ? commit.slice(0, 12) : hash.slice(0, 12))
      const installed = this.store.installed()
      const previous = installed[id]
      if (previous && previous.contentHash === hash && existsSync(previous.installPath)) {
        return { id, record: previous, layout: readPluginFolder(previous.installPath, { ...entry, name: entry.name }), status: 'unchanged' }
      }
      const installPath = this.store.cacheDir(marketplace.name, entry.name, version)
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
        ...(previous?.enabled !== undefined ? { enabled: previous.enabled } : {})
      }
      this.store.saveInstalled({ ...installed, [id]: record })
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

function parseId(id: string): [string, string] {
  const at = id.lastIndexOf('@')
  if (at <= 0 || at === id.length - 1) throw new PluginManagerError(`"${id}" is not NAME@MARKETPLACE`)
  return [id.slice(0, at), id.slice(at + 1)]
}

/** Brings a marketplace into `dest` (a directory source is read where it is). Returns the commit for git. */
async function fetchMarketplace(source: MarketplaceSource, dest: string): Promise<string | undefined> {
  switch (source.source) {
    case 'directory':
      return undefined
    case 'github':
      await gitClone(`https://github.com/${source.repo}.git`, dest, source.ref ? { ref: source.ref } : {})
      return gitHead(dest)
    case 'git':
      await gitClone(source.url, dest, source.ref ? { ref: source.ref } : {})
      return gitHead(dest)
    case 'npm':
      await npmFetch(source.version ? `${source.package}@${source.version}` : source.package, dest, source.registry)
      return undefined
    case 'url': {
      const response = await fetch(source.url)
      if (!response.ok) throw new PluginManagerError(`${source.url}: HTTP ${response.status}`)
      mkdirSync(join(dest, '.claude-plugin'), { recursive: true })
      writeFileSync(join(dest, MARKETPLACE_FILE), await response.text())
      return undefined
    }
  }
}

/** Brings one plugin's files into `dest`. Returns the commit for git sources, the package's version for npm. */
async function fetchPlugin(source: PluginSource, dest: string, marketplaceRoot: string, marketplace: Marketplace): Promise<{ commit?: string; packageVersion?: string }> {
  if (typeof source === 'string') {
    // `./path` against the marketplace root; a bare name under metadata.pluginRoot.
    const base = source.startsWith('./') || source.startsWith('../') || isAbsolute(source) ? marketplaceRoot : resolve(marketplaceRoot, marketplace.metadata?.pluginRoot ?? '.')
    const from = resolve(base, source)
    if (!isWithin(marketplaceRoot, from)) throw new PluginManagerError(`marketplace "${marketplace.name}": source "${source}" is outside the marketplace`)
    if (!existsSync(from)) throw new PluginManagerError(`marketplace "${marketplace.name}": source "${source}" does not exist in ${marketplaceRoot}${existsSync(join(marketplaceRoot, '.git')) ? '' : ' (a marketplace added from a URL has no files: only remote sources work)'}`)
    copyTree(from, dest)
    return {}
  }
  switch (source.source) {
    case 'github':
    case 'url': {
      const url = source.source === 'github' ? `https://github.com/${source.repo}.git` : source.url
      await gitClone(url, dest, { ...(source.ref ? { ref: source.ref } : {}), ...(source.sha ? { sha: source.sha } : {}) })
      const commit = await gitHead(dest)
      rmSync(join(dest, '.git'), { recursive: true, force: true })
      return { commit }
    }
    case 'git-subdir': {
      const clone = `${dest}.clone`
      try {
        await gitClone(source.url, clone, { ...(source.ref ? { ref: source.ref } : {}), ...(source.sha ? { sha: source.sha } : {}) })
        const from = resolve(clone, source.path)
        if (!isWithin(clone, from) || !existsSync(from)) throw new PluginManagerError(`${source.url}: path "${source.path}" is not a folder of the repository`)
        copyTree(from, dest)
        return { commit: await gitHead(clone) }
      } finally {
        rmSync(clone, { recursive: true, force: true })
      }
    }
    case 'npm':
      return { packageVersion: await npmFetch(source.version ? `${source.package}@${source.version}` : source.package, dest, source.registry) }
    case 'archive':
    case 'command':
      throw new PluginManagerError(`plugin source "${source.source}" is not supported by Seam yet (use ./path, github, url, git-subdir or npm)`)
  }
}
