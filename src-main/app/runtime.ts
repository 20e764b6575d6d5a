// The Host's core, shared by the desktop app, web mode and the headless CLI: settings, secrets,
// sessions, the model in use, and one plugin tree (a kernel with the composed profile) per
// workspace in use: the one the window shows and each one an open session belongs to. A session
// runs on its own workspace's tree, whatever the window shows. Transports (src-main/transport)
// and the CLI sit on top of it; nothing here imports Electron.
import { resolveModelName } from '../commands/model-alias'
import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { Kernel, type LogRecord, type Plugin } from '../../src-shared/kernel'
import { ProviderKindSchema } from '../../src-shared/contract/setting-kinds'
import { ModelError, type ModelClient, type ProviderConfig } from '../../src-shared/model'
import '../llm/adapters-plugin'
import { PROVIDER_PRESETS } from '../llm/presets'
import { HostKeyGuard } from '../security/keys'
import { TrustPins } from '../security/trust-pins'
import { SessionStore } from '../session/store'
import { SessionPresence } from '../session/presence'
import { resolveSeamHome, seamPaths, type SeamPaths } from './paths'
import { modelInfo } from '../llm/model-table'
import { SettingsFile } from './settings'
import { SecretStore, type SecretCipher } from './secrets'
import { SwitchableModel, type ModelChoice } from './model-switch'
import { SessionHub } from './sessions'
import { PluginHost } from './plugin-host'
import { SDK_VERSION } from '@seam/sdk/version'
import { BundleShelf } from './bundle-shelf'
import { DevBundleHost } from './dev-bundle-host'
import type { ApprovalMode } from '../../plugins/permission-policy/modes'

export { SEAM_VERSION } from './seam-version'
import { SEAM_VERSION } from './seam-version'
import { seamWorktreeOrigin } from './worktree-origin'

export interface HostOptions {
  mode: 'electron' | 'web' | 'headless'
  env?: NodeJS.ProcessEnv
  /** The approval answerer plugin (desktop dialog or terminal). */
  answerer: { key: string; plugin: Plugin<never> }
  /** Further front-end plugins, each a profile entry placed after `approval` (e.g. the ACP agent's `acp-tools`). */
  extraEntries?: Array<{ id: string; key: string; plugin: Plugin<never> }>
  cipher?: SecretCipher
  /** `--patch FILE`: the last patch layer. */
  patchFile?: string
  /** Overrides for one headless run; never written to settings. */
  workspace?: string
  trustWorkspace?: boolean
  provider?: ProviderConfig
  approvalMode?: ApprovalMode
  maxSteps?: number
  /** `seam run --channels`: channels enabled for this run besides the settings' `channels`. */
  channels?: string[]
  /** Variables a key was read from besides the defaults (`--api-key-env VAR`): kept out of tool and hook processes. */
  keyVariables?: string[]
  /** Do not load the dev bundles `seam plugin dev` registered in the Seam home (tests that must not see them). */
  ignoreDevBundles?: boolean
}

/** One workspace's plugin tree and how many open sessions run on it. */
interface WorkspaceTree {
  readonly plugins: PluginHost
  sessions: number
}

export class HostRuntime {
  readonly paths: SeamPaths
  readonly settings: SettingsFile
  readonly secrets: SecretStore
  readonly model: SwitchableModel
  readonly sessions: SessionHub
  readonly bundles: BundleShelf
  /** Trust approvals (hashes of what each trust dialog showed), shared by every workspace's tree. */
  readonly pins: TrustPins
  /** Keeps provider keys out of tool and hook environments and out of logged text. */
  readonly keys: HostKeyGuard
  /** Dev bundles (`seam plugin dev`, `seam run --plugin-dev`): loaded from their folders, reloaded on each build. */
  readonly devBundles: DevBundleHost
  private readonly recentLogs: LogRecord[] = []
  private readonly logSinks = new Set<(record: LogRecord) => void>()
  /** Per workspace root (`''`: none chosen): its tree, once started. */
  private readonly trees = new Map<string, Promise<WorkspaceTree>>()
  /** Worktree folder -> the main worktree of its repository (the trust it inherits). */
  private readonly worktreeOrigins = new Map<string, string>()
  /** Folder -> the main worktree when Seam made it as a worktree (from git's and Seam's files), else itself. */
  private readonly folderOrigins = new Map<string, string>()
  private windowTree!: WorkspaceTree
  private readonly kernelSetups = new Set<(kernel: Kernel) => () => void>()
  private readonly kernelTeardowns = new Map<Kernel, Array<() => void>>()
  private readonly pluginListeners = new Set<() => void>()
  private readonly trustListeners = new Set<() => void>()
  private closed = false
  /** Set by a front end for this runtime only (an ACP session's mode or model); never written to settings. */
  private approvalModeOverride: HostOptions['approvalMode']
  private modelOverride: string | undefined
  /** Clients for the models sessions switched to, by provider and model. */
  private readonly chosenModels = new Map<string, SwitchableModel>()

