// The running plugin tree: the base profile plus patch layers plus installed bundles, applied
// by the ProfileLoader and recomposed when a patch file, a setting, the workspace trust or the
// set of bundles changes. A bad edit keeps the last good tree and reports the error.
import type { Context, Plugin } from '../../src-shared/kernel'
import type { Disposable } from '../../src-shared/kernel/types'
import type { PluginInfo } from '../../src-shared/contract/ipc'
import { composeProfile, dumpProfile, type PatchLayer } from '../plugins/compose'
import { loadLayers, layerPaths } from '../plugins/layers'
import { ProfileLoader } from '../plugins/loader'
import type { CatalogEntry, ComposedEntry, ProfileEntry } from '../plugins/profile'
import { watchPatchFiles } from '../plugins/watch'
import { setEntryDisabled } from '../plugins/patch-edit'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-file'
import { BundleShelf, type BundleDeclaration } from './bundle-shelf'
import { baseProfile, builtinCatalog } from './base-profile'
import type { HostRuntime } from './runtime'
import { SDK_VERSION } from '@seam/sdk/version'

export type { TrustItem, WorkspaceService, RpcService } from '../../src-shared/host/workspace'
import type { TrustItem } from '../../src-shared/host/workspace'

export class PluginHost {
  private loader?: ProfileLoader
  private entries: ComposedEntry[] = []
  private layers: PatchLayer[] = []
  private lastError?: string
  private stopWatching: () => void = () => {}
  private watchedPaths: string | undefined
  /** The last queued recompose: they run one at a time, each reading settings and layers when it starts. */
  private composing: Promise<void> = Promise.resolve()
  private closed = false
  private readonly changed = new Set<() => void>()
  private readonly trustProviders = new Set<(workspace: string) => TrustItem[]>()
  private readonly rpcMethods = new Map<string, (input: unknown) => unknown>()
  readonly bundles: BundleShelf

  constructor(private readonly runtime: HostRuntime) {
    // engines.seam ranges are checked against the plugin API's version (packages/sdk).
    this.bundles = new BundleShelf(runtime.paths.home, SDK_VERSION)
  }

  onChanged(listener: () => void): () => void {
    this.changed.add(listener)
    return () => this.changed.delete(listener)
  }

  async start(): Promise<void> {
    this.provideCoreServices()
    await this.bundles.loadAll((name, error) => this.report(`bundle ${name}: ${error}`))
    await this.recompose()
  }

  /** Recompose every layer and reload only what changed. On error the last good tree stays. */
  recompose(): Promise<void> {
    const run = this.composing.then(() => this.recomposeNow())
    this.composing = run.catch(() => undefined)
    return run
  }

  private async recomposeNow(): Promise<void> {
    if (this.closed) return
    const sources = this.layerSources()
    let entries: ComposedEntry[]
    try {
      const layers = await loadLayers(sources)
      if (this.closed) return
      this.layers = layers
      entries = composeProfile(this.base(), this.layers, this.catalog())
      this.lastError = undefined
    } catch (error) {
      this.report((error as Error).message)
      if (this.loader) return
      // First start with a broken layer: run the base profile alone so the app still opens.
      entries = composeProfile(this.base(), [], this.catalog())
    }
    this.entries = entries
    if (!this.loader) this.loader = new ProfileLoader(this.runtime.kernel, this.catalog(), entries)
    else this.loader.reload(entries, this.catalog())
    this.watch(layerPaths(sources))
    this.notify()
  }

