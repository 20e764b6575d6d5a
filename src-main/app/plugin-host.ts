// One workspace's running plugin tree: the base profile plus patch layers plus installed bundles,
// applied by the ProfileLoader to that workspace's kernel and recomposed when a patch file, a
// setting, the workspace's trust or the set of bundles changes. A bad edit keeps the last good
// tree and reports the error. Every workspace with an open session (and the one the window
// shows) has its own tree, so a session's hooks, trust, patch layer, rules and grants are always
// those of its own workspace (HostRuntime keeps the trees).
import type { Context, Kernel, Plugin } from '../../src-shared/kernel'
import type { Disposable } from '../../src-shared/kernel/types'
import type { PluginInfo, PluginTreeEntry } from '../../src-shared/contract/ipc'
import { composeProfile, dumpProfile, type PatchLayer } from '../plugins/compose'
import { loadLayers, layerPaths, PATCH_FILE_NAME } from '../plugins/layers'
import { ProfileLoader } from '../plugins/loader'
import type { CatalogEntry, ComposedEntry, ProfileEntry } from '../plugins/profile'
import { watchPatchFiles } from '../plugins/watch'
import { setEntryDisabled } from '../plugins/patch-edit'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-file'
import { BundleShelf, runs, type BundleDeclaration, type BundleInstalled } from './bundle-shelf'
import { installBundleByName, resolveBundle, searchBundles, updateBundles, type RegistryContext, type RegistryInstalled, type RegistryResolution } from './bundle-registry'
import type { UpdateReport } from '../plugins/bundles/registry-install'
import type { SearchResult } from '../plugins/bundles/registry-search'
import { baseProfile, builtinCatalog } from './base-profile'
import type { HostRuntime } from './runtime'
import { createSessionModelService } from './session-models'
import { pluginTree } from './plugin-tree'
import { ToolRegistryImpl } from '../tools/registry'
import { projectCommandTrustItems } from '../commands/trust'
import { TrustPins, trustItemHash, type ReviewedTrustItem, type TrustItem } from '../security/trust-pins'
import { createTurnPermissions } from '../../src-shared/host/services'
import { createSlashCommandRegistry } from '../../src-shared/host/slash-commands'
import { setDefaultChildEnvPolicy } from '../process/guarded-spawn'

export type { TrustItem } from '../security/trust-pins'