  private constructor(readonly options: HostOptions) {
    const env = options.env ?? process.env
    this.paths = seamPaths(resolveSeamHome(env))
    this.settings = new SettingsFile(this.paths.settings)
    if (this.settings.loadError) this.log({ level: 'error', plugin: 'settings', message: this.settings.loadError, time: Date.now() })
    this.secrets = new SecretStore(this.paths.secrets, options.cipher)
    // engines.seam ranges are checked against the plugin API's version (packages/sdk).
    this.bundles = new BundleShelf(this.paths.home, SDK_VERSION)
    this.pins = new TrustPins(this.paths.trustPins)
    this.devBundles = new DevBundleHost(this, SDK_VERSION)
    if (this.pins.loadError) this.log({ level: 'error', plugin: 'plugin-host', message: this.pins.loadError, time: Date.now() })
    this.keys = new HostKeyGuard({
      env: () => env,
      extraVariables: () => options.keyVariables ?? [],
      storedKeys: () => this.knownKeyTexts(),
      settings: () => this.settings.value.toolEnv
    })
    this.model = new SwitchableModel(
      () => this.providerSettings(),
      () => this.providerConfig(),
      (config) => this.createModelClient(config)
    )
    this.sessions = new SessionHub({
      workspaces: { acquire: (workspace) => this.acquire(workspace), release: (workspace) => this.release(workspace) },
      store: new SessionStore(this.paths.sessions, (line) => this.keys.redactJsonLine(line)),
      model: this.model,
      modelFor: (choice) => this.modelFor(choice),
      headerChoice: (recorded) => this.headerChoice(recorded),
      settings: () => ({
        maxParallelToolCalls: this.settings.value.maxParallelToolCalls,
        maxSteps: options.maxSteps ?? this.settings.value.maxSteps,
        compaction: this.settings.value.compaction
      }),
      modelInfo: (model) => modelInfo(this.modelNamed(model), this.settings.value.models),
      // A subagent's `model` may be a Claude alias (`sonnet`); one the provider cannot answer throws, naming it.
      modelClientFor: (model) => this.model.withModel(this.modelNamed(model)),
      worktreeOpened: (worktree) => this.worktreeOrigins.set(worktree.path, worktree.repo),
      presence: new SessionPresence(this.paths.sessions),
      providerBaseUrl: () => this.providerSettings()?.baseUrl
    })
  }

  static async start(options: HostOptions): Promise<HostRuntime> {
    const runtime = new HostRuntime(options)
    await runtime.sealPlainKeys()
    await runtime.bindLegacyKey()
    await runtime.keys.refresh()
    await runtime.bundles.loadAll((name, error) => runtime.log({ level: 'error', plugin: 'plugin-host', message: `bundle ${name}: ${error}`, time: Date.now() }))
    if (!options.ignoreDevBundles) await runtime.devBundles.start()
    runtime.windowTree = await runtime.treeFor(runtime.workspace())
    if (!options.ignoreDevBundles) await runtime.devBundles.treesReady()
    await runtime.finishInterruptedRestores()
    return runtime
  }

  /** Reverts and rewinds a crash cut short that loading the workspace finished (sessions not open then), for the CLI to say. */
  restoresFinishedOnLoad: Array<{ sessionId: string; notice: string }> = []

  /** Loading a workspace finishes its sessions' interrupted restores (src-main/checkpoints/recovery.ts); each says so in a log record too. */
  private async finishInterruptedRestores(): Promise<void> {
    const workspace = this.workspace()
    if (!workspace) return
    for (const { sessionId, recovered, error } of await this.sessions.finishRestoresOf(workspace)) {
      if (error !== undefined) {
        this.log({ level: 'error', plugin: 'checkpoints', message: `session ${sessionId}: an interrupted revert or rewind could not be finished: ${error}`, time: Date.now() })
        continue
      }
      for (const { notice } of recovered ?? []) {
        this.restoresFinishedOnLoad.push({ sessionId, notice })
        this.log({ level: 'warn', plugin: 'checkpoints', message: `session ${sessionId}: ${notice}`, time: Date.now() })
      }
    }
  }

