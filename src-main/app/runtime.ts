// The Host's core, shared by the desktop app, web mode and the headless CLI: the kernel with
// the composed plugin profile, settings, secrets, sessions and the model in use. Transports
// (src-main/transport) and the CLI sit on top of it; nothing here imports Electron.
import { readFileSync } from 'node:fs'
import { statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kernel, type LogRecord, type Plugin } from '../../src-shared/kernel'
import { ModelError, type ModelClient, type ProviderConfig } from '../../src-shared/model'
import '../llm/adapters-plugin'
import { PROVIDER_PRESETS } from '../llm/presets'
import { HostKeyGuard } from '../security/keys'
import { SessionStore } from '../session/store'
import { resolveSeamHome, seamPaths, type SeamPaths } from './paths'
import { SettingsFile } from './settings'
import { SecretStore, type SecretCipher } from './secrets'
import { SwitchableModel } from './model-switch'
import { SessionHub } from './sessions'
import { PluginHost } from './plugin-host'

/** Seam's version, from the package.json of the install (found by walking up: the build moves files). */
export const SEAM_VERSION: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'seam' && pkg.version) return pkg.version
    } catch {
      // No package.json here (or not ours): keep walking up.
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find Seam\'s package.json above ' + fileURLToPath(import.meta.url))
    dir = parent
  }
})()

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
  approvalMode?: 'ask-side-effects' | 'ask-all' | 'never-ask'
  maxSteps?: number
  /** Variables a key was read from besides the defaults (`--api-key-env VAR`): kept out of tool and hook processes. */
  keyVariables?: string[]
}

export class HostRuntime {
  readonly kernel = new Kernel()
  readonly paths: SeamPaths
  readonly settings: SettingsFile
  readonly secrets: SecretStore
  readonly model: SwitchableModel
  readonly sessions: SessionHub
  readonly plugins: PluginHost
  /** Keeps provider keys out of tool and hook environments and out of logged text. */
  readonly keys: HostKeyGuard
  private readonly recentLogs: LogRecord[] = []
  /** Set by a front end for this runtime only (an ACP session's mode or model); never written to settings. */
  private approvalModeOverride: HostOptions['approvalMode']
  private modelOverride: string | undefined

  private constructor(readonly options: HostOptions) {
    const env = options.env ?? process.env
    this.paths = seamPaths(resolveSeamHome(env))
    this.kernel.onLog((record) => {
      this.recentLogs.push({ ...record, message: this.keys?.redact(record.message) ?? record.message })
      if (this.recentLogs.length > 500) this.recentLogs.shift()
    })
    this.settings = new SettingsFile(this.paths.settings)
    if (this.settings.loadError) this.kernel.log({ level: 'error', plugin: 'settings', message: this.settings.loadError, time: Date.now() })
    this.secrets = new SecretStore(this.paths.secrets, options.cipher)
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
      kernel: this.kernel,
      store: new SessionStore(this.paths.sessions, (line) => this.keys.redactJsonLine(line)),
      model: this.model,
      settings: () => ({ maxParallelToolCalls: this.settings.value.maxParallelToolCalls, maxSteps: options.maxSteps ?? this.settings.value.maxSteps })
    })
    this.plugins = new PluginHost(this)
  }

  static async start(options: HostOptions): Promise<HostRuntime> {
    const runtime = new HostRuntime(options)
    await runtime.sealPlainKeys()
    await runtime.bindLegacyKey()
    await runtime.keys.refresh()
    await runtime.plugins.start()
    return runtime
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

  isTrusted(workspace: string | null = this.workspace()): boolean {
    if (!workspace) return false
    if (this.options.trustWorkspace && workspace === this.options.workspace) return true
    return this.settings.value.trustedWorkspaces.includes(workspace)
  }

  approvalMode(): 'ask-side-effects' | 'ask-all' | 'never-ask' {
    return this.approvalModeOverride ?? this.options.approvalMode ?? this.settings.value.approvalMode
  }

  /** Changes the approval mode of this runtime only (the permission policy reloads with it). */
  async setApprovalMode(mode: 'ask-side-effects' | 'ask-all' | 'never-ask'): Promise<void> {
    this.approvalModeOverride = mode
    await this.plugins.recompose()
  }

  /** Changes the model of this runtime only; the next model request uses it. */
  setModel(model: string): void {
    this.modelOverride = model
  }

  /** The provider in use without its key: a headless override, else the settings (with this runtime's model). */
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
    if (key.state === 'unreadable') this.kernel.log({ level: 'warn', plugin: 'secrets', message: `the ${provider.provider} API key: ${key.reason}`, time: Date.now() })
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
      if (sealed > 0) this.kernel.log({ level: 'info', plugin: 'secrets', message: `moved ${sealed} API key(s) into the OS keychain's encryption`, time: Date.now() })
    } catch (error) {
      this.kernel.log({ level: 'warn', plugin: 'secrets', message: `API keys stay in plain text for now: ${(error as Error).message}`, time: Date.now() })
    }
  }

  /** A client from the model adapter registered for the provider (the `models` service). */
  createModelClient(config: ProviderConfig): ModelClient {
    const models = this.kernel.getService('models')
    if (!models) throw new ModelError('bad_request', 'No model adapters are loaded (the "models" profile entry is disabled or failed).')
    return models.create(config)
  }

  /** Validates a folder for use as the workspace: it must exist and be a directory. */
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
    await this.sessions.closeAll('shutdown')
    this.plugins.close()
    this.kernel.dispose()
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
