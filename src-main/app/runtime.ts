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
}

export class HostRuntime {
  readonly kernel = new Kernel()
  readonly paths: SeamPaths
  readonly settings: SettingsFile
  readonly secrets: SecretStore
  readonly model: SwitchableModel
  readonly sessions: SessionHub
  readonly plugins: PluginHost
  private readonly recentLogs: LogRecord[] = []
  /** Set by a front end for this runtime only (an ACP session's mode or model); never written to settings. */
  private approvalModeOverride: HostOptions['approvalMode']
  private modelOverride: string | undefined

  private constructor(readonly options: HostOptions) {
    const env = options.env ?? process.env
    this.paths = seamPaths(resolveSeamHome(env))
    this.kernel.onLog((record) => {
      this.recentLogs.push(record)
      if (this.recentLogs.length > 500) this.recentLogs.shift()
    })
    this.settings = new SettingsFile(this.paths.settings)
    if (this.settings.loadError) this.kernel.log({ level: 'error', plugin: 'settings', message: this.settings.loadError, time: Date.now() })
    this.secrets = new SecretStore(this.paths.secrets, options.cipher)
    this.model = new SwitchableModel(
      () => this.providerSettings(),
      () => this.providerConfig(),
      (config) => this.createModelClient(config)
    )
    this.sessions = new SessionHub({
      kernel: this.kernel,
      store: new SessionStore(this.paths.sessions),
      model: this.model,
      settings: () => ({ maxParallelToolCalls: this.settings.value.maxParallelToolCalls, maxSteps: options.maxSteps ?? this.settings.value.maxSteps })
    })
    this.plugins = new PluginHost(this)
  }

  static async start(options: HostOptions): Promise<HostRuntime> {
    const runtime = new HostRuntime(options)
    await runtime.sealPlainKeys()
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
    const key = await this.secrets.lookup(providerKeyName(provider.provider))
    if (key.state === 'unreadable') this.kernel.log({ level: 'warn', plugin: 'secrets', message: `the ${provider.provider} API key: ${key.reason}`, time: Date.now() })
    return { ...provider, apiKey: key.state === 'stored' ? key.value : undefined }
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

export function providerKeyName(provider: string): string {
  return `provider:${provider}`
}