  list(): PluginInfo[] {
    const states = new Map((this.loader?.states() ?? []).map((s) => [s.id, s]))
    return this.entries.map((entry) => {
      const state = states.get(entry.id)
      const bundle = this.catalog().get(entry.plugin)?.bundle
      const installed = bundle ? this.bundles.get(bundle.name) : undefined
      return {
        id: entry.id,
        // Built-ins go by their profile id: what patch rows (and enable/disable) name.
        name: bundle?.name ?? entry.id,
        version: bundle?.version,
        source: installed?.source ?? entry.origin,
        kind: bundle ? ('bundle' as const) : ('builtin' as const),
        state: entry.disabled ? ('disabled' as const) : (state?.state ?? 'failed'),
        error: state?.error,
        missing: state?.missing ?? [],
        parts: { host: bundle ? Boolean(installed?.manifest.host) : true, client: Boolean(installed?.manifest.client) }
      }
    }).concat(
      // Installed but disabled bundles have no profile entry: list them too.
      this.bundles
        .all()
        .filter((b) => !b.enabled)
        .map((b) => ({
          id: b.manifest.name,
          name: b.manifest.name,
          version: b.manifest.version,
          source: b.source,
          kind: 'bundle' as const,
          state: 'disabled' as const,
          error: undefined,
          missing: [],
          parts: { host: Boolean(b.manifest.host), client: Boolean(b.manifest.client) }
        }))
    )
  }

  dump(): { text: string; error?: string } {
    return { text: dumpProfile(this.entries), error: this.lastError }
  }

  inspect(path: string): Promise<BundleDeclaration> {
    return this.bundles.inspect(path)
  }

  async install(path: string): Promise<BundleDeclaration> {
    const declared = await this.bundles.install(path)
    await this.recompose()
    return declared
  }