  /** The kernel of the workspace the window shows (the app-wide services: models, the plugin list). */
  get kernel(): Kernel {
    return this.windowTree.plugins.kernel
  }

  /** The plugin tree of the workspace the window shows. */
  get plugins(): PluginHost {
    return this.windowTree.plugins
  }

  /** The kernel a session of `workspace` runs on, if its tree is running. */
  async kernelOf(workspace: string): Promise<Kernel | undefined> {
    const tree = this.trees.get(workspace)
    return tree ? (await tree).plugins.kernel : undefined
  }

  /** After the window's workspace changed in the settings: its tree becomes the window's; the old one goes when no session uses it. */
  async showWorkspace(): Promise<void> {
    const previous = this.windowTree
    this.windowTree = await this.treeFor(this.workspace())
    if (previous !== this.windowTree) this.retireIfUnused(previous)
    this.pluginsChanged()
    await this.finishInterruptedRestores()
  }

  /** Recompose every running tree (a setting, the Seam home patch layer or the bundles changed). */
  async recomposeAll(): Promise<void> {
    const trees = await Promise.all([...this.trees.values()])
    await Promise.all(trees.map((tree) => tree.plugins.recompose()))
  }

  /** Recompose the tree of `workspace` (its trust changed), if it runs. */
  async recomposeWorkspace(workspace: string): Promise<void> {
    const tree = this.trees.get(workspace)
    if (tree) await (await tree).plugins.recompose()
  }

  /**
   * Runs `setup` on every workspace kernel, now and as trees start (live pushes, log sinks); what
   * it returns runs when that kernel goes. The returned function undoes it everywhere.
   */
  eachKernel(setup: (kernel: Kernel) => () => void): () => void {
    this.kernelSetups.add(setup)
    const undo = new Map<Kernel, () => void>()
    for (const kernel of this.kernelTeardowns.keys()) {
      const teardown = setup(kernel)
      undo.set(kernel, teardown)
      this.kernelTeardowns.get(kernel)!.push(teardown)
    }
    return () => {
      this.kernelSetups.delete(setup)
      for (const teardown of undo.values()) teardown()
    }
  }

  /** Every log record of every workspace's kernel (and the runtime's own). */
  onLog(sink: (record: LogRecord) => void): () => void {
    this.logSinks.add(sink)
    return () => this.logSinks.delete(sink)
  }

  log(record: LogRecord): void {
    // Redacted once here: the recent-log buffer (`logs/recent`) never holds a provider key.
    this.recentLogs.push({ ...record, message: this.keys?.redact(record.message) ?? record.message })
    if (this.recentLogs.length > 500) this.recentLogs.shift()
    for (const sink of this.logSinks) {
      try {
        sink(record)
      } catch {
        // A broken sink must not take the others down.
      }
    }
  }

  /** Any tree's plugin list or state changed, or the window shows another workspace. */
  onPluginsChanged(listener: () => void): () => void {
    this.pluginListeners.add(listener)
    return () => this.pluginListeners.delete(listener)
  }

  /** Called by the trees. */
  pluginsChanged(): void {
    for (const listener of this.pluginListeners) listener()
  }

  /** A tree's trust items were re-read or approved: the status re-counts unapproved items. */
  onTrustItemsChanged(listener: () => void): () => void {
    this.trustListeners.add(listener)
    return () => this.trustListeners.delete(listener)
  }

  /** Called by the trees. */
  trustItemsChanged(): void {
    for (const listener of this.trustListeners) listener()
  }

  /**
   * Approves the items of `workspace` whose hashes its trust dialog showed (all current items when
   * omitted), on that workspace's tree when one runs, so its hooks and servers restart with them.
   */
  async approveTrust(workspace: string, hashes?: readonly string[]): Promise<void> {
    const tree = this.trees.get(workspace)
    const plugins = tree ? (await tree).plugins : this.plugins
    await plugins.approveTrustItems(workspace, hashes)
  }

  private treeFor(workspace: string | null): Promise<WorkspaceTree> {
    const key = workspace ?? ''
    let tree = this.trees.get(key)
    if (!tree) {
      tree = this.startTree(workspace)
      this.trees.set(key, tree)
      tree.catch(() => {
        if (this.trees.get(key) === tree) this.trees.delete(key)
      })
    }
    return tree
  }