export type { WorkspaceService, RpcService } from '../../src-shared/host/workspace'

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
  private readonly trustListeners = new Set<() => void>()
  private readonly trustProviders = new Set<(workspace: string) => TrustItem[]>()
  private readonly rpcMethods = new Map<string, (input: unknown) => unknown>()
  private reprovideWorkspace: () => void = () => {}

  constructor(
    private readonly runtime: HostRuntime,
    /** The workspace this tree belongs to (`null`: none chosen yet). */
    readonly root: string | null,
    readonly kernel: Kernel,
    /** Installed bundles, shared by every workspace's tree. */
    readonly bundles: BundleShelf
  ) {
    // Project slash commands that run shell lines are trust items of the host's own.
    this.trustProviders.add(projectCommandTrustItems)
  }

  /** Trust approvals (hashes of what each dialog showed), shared by every workspace's tree. */
  get pins(): TrustPins {
    return this.runtime.pins
  }

  onChanged(listener: () => void): () => void {
    this.changed.add(listener)
    return () => this.changed.delete(listener)
  }

  /** A plugin re-read the workspace's items (they may now differ from what was approved). */
  onTrustItemsChanged(listener: () => void): () => void {
    this.trustListeners.add(listener)
    return () => this.trustListeners.delete(listener)
  }

  async start(): Promise<void> {
    this.provideCoreServices()
    await this.recompose()
    await this.pinLegacyTrust()
  }

  /**
   * `--trust-workspace` approves what is there at start (for this run only). A workspace trusted
   * before pinning existed has its current items pinned once, as the dialog showed them then.
   */
  async pinLegacyTrust(): Promise<void> {
    const workspace = this.root
    if (!workspace || !this.runtime.isTrusted(workspace)) return
    const items = this.trustItems(workspace)
    if (this.runtime.options.trustWorkspace && workspace === this.runtime.options.workspace) {
      this.pins.approveForSession(workspace, items)
    } else if (this.runtime.trustRoot(workspace) !== workspace) {
      // A worktree Seam made has its repository's approvals: nothing is pinned for it here.
      return
    } else if (!this.pins.has(workspace) && !this.pins.loadError) {
      this.pins.approve(workspace, items, new Set(items.map((item) => trustItemHash(item, workspace))))
    } else return
    this.reprovideWorkspace()
    this.notifyTrust()
  }

  private notifyTrust(): void {
    for (const listener of this.trustListeners) listener()
    this.runtime.trustItemsChanged()
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
    if (!this.loader) this.loader = new ProfileLoader(this.kernel, this.catalog(), entries)
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
        // A dev bundle's failed rebuild or reload is shown on the row of the build still running.
        error: state?.error ?? installed?.error,
        missing: state?.missing ?? [],
        parts: { host: bundle ? Boolean(installed?.manifest.host) : true, client: Boolean(installed?.manifest.client) },
        ...(installed?.dev ? { dev: true } : {})
      }
    }).concat(
      // Installed bundles that are disabled, or failed to load (a changed folder), have no profile entry: list them too.
      this.bundles
        .all()
        .filter((b) => !b.enabled || (b.error !== undefined && !b.plugin) || (b.dev !== undefined && !b.plugin))
        .map((b) => ({
          id: b.manifest.name,
          name: b.manifest.name,
          version: b.manifest.version,
          source: b.source,
          kind: 'bundle' as const,
          state: !b.enabled ? ('disabled' as const) : runs(b) ? ('active' as const) : ('failed' as const),
          error: b.enabled ? b.error : undefined,
          missing: [],
          parts: { host: Boolean(b.manifest.host), client: Boolean(b.manifest.client) },
          ...(b.dev ? { dev: true } : {})
        }))
    )
  }

  /**
   * The ids of the profile's entries switched off, which the tree shows as 'disabled', without
   * building the tree (which renders every entry's config as YAML) for each status answer. An
   * installed bundle switched off has no entry, so it is not among them.
   */
  disabledEntries(): string[] {
    return this.entries.filter((entry) => entry.disabled).map((entry) => entry.id)
  }

  /** The composed tree entry by entry, for the settings page (plugin-tree.ts). */
  tree(): { entries: PluginTreeEntry[]; error?: string; userLayer: string } {
    const sources = this.layerSources()
    const [user, ...rest] = layerPaths(sources)
    const workspace = sources.workspace && sources.trusted ? rest.shift() : undefined
    const registry = this.kernel.getService('tools')
    const catalog = this.catalog()
    const entries = pluginTree({
      entries: this.entries,
      states: this.loader?.states() ?? [],
      pluginNameOf: (id) => this.loader?.handle(id)?.name,
      isBundle: (key) => catalog.get(key)?.bundle !== undefined || key.startsWith('bundle:'),
      toolOwners: registry instanceof ToolRegistryImpl ? registry.owners() : [],
      layers: { user: user!, workspace, file: rest[0] },
      bundles: this.bundles.all()
    })
    return this.lastError === undefined ? { entries, userLayer: user! } : { entries, error: this.lastError, userLayer: user! }
  }

  dump(): { text: string; error?: string } {
    return { text: dumpProfile(this.entries), error: this.lastError }
  }

  inspect(path: string): Promise<BundleDeclaration> {
    return this.bundles.inspect(path)
  }

  async install(path: string, options: { force?: boolean } = {}): Promise<BundleInstalled> {
    const declared = await this.bundles.install(path, options)
    await this.runtime.recomposeAll()
    return declared
  }

  /** npm's settings are read as `npm install` run in this workspace would read them (its .npmrc, the user's, the environment). */
  private registryContext(): RegistryContext {
    return { shelf: this.bundles, cwd: this.root ?? process.cwd(), env: this.runtime.options.env ?? process.env }
  }

  /** What NAME[@RANGE] resolves to in the registry (engines.seam checked), without downloading it. */
  resolveFromRegistry(spec: string): Promise<RegistryResolution> {
    return resolveBundle(this.registryContext(), spec)
  }

  async installFromRegistry(spec: string, options: { force?: boolean } = {}): Promise<RegistryInstalled> {
    const installed = await installBundleByName(this.registryContext(), spec, options)
    await this.runtime.recomposeAll()
    return installed
  }

  async updateFromRegistry(name?: string): Promise<UpdateReport[]> {
    const reports = await updateBundles(this.registryContext(), name)
    if (reports.some((r) => r.status === 'updated')) await this.runtime.recomposeAll()
    return reports
  }

  searchRegistry(query: string): Promise<SearchResult> {
    return searchBundles(this.registryContext(), query)
  }

  /**
   * Enable or disable an installed bundle (in the lock file) or any other profile entry (a
   * disable/enable row in <Seam home>/cordis.patch.yml, where the user can see and undo it).
   */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    if (this.bundles.get(name)) {
      await this.bundles.setEnabled(name, enabled)
      await this.runtime.recomposeAll()
      return
    }
    if (!this.entries.some((e) => e.id === name)) throw Object.assign(new Error(`no plugin or profile entry named "${name}"`), { code: 'NOT_FOUND' })
    const file = this.runtime.paths.patch
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    writeFileAtomic(file, setEntryDisabled(text, name, !enabled), 0o644)
    await this.runtime.recomposeAll()
    const entry = this.entries.find((e) => e.id === name)
    if (this.lastError) throw new Error(this.lastError)
    if (entry && Boolean(entry.disabled) === enabled) {
      throw new Error(`"${name}" is ${entry.disabled ? 'disabled' : 'enabled'} by a later patch layer (${entry.origin}); change it there`)
    }
  }

  async remove(name: string): Promise<void> {
    await this.bundles.remove(name)
    await this.runtime.recomposeAll()
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

  /** Every item the workspace declares, from every plugin that registered a kind. */
  trustItems(workspace: string): TrustItem[] {
    return [...this.trustProviders].flatMap((provide) => provide(workspace))
  }

  /** What the trust dialog shows: each item with its hash and whether it is approved, new or changed (with the old text). */
  trustPreview(workspace: string): ReviewedTrustItem[] {
    // A worktree session's worktree: what its repository approved is approved here too.
    const root = this.runtime.trustRoot(workspace)
    return this.pins.review(workspace, this.trustItems(workspace), root === workspace ? undefined : root)
  }

  /**
   * How many things in the workspace depend on its trust: the items plugins declare (hooks, Claude
   * Code settings, MCP servers, ...) and its own patch layer, `.seam/cordis.patch.yml`.
   */
  trustNeeded(): number {
    const workspace = this.root
    if (!workspace) return 0
    return this.trustItems(workspace).length + (existsSync(join(workspace, '.seam', PATCH_FILE_NAME)) ? 1 : 0)
  }

  /** Items of the trusted workspace that do not run until the user approves them (the UI's badge). */
  pendingTrustChanges(): number {
    const workspace = this.root
    if (!workspace || !this.runtime.isTrusted(workspace)) return 0
    return this.trustPreview(workspace).filter((item) => item.status !== 'approved').length
  }

  /**
   * Approves the items whose hashes the dialog showed (every current item when `hashes` is
   * omitted) and restarts what depends on the workspace service, so they run from now on.
   */
  async approveTrustItems(workspace: string, hashes?: readonly string[]): Promise<void> {
    const items = this.trustItems(workspace)
    this.pins.approve(workspace, items, new Set(hashes ?? items.map((item) => trustItemHash(item, workspace))))
    this.reprovideWorkspace()
    await this.recompose()
    this.notifyTrust()
  }

  /** Untrusting forgets the approvals: trusting again shows everything as new. */
  forgetTrust(workspace: string): void {
    this.pins.forget(workspace)
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
        approvalModeFromCommandLine: this.runtime.approvalModeChosen(),
        claudeUserSettingsPath: claudeUserSettingsPath(this.runtime.options.env),
        ...(this.runtime.options.env?.HOME ? { userHome: this.runtime.options.env.HOME } : {}),
        ...(this.runtime.options.env?.CODEX_HOME ? { codexHome: this.runtime.options.env.CODEX_HOME } : {}),
        workspace: this.root,
        hookConcurrency: settings.hookConcurrency,
        idlePromptSeconds: settings.idlePromptSeconds,
        seamHooks: settings.hooks,
        headless: this.runtime.options.mode === 'headless',
        extra: this.runtime.options.extraEntries?.map((e) => ({ id: e.id, plugin: e.key })),
        mcp: { servers: settings.mcpServers ?? {}, disabled: settings.mcpDisabled, settingsFile: this.runtime.paths.settings },
        channels: {
          enabled: [...settings.channels, ...(this.runtime.options.channels ?? [])],
          from: this.runtime.options.channels?.length ? `${this.runtime.paths.settings} "channels" and --channels` : `${this.runtime.paths.settings} "channels"`
        }
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
    const workspace = this.root ?? undefined
    return { seamHome: this.runtime.paths.home, workspace, trusted: this.runtime.isTrusted(this.root), patchFile: this.runtime.options.patchFile }
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
    const kernel = this.kernel
    const rpcMethods = this.rpcMethods
    const namespaceOf = (ctx: Context) => this.rpcNamespace(ctx)
    kernel.context.provide('keys', this.runtime.keys)
    // A child spawned without an explicit environment (a plugin's own process) loses the keys too.
    setDefaultChildEnvPolicy((env) => this.runtime.keys.childEnv(env))
    // An installed bundle that was refused (its files changed since install, a broken manifest)
    // is said in every session, not only in the plugin list: a headless run would otherwise go
    // on without it in silence. The session's notice reaches the UI, `seam run`'s stderr and the log.
    kernel.context.on('agent/session-start', (agent) => {
      for (const bundle of this.bundles.all()) {
        if (bundle.dev === undefined && bundle.error !== undefined) agent.notify('error', `bundle ${bundle.manifest.name}: ${bundle.error}`, 'plugin-host')
      }
    })
    kernel.context.provide('turnPermissions', createTurnPermissions())
    kernel.context.provide('slashCommands', createSlashCommandRegistry())
    const runtime = this.runtime
    kernel.context.provide('sessionModels', createSessionModelService((sessionId) => runtime.sessionProviderConfig(sessionId), (config) => runtime.createModelClient(config), () => runtime.providerSettings()))
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
      const root = this.root
      const trusted = this.runtime.isTrusted(root)
      const providers = this.trustProviders
      // The approvals as of now: a change re-provides the service, so dependents reload.
      const approved = root && trusted ? this.runtime.approvedHashes(root) : new Set<string>()
      const next = kernel.context.provide('workspace', {
        root,
        trusted,
        seamHome: this.runtime.paths.home,
        contributeTrustItems(ctx, items) {
          providers.add(items)
          return ctx.onDispose(() => providers.delete(items))
        },
        // Items approved since this service was provided (approveItems) count at once, without a reload.
        isApproved: (item) => root !== null && trusted && (approved.has(trustItemHash(item, root)) || this.runtime.approvedHashes(root).has(trustItemHash(item, root))),
        itemsChanged: () => this.notifyTrust(),
        approveItems: (items) => {
          if (root === null || !trusted) return
          if (this.runtime.options.trustWorkspace && root === this.runtime.options.workspace) this.pins.approveForSession(root, items)
          else this.pins.approve(root, [...this.trustItems(root), ...items], new Set(items.map((item) => trustItemHash(item, root))))
        }
      })
      current?.()
      current = next
    }
    this.reprovideWorkspace = provideWorkspace
    provideWorkspace()
    this.onChanged(() => {
      const service = kernel.getService('workspace')
      if (service?.root !== this.root || service?.trusted !== this.runtime.isTrusted(this.root)) provideWorkspace()
    })
  }

  /**
   * RPC methods are namespaced by the bundle that registered them (its package name, which is
   * what its client part calls with), or by the plugin's name for built-ins.
   */
  private rpcNamespace(ctx: Context): string {
    let runtime = ctx.runtime
    while (runtime.parent && runtime.parent !== this.kernel.root) runtime = runtime.parent
    const bundle = this.bundles.all().find((b) => b.plugin !== undefined && b.plugin === runtime.plugin)
    return bundle?.manifest.name ?? ctx.name
  }

  private report(message: string): void {
    this.lastError = message
    this.kernel.log({ level: 'error', plugin: 'plugin-host', message, time: Date.now() })
  }

  private notify(): void {
    for (const listener of this.changed) listener()
    this.runtime.pluginsChanged()
  }
}

/** Claude Code's user settings in the host's environment (its HOME), or undefined for the plugins' default. */
function claudeUserSettingsPath(env: NodeJS.ProcessEnv | undefined): string | undefined {
  const home = env?.HOME
  return home ? join(home, '.claude', 'settings.json') : undefined
}