  /**
   * Enable or disable an installed bundle (in the lock file) or any other profile entry (a
   * disable/enable row in <Seam home>/cordis.patch.yml, where the user can see and undo it).
   */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    if (this.bundles.get(name)) {
      await this.bundles.setEnabled(name, enabled)
      await this.recompose()
      return
    }
    if (!this.entries.some((e) => e.id === name)) throw Object.assign(new Error(`no plugin or profile entry named "${name}"`), { code: 'NOT_FOUND' })
    const file = this.runtime.paths.patch
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    writeFileAtomic(file, setEntryDisabled(text, name, !enabled), 0o644)
    await this.recompose()
    const entry = this.entries.find((e) => e.id === name)
    if (this.lastError) throw new Error(this.lastError)
    if (entry && Boolean(entry.disabled) === enabled) {
      throw new Error(`"${name}" is ${entry.disabled ? 'disabled' : 'enabled'} by a later patch layer (${entry.origin}); change it there`)
    }
  }

  async remove(name: string): Promise<void> {
    await this.bundles.remove(name)
    await this.recompose()
  }

  clientEntries(mode: 'electron' | 'web'): Array<{ name: string; url: string }> {
    return this.bundles.clientEntries(mode)
  }

  resolveClientFile(name: string, file: string): string | null {
    return this.bundles.resolveClientFile(name, file)
  }

  async call(plugin: string, method: string, input: unknown): Promise<unknown> {
    const handler = this.rpcMethods.get(`${plugin}/${method}`)
    if (!handler) throw Object.assign(new Error(`plugin "${plugin}" has no method "${method}"`), { code: 'NO_METHOD' })
    return handler(input)
  }

  trustPreview(workspace: string): TrustItem[] {
    return [...this.trustProviders].flatMap((provide) => provide(workspace))
  }

  close(): void {
    this.closed = true
    this.stopWatching()
    this.loader?.dispose()
  }

  private base(): ProfileEntry[] {
    const settings = this.runtime.settings.value
    const bundleEntries: ProfileEntry[] = this.bundles
      .all()
      .filter((b) => b.enabled && b.plugin)
      .map((b) => ({ id: b.manifest.name, plugin: `bundle:${b.manifest.name}` }))
    return [
      ...baseProfile({
        answererKey: this.runtime.options.answerer.key,
        approvalMode: this.runtime.approvalMode(),
        approvalModeFromCommandLine: this.runtime.options.approvalMode !== undefined,
        claudeUserSettingsPath: claudeUserSettingsPath(this.runtime.options.env),
        workspace: this.runtime.workspace(),
        hookConcurrency: settings.hookConcurrency,
        seamHooks: settings.hooks,
        extra: this.runtime.options.extraEntries?.map((e) => ({ id: e.id, plugin: e.key })),
        mcp: { servers: settings.mcpServers ?? {}, disabled: settings.mcpDisabled, settingsFile: this.runtime.paths.settings }
      }),
      ...bundleEntries
    ]
  }

  private catalog(): Map<string, CatalogEntry> {
    const catalog = builtinCatalog({ answerer: this.runtime.options.answerer, extra: this.runtime.options.extraEntries })
    for (const bundle of this.bundles.all()) {
      if (!bundle.plugin) continue
      catalog.set(`bundle:${bundle.manifest.name}`, {
        plugin: bundle.plugin as Plugin,
        source: 'bundle',
        bundle: { name: bundle.manifest.name, version: bundle.manifest.version, dir: bundle.dir }
      })
    }
    return catalog
  }

  private layerSources() {
    const workspace = this.runtime.workspace() ?? undefined
    return { seamHome: this.runtime.paths.home, workspace, trusted: this.runtime.isTrusted(workspace ?? null), patchFile: this.runtime.options.patchFile }
  }

  private watch(paths: string[]): void {
    // Recomposing is frequent (settings, trust, bundles); the watched files change only with the
    // workspace or its trust, so keep the watchers while the paths stay the same.
    const key = paths.join('\n')
    if (key === this.watchedPaths) return
    this.watchedPaths = key
    this.stopWatching()
    this.stopWatching = watchPatchFiles(paths, () => {
      this.recompose().catch((error: unknown) => this.report(`recomposing after a patch file changed failed: ${(error as Error)?.message ?? String(error)}`))
    })
  }

  /** `workspace` and `rpc` live on the root context; `workspace` is re-provided on recompose. */
  private provideCoreServices(): void {
    const kernel = this.runtime.kernel
    const rpcMethods = this.rpcMethods
    const namespaceOf = (ctx: Context) => this.rpcNamespace(ctx)
    kernel.context.provide('rpc', {
      register(ctx, method, handler) {
        const namespace = namespaceOf(ctx)
        const key = `${namespace}/${method}`
        if (rpcMethods.has(key)) throw new Error(`plugin "${namespace}" already registered the method "${method}"`)
        rpcMethods.set(key, handler)
        return ctx.onDispose(() => rpcMethods.delete(key))
      }
    })
    let current: Disposable | undefined
    const provideWorkspace = () => {
      const root = this.runtime.workspace()
      const trusted = this.runtime.isTrusted(root)
      const providers = this.trustProviders
      const next = kernel.context.provide('workspace', {
        root,
        trusted,
        seamHome: this.runtime.paths.home,
        contributeTrustItems(ctx, items) {
          providers.add(items)
          return ctx.onDispose(() => providers.delete(items))
        }
      })
      current?.()
      current = next
    }
    provideWorkspace()
    this.onChanged(() => {
      const service = kernel.getService('workspace')
      if (service?.root !== this.runtime.workspace() || service?.trusted !== this.runtime.isTrusted()) provideWorkspace()
    })
  }

  /**
   * RPC methods are namespaced by the bundle that registered them (its package name, which is
   * what its client part calls with), or by the plugin's name for built-ins.
   */
  private rpcNamespace(ctx: Context): string {
    let runtime = ctx.runtime
    while (runtime.parent && runtime.parent !== this.runtime.kernel.root) runtime = runtime.parent
    const bundle = this.bundles.all().find((b) => b.plugin !== undefined && b.plugin === runtime.plugin)
    return bundle?.manifest.name ?? ctx.name
  }

  private report(message: string): void {
    this.lastError = message
    this.runtime.kernel.log({ level: 'error', plugin: 'plugin-host', message, time: Date.now() })
  }

  private notify(): void {
    for (const listener of this.changed) listener()
  }
}

/** Claude Code's user settings in the host's environment (its HOME), or undefined for the plugins' default. */
function claudeUserSettingsPath(env: NodeJS.ProcessEnv | undefined): string | undefined {
  const home = env?.HOME
  return home ? join(home, '.claude', 'settings.json') : undefined
}