  private async startTree(workspace: string | null): Promise<WorkspaceTree> {
    const kernel = new Kernel()
    kernel.onLog((record) => this.log(record))
    const teardowns: Array<() => void> = []
    this.kernelTeardowns.set(kernel, teardowns)
    for (const setup of this.kernelSetups) teardowns.push(setup(kernel))
    const plugins = new PluginHost(this, workspace, kernel, this.bundles)
    await plugins.start()
    return { plugins, sessions: 0 }
  }

  /** A session of `workspace` opens: its tree (started if needed) is kept while the session is open. */
  private async acquire(workspace: string): Promise<Kernel> {
    for (;;) {
      if (this.closed) throw new Error('the host is closing')
      const pending = this.treeFor(workspace)
      const tree = await pending
      // Retired while we waited (the window moved on and no session held it): start a fresh one.
      if (this.trees.get(workspace) !== pending) continue
      tree.sessions++
      return tree.plugins.kernel
    }
  }

  private release(workspace: string): void {
    const tree = this.trees.get(workspace)
    if (!tree) return
    void tree.then((t) => {
      t.sessions--
      this.retireIfUnused(t)
    })
  }

  private retireIfUnused(tree: WorkspaceTree): void {
    if (tree.sessions > 0 || tree === this.windowTree || this.closed) return
    const key = tree.plugins.root ?? ''
    void this.trees.get(key)?.then((current) => {
      if (current !== tree || tree.sessions > 0 || tree === this.windowTree) return
      this.trees.delete(key)
      this.disposeTree(tree)
    })
  }

  private disposeTree(tree: WorkspaceTree): void {
    const kernel = tree.plugins.kernel
    tree.plugins.close()
    for (const teardown of this.kernelTeardowns.get(kernel) ?? []) teardown()
    this.kernelTeardowns.delete(kernel)
    kernel.dispose()
  }

  get version(): string {
    return SEAM_VERSION
  }

  logs(): LogRecord[] {
    return [...this.recentLogs]
  }

  workspace(): string | null {
    return this.options.workspace ?? this.settings.value.workspace
  }

  /**
   * Where a workspace's trust comes from: a worktree session's worktree has its repository's
   * (trusted with it, the same approved items pinned: items are hashed by their path inside the
   * workspace, so an item the branch changed is new there until approved).
   */
  trustRoot(workspace: string): string {
    const bound = this.worktreeOrigins.get(workspace)
    if (bound !== undefined) return bound
    // A folder Seam made as a worktree, opened before (or without) any of its sessions.
    let origin = this.folderOrigins.get(workspace)
    if (origin === undefined) {
      origin = seamWorktreeOrigin(workspace, this.paths.home) ?? workspace
      this.folderOrigins.set(workspace, origin)
    }
    return origin
  }

  /** Approved trust items of `workspace`, a worktree's repository's included (PluginHost.approvedHashes). */
  approvedHashes(workspace: string): ReadonlySet<string> {
    const root = this.trustRoot(workspace)
    const own = this.pins.approvedHashes(workspace)
    return root === workspace ? own : new Set([...own, ...this.pins.approvedHashes(root)])
  }

  isTrusted(workspace: string | null = this.workspace()): boolean {
    if (!workspace) return false
    const root = this.trustRoot(workspace)
    // `--trust-workspace` names the folder run in: the repository or the worktree itself.
    if (this.options.trustWorkspace && (workspace === this.options.workspace || root === this.options.workspace)) return true
    const trusted = this.settings.value.trustedWorkspaces
    return trusted.includes(root) || trusted.includes(workspace)
  }

  approvalMode(): ApprovalMode {
    return this.approvalModeOverride ?? this.options.approvalMode ?? this.settings.value.approvalMode
  }

  /** The mode was chosen for this runtime (command line or setApprovalMode), so Claude Code's `defaultMode` does not override it. */
  approvalModeChosen(): boolean {
    return this.approvalModeOverride !== undefined || this.options.approvalMode !== undefined
  }

  /** Changes the approval mode of this runtime only (the permission policy reloads with it). */
  async setApprovalMode(mode: ApprovalMode): Promise<void> {
    this.approvalModeOverride = mode
    await this.recomposeAll()
  }

