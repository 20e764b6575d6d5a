// The installed bundles as the running host holds them: manifests read, host entries imported,
// client entries resolvable for the renderer. Install, enable, disable and remove go through
// src-main/plugins/bundles (validation, archive checks, lock file); this keeps the live view.
import { realpathSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import type { Plugin } from '../../src-shared/kernel'
import { errorText } from '../../src-shared/kernel'
import { checkArchiveEntries, extractArchive, listArchive } from '../plugins/bundles/archive'
import { loadBundleHost } from '../plugins/bundles/host-entry'
import { installBundle, type InstallOptions } from '../plugins/bundles/install'
import { readManifest, type BundleManifest } from '../plugins/bundles/manifest'
import { listBundles, removeBundle, setEnabled } from '../plugins/bundles/registry'
import type { LockEntry } from '../plugins/bundles/lockfile'
import { verifyInstalledBundle } from '../plugins/bundles/verify'
import { pluginClientUrl } from '../transport/csp'

export interface ShelfBundle {
  manifest: BundleManifest
  dir: string
  source: string
  enabled: boolean
  /** The host entry's plugin, when the bundle has one and it loaded. */
  plugin?: Plugin
  error?: string
  /** A dev bundle (`seam plugin dev`): loaded from its folder, over an installed bundle of the same name. */
  dev?: {
    build: number
    /** A later build that failed to build, import or activate; `build` (the last good one) still runs, `error` says why. */
    failedBuild?: number
  }
}

export interface BundleDeclaration {
  name: string
  version: string
  host?: string
  client?: string
  engines: string
  warning: string
}

export interface BundleInstalled extends BundleDeclaration {
  status: 'installed' | 'upgraded' | 'replaced' | 'unchanged'
  /** What happened, with both hashes when an installed copy was replaced. */
  message: string
}

const HOST_WARNING = 'Its host part runs inside Seam\'s main process as trusted code, with your permissions: install only bundles you trust.'
const CLIENT_ONLY = 'It has only a client part: it runs in the UI and reaches the host through its own RPC methods.'

export class BundleShelf {
  private readonly bundles = new Map<string, ShelfBundle>()
  /** Dev bundles by name; each takes precedence over the installed bundle of its name. */
  private readonly devBundles = new Map<string, ShelfBundle>()

  constructor(
    readonly seamHome: string,
    readonly seamVersion: string
  ) {}

  /** Installed bundles, each replaced by the dev bundle of its name if there is one, then the other dev bundles. */
  all(): ShelfBundle[] {
    const installed = [...this.bundles.values()].map((b) => this.devBundles.get(b.manifest.name) ?? b)
    return [...installed, ...[...this.devBundles.values()].filter((b) => !this.bundles.has(b.manifest.name))]
  }

  get(name: string): ShelfBundle | undefined {
    return this.devBundles.get(name) ?? this.bundles.get(name)
  }

  /** The installed bundle of `name`, ignoring a dev bundle over it. */
  installed(name: string): ShelfBundle | undefined {
    return this.bundles.get(name)
  }

  /** Puts (or, with undefined, takes away) the dev bundle of `name`. */
  setDev(name: string, bundle: ShelfBundle | undefined): void {
    if (bundle) this.devBundles.set(name, bundle)
    else this.devBundles.delete(name)
  }

  /**
   * Reads the lock and imports every enabled bundle's host entry, after checking its files
   * against the lock's hash; a broken or changed bundle (or lock file) is reported, not fatal.
   */
  async loadAll(report: (name: string, error: string) => void): Promise<void> {
    this.bundles.clear()
    let lock: Awaited<ReturnType<typeof listBundles>>
    try {
      lock = await listBundles(this.seamHome)
    } catch (error) {
      report('(every installed bundle)', `not loaded: ${errorText(error)}`)
      return
    }
    for (const installed of lock) {
      const bundle = await this.load(installed.dir, installed)
      if (bundle.error) report(installed.name, bundle.error)
      this.bundles.set(installed.name, bundle)
    }
  }

  /** What a bundle declares, read without installing it (for the install dialog). */
  async inspect(path: string): Promise<BundleDeclaration> {
    const source = resolve(path)
    if ((await stat(source)).isDirectory()) return declaration(await readManifest(source, this.seamVersion))
    const temp = await mkdtemp(join(tmpdir(), 'seam-inspect-'))
    try {
      const data = await readFile(source)
      const checked = checkArchiveEntries(await listArchive(data))
      await extractArchive(data, temp, checked)
      return declaration(await readManifest(temp, this.seamVersion))
    } finally {
      await rm(temp, { recursive: true, force: true })
    }
  }

  async install(path: string, options: Pick<InstallOptions, 'force' | 'fromRegistry' | 'keepEnabledState'> = {}): Promise<BundleInstalled> {
    const result = await installBundle({
      source: path,
      force: options.force,
      fromRegistry: options.fromRegistry,
      keepEnabledState: options.keepEnabledState,
      seamHome: this.seamHome,
      seamVersion: this.seamVersion,
      // The new version becomes the recorded one only once its host entry has loaded.
      verify: async (dir, manifest) => {
        if (manifest.host) await loadBundleHost(dir, manifest)
      }
    })
    this.bundles.set(result.manifest.name, await this.load(result.dir, result.entry))
    return { ...declaration(result.manifest), status: result.status, message: result.message }
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const entry = await setEnabled(this.seamHome, name, enabled)
    const current = this.bundles.get(name)
    if (current) this.bundles.set(name, enabled && !current.plugin ? await this.load(current.dir, entry) : { ...current, enabled })
  }

  async remove(name: string): Promise<void> {
    await removeBundle(this.seamHome, name)
    this.bundles.delete(name)
  }

  /** Enabled client entries, as URLs the renderer of this host mode can import. */
  clientEntries(mode: 'electron' | 'web'): Array<{ name: string; url: string }> {
    return this.all()
      .filter((b) => b.enabled && b.manifest.client && runs(b))
      .map((b) => {
        const url = pluginClientUrl(mode, b.manifest.name, b.manifest.client!)
        // A new build is a new URL, so the renderer imports it afresh (the query is ignored when serving).
        return { name: b.manifest.name, url: b.dev ? `${url}?seam-dev=${b.dev.build}` : url }
      })
  }

  /** A file of an enabled bundle, for the renderer to import; null when it is not one. */
  resolveClientFile(name: string, file: string): string | null {
    const bundle = this.get(name)
    // A bundle that failed to load (e.g. its files no longer match lock.json) serves nothing.
    if (!bundle || !bundle.enabled || !runs(bundle)) return null
    // Real paths on both sides: a link inside the bundle folder must not serve a file outside it.
    let root: string
    let target: string
    try {
      root = realpathSync(bundle.dir)
      target = realpathSync(resolve(bundle.dir, file))
    } catch {
      return null
    }
    return target.startsWith(root + sep) ? target : null
  }

  private async load(dir: string, entry: LockEntry): Promise<ShelfBundle> {
    const { source, enabled } = entry
    let manifest: BundleManifest
    try {
      manifest = await readManifest(dir, this.seamVersion)
    } catch (error) {
      const name = dir.split(sep).pop() ?? dir
      return { manifest: { name, version: '?', engines: '?' }, dir, source, enabled, error: errorText(error) }
    }
    if (!enabled) return { manifest, dir, source, enabled }
    try {
      await verifyInstalledBundle(entry, dir)
      if (!manifest.host) return { manifest, dir, source, enabled }
      return { manifest, dir, source, enabled, plugin: await loadBundleHost(dir, manifest) }
    } catch (error) {
      return { manifest, dir, source, enabled, error: errorText(error) }
    }
  }
}

/** Loaded without error, or a dev bundle's last good build running while a later one failed. */
export function runs(bundle: ShelfBundle): boolean {
  return bundle.error === undefined || bundle.dev?.failedBuild !== undefined
}

function declaration(manifest: BundleManifest): BundleDeclaration {
  return {
    name: manifest.name,
    version: manifest.version,
    host: manifest.host,
    client: manifest.client,
    engines: manifest.engines,
    warning: manifest.host ? HOST_WARNING : CLIENT_ONLY
  }
}