  /** Changes the model of this runtime only; the next model request uses it. */
  setModel(model: string): void {
    this.modelOverride = model
  }

  /**
   * A client for `choice` (a session's model switch). The provider in use gives its address and
   * key; another provider kind uses its preset's address and the key stored for that address.
   * Looked up at each request, so a key saved later applies at once.
   */
  modelFor(choice: ModelChoice): ModelClient {
    const key = `${choice.provider}\n${choice.model}`
    let client = this.chosenModels.get(key)
    if (!client) {
      client = new SwitchableModel(
        () => this.choiceSettings(choice),
        () => this.choiceConfig(choice),
        (config) => this.createModelClient(config)
      )
      this.chosenModels.set(key, client)
    }
    return client
  }

  /**
   * What a resumed session's header asks for, as a model choice: none when this runtime was given
   * its provider or model (flags override), when it is the provider and model in use already, or
   * when that provider cannot be reached from here (no preset address and not the one in use).
   */
  headerChoice(recorded: { provider: string; model: string }): ModelChoice | undefined {
    if (this.options.provider || this.modelOverride !== undefined) return undefined
    const kind = ProviderKindSchema.safeParse(recorded.provider)
    if (!kind.success) return undefined
    const choice: ModelChoice = { provider: kind.data, model: recorded.model }
    const current = this.providerSettings()
    if (current && current.provider === choice.provider && current.model === choice.model) return undefined
    return this.choiceSettings(choice) ? choice : undefined
  }

  /** Where `choice` is served from, with its key. */
  async choiceConfig(choice: ModelChoice): Promise<ProviderConfig | undefined> {
    const config = this.choiceSettings(choice)
    if (!config) return undefined
    if (config.provider === this.providerSettings()?.provider) return { ...(await this.providerConfig())!, model: choice.model }
    return { ...config, apiKey: await this.storedKey(config.provider, config.baseUrl) }
  }

  /** Where a session's requests go, with the key: its model switch, else the provider in use. */
  async sessionProviderConfig(sessionId: string): Promise<ProviderConfig | undefined> {
    const choice = (await this.sessions.modelOf(sessionId))?.choice
    return choice ? this.choiceConfig(choice) : this.providerConfig()
  }

  /** Where `choice` is served from (no key): the provider in use when it is the same kind, else its preset; undefined when neither has an address. */
  choiceSettings(choice: ModelChoice): ProviderConfig | undefined {
    const current = this.providerSettings()
    if (current && current.provider === choice.provider) return { ...current, model: choice.model }
    const preset = PROVIDER_PRESETS[choice.provider]
    return preset.baseUrl ? { provider: choice.provider, baseUrl: preset.baseUrl, model: choice.model } : undefined
  }

  /** The provider in use without its key: a headless override, else the settings (with this runtime's model). */
  /** `name`, or the model a Claude Code alias stands for with the provider in use (throws when none does). */
  private modelNamed(name: string): string {
    return resolveModelName(name, this.providerSettings()?.provider, this.settings.value.models)
  }

  providerSettings(): ProviderConfig | undefined {
    const provider = this.options.provider ?? this.settings.value.provider ?? undefined
    return provider && this.modelOverride ? { ...provider, model: this.modelOverride } : provider
  }

  /** The provider in use with its key: a headless override, else the settings plus the stored key. */
  async providerConfig(): Promise<ProviderConfig | undefined> {
    const config = await this.storedProviderConfig()
    return config && this.modelOverride ? { ...config, model: this.modelOverride } : config
  }

  private async storedProviderConfig(): Promise<ProviderConfig | undefined> {
    if (this.options.provider) return this.options.provider
    const provider = this.settings.value.provider
    if (!provider) return undefined
    if (!this.keyBoundTo(provider.provider, provider.baseUrl)) return { ...provider, apiKey: undefined }
    const key = await this.secrets.lookup(providerKeyName(provider.provider))
    if (key.state === 'unreadable') this.log({ level: 'warn', plugin: 'secrets', message: `the ${provider.provider} API key: ${key.reason}`, time: Date.now() })
    return { ...provider, apiKey: key.state === 'stored' ? key.value : undefined }
  }

  /**
   * The stored key of a provider kind, only for the base URL it was saved with: renderer code
   * (a client plugin, an injected script) that names another URL never gets it sent there.
   */
  async storedKey(provider: string, baseUrl: string): Promise<string | undefined> {
    if (!this.keyBoundTo(provider, baseUrl)) return undefined
    return this.secrets.get(providerKeyName(provider))
  }

  /** Whether a key stored for `provider` was saved with `baseUrl`. */
  keyBoundTo(provider: string, baseUrl: string): boolean {
    const bound = this.settings.value.keyBaseUrls[provider]
    return bound !== undefined && sameBaseUrl(bound, baseUrl)
  }

  /** Stores (or, with '', removes) the key of `provider`, bound to `baseUrl`. */
  async storeKey(provider: string, baseUrl: string, apiKey: string): Promise<void> {
    await this.secrets.set(providerKeyName(provider), apiKey)
    const keyBaseUrls = { ...this.settings.value.keyBaseUrls }
    if (apiKey === '') delete keyBaseUrls[provider]
    else keyBaseUrls[provider] = baseUrl
    this.settings.update({ keyBaseUrls })
    await this.keys.refresh()
  }

  /** A key stored before keys were bound to a URL belongs to the provider settings it was saved with. */
  private async bindLegacyKey(): Promise<void> {
    const current = this.settings.value.provider
    if (!current || this.settings.loadError || this.settings.value.keyBaseUrls[current.provider] !== undefined) return
    try {
      if ((await this.secrets.lookup(providerKeyName(current.provider))).state !== 'missing') {
        this.settings.update({ keyBaseUrls: { ...this.settings.value.keyBaseUrls, [current.provider]: current.baseUrl } })
      }
    } catch {
      // An unreadable secrets file: nothing to bind (status reports the file).
    }
  }

  /** Every key text Seam holds: stored keys (unreadable ones skipped) and a key given for this run. */
  private async knownKeyTexts(): Promise<string[]> {
    const texts: string[] = []
    if (this.options.provider?.apiKey) texts.push(this.options.provider.apiKey)
    for (const kind of Object.keys(PROVIDER_PRESETS)) {
      try {
        const key = await this.secrets.get(providerKeyName(kind))
        if (key) texts.push(key)
      } catch {
        // An unreadable secrets file holds nothing Seam can send, nor redact; status reports it.
      }
    }
    return texts
  }

  /** Keys saved in plain text by web mode or the CLI move into the platform's encrypted store. */
  private async sealPlainKeys(): Promise<void> {
    if (!this.options.cipher) return
    try {
      const sealed = await this.secrets.migrate()
      if (sealed > 0) this.log({ level: 'info', plugin: 'secrets', message: `moved ${sealed} API key(s) into the OS keychain's encryption`, time: Date.now() })
    } catch (error) {
      this.log({ level: 'warn', plugin: 'secrets', message: `API keys stay in plain text for now: ${(error as Error).message}`, time: Date.now() })
    }
  }

  /** A client from the model adapter registered for the provider (the `models` service). */
  createModelClient(config: ProviderConfig): ModelClient {
    const models = this.kernel.getService('models')
    if (!models) throw new ModelError('bad_request', 'No model adapters are loaded (the "models" profile entry is disabled or failed).')
    return models.create(config)
  }

  /** Validates a folder for use as the workspace: it must exist and be a directory. */
  /** The user's home folder (HOME of this host's environment; the OS's otherwise). */
  userHome(): string {
    const env = this.options.env ?? process.env
    return env.HOME && env.HOME.trim() ? env.HOME : homedir()
  }

  static checkWorkspace(path: string): string {
    const absolute = resolve(path)
    let isDir = false
    try {
      isDir = statSync(absolute).isDirectory()
    } catch {
      throw new Error(`workspace "${absolute}" does not exist`)
    }
    if (!isDir) throw new Error(`workspace "${absolute}" is not a folder`)
    return absolute
  }

  async close(): Promise<void> {
    await this.devBundles.close()
    await this.sessions.closeAll('shutdown')
    this.closed = true
    const trees = await Promise.allSettled([...this.trees.values()])
    this.trees.clear()
    for (const tree of trees) if (tree.status === 'fulfilled') this.disposeTree(tree.value)
  }
}

/** Base URLs compared as URLs (a trailing slash or letter case in the host does not matter). */
export function sameBaseUrl(a: string, b: string): boolean {
  const canonical = (value: string) => {
    try {
      const url = new URL(value)
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
    } catch {
      return null
    }
  }
  const left = canonical(a)
  return left !== null && left === canonical(b)
}

export function providerKeyName(provider: string): string {
  return `provider:${provider}`
}
