// Which plugins a workspace runs, and what each holds. An installed plugin (a copy in Seam's home,
// pinned by content) or a plugin folder named in the config (loaded in place, as Claude Code's
// --plugin-dir) is enabled by, most specific first: the workspace's `.claude/settings.local.json`,
// then `.claude/settings.json` (both only once the workspace is trusted), Seam's own switch
// (`seam plugin enable|disable`), the user's `~/.claude/settings.json`, the plugin's
// `defaultEnabled`, and otherwise on (installing is enabling, as in Claude Code).
import { existsSync } from 'node:fs'
import type { InstalledPlugin, PluginLspServer, TrustItem } from '@seam/sdk'
import { PluginManifestError, readPluginFolder, type PluginLayout } from './manifest'
import type { LspServer } from './parts'
import { contentHash, pluginId, type InstalledRecord, type PluginStore } from './store'
import { filesStamp, readPluginSettings, settingsFiles, type PluginSettingsFile } from './settings'
import type { MarketplaceSource } from './marketplace'
import { missingOptions, PLUGIN_VARIABLE, SENSITIVE_MASK, userConfigVars, type UserConfigStore, type UserConfigValue } from './user-config'

/** Who decided whether a plugin is on, most specific first. */
export type DecisionScope = 'local' | 'project' | 'seam' | 'user' | 'plugin' | 'default'

export type PluginState = 'enabled' | 'disabled' | 'not-installed' | 'broken' | 'unapproved' | 'unconfigured'

/** One row of the plugin manager: an installed plugin, a folder plugin, or one a settings file enables but Seam has not installed. */
export interface CatalogEntry {
  /** `name@marketplace`, or the name for a folder plugin. */
  id: string
  name: string
  marketplace?: string
  version?: string
  description?: string
  format: 'claude' | 'codex'
  root?: string
  /** Where the files came from (a marketplace entry's source, or the folder). */
  source: string
  state: PluginState
  /** What decided the state: a settings file, `Seam`, `defaultEnabled`, `default`. */
  decidedBy: string
  /** Which word decided it: a settings file's scope, Seam's own switch, the plugin's `defaultEnabled`, or the default. */
  decidedScope?: DecisionScope
  /** Why it is broken or not approved. */
  problem?: string
  contentHash?: string
  layout?: PluginLayout
  /** Its stored `userConfig` values (sensitive ones included: never sent to the renderer as they are). */
  userConfigValues?: Record<string, UserConfigValue>
}

export interface CatalogOptions {
  store: PluginStore
  /** Where each plugin's userConfig values are kept. */
  userConfig: UserConfigStore
  userSettingsPath: string
  /** Plugin folders loaded in place (not copied, not pinned). */
  pluginDirs: readonly string[]
}

export interface WorkspaceView {
  root: string | null
  trusted: boolean
  /** Whether a plugin the workspace enables was approved, as the trust dialog showed it. */
  approved(item: TrustItem): boolean
}

export interface CatalogSnapshot {
  entries: CatalogEntry[]
  /** Marketplaces named by `extraKnownMarketplaces` in the files read, with the file that names each. */
  declaredMarketplaces: Array<{ name: string; source: MarketplaceSource; file: string }>
  warnings: string[]
}

export const TRUST_SOURCE = 'Claude Code plugins'

/** Reads everything for one workspace; cached until a file it read changes or `invalidate()`. */
export class PluginCatalog {
  private cache = new Map<string, { stamp: string; snapshot: CatalogSnapshot }>()
  /** Content hashes verified in this process, by install path: each copy is hashed once. */
  private verified = new Map<string, string>()

  constructor(private readonly options: CatalogOptions) {}

  invalidate(): void {
    this.cache.clear()
  }

  snapshot(view: WorkspaceView): CatalogSnapshot {
    const files = settingsFiles(this.options.userSettingsPath, view.root, view.trusted)
    const key = `${view.root ?? ''}\0${view.trusted}`
    const stamp = filesStamp([this.options.store.installedFile, ...files.map((f) => f.file)])
    const cached = this.cache.get(key)
    if (cached && cached.stamp === stamp) return cached.snapshot
    const snapshot = this.read(view, files.map((f) => readPluginSettings(f.scope, f.file)))
    this.cache.set(key, { stamp, snapshot })
    return snapshot
  }

  /** The trust dialog's items: each installed plugin the workspace's own settings enable, pinned by its content. */
  trustItems(workspace: string): TrustItem[] {
    const snapshot = this.snapshot({ root: workspace, trusted: true, approved: () => true })
    return snapshot.entries.flatMap((entry) => (entry.state === 'enabled' && isWorkspaceDecision(entry.decidedBy, workspace) ? [this.trustItemOf(entry)] : []))
  }

  /** What the trust dialog shows for a plugin a workspace enables: what it will run, hashed with its content. */
  trustItemOf(entry: CatalogEntry): TrustItem {
    return { source: TRUST_SOURCE, file: entry.decidedBy, event: 'plugin', command: describeRuns(entry, this.pluginVars(entry)), content: entry.contentHash ?? entry.root ?? entry.id }
  }

  /** CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA and `user_config.KEY` of an entry, as shown to a person (sensitive values masked). */
  pluginVars(entry: CatalogEntry): Record<string, string> {
    if (entry.root === undefined) return {}
    return {
      CLAUDE_PLUGIN_ROOT: entry.root,
      CLAUDE_PLUGIN_DATA: this.options.store.dataDir(entry.name, entry.marketplace),
      ...(entry.layout ? userConfigVars(entry.layout.userConfig, entry.userConfigValues ?? {}, SENSITIVE_MASK) : {})
    }
  }

  private read(view: WorkspaceView, settings: PluginSettingsFile[]): CatalogSnapshot {
    const warnings = settings.flatMap((s) => (s.problem ? [`Claude Code plugins: ${s.problem}`] : []))
    let installed: Record<string, InstalledRecord> = {}
    try {
      installed = this.options.store.installed()
    } catch (error) {
      warnings.push(`Claude Code plugins: ${(error as Error).message}; no installed plugin is loaded`)
    }
    const entries: CatalogEntry[] = []
    for (const [id, record] of Object.entries(installed)) entries.push(this.installedEntry(id, record, settings))
    for (const dir of this.options.pluginDirs) entries.push(this.folderEntry(dir, settings))
    const known = new Set(entries.map((e) => e.id))
    // Enabled by a settings file but not installed here: listed so the user sees what to install.
    for (const file of settings) {
      for (const [id, on] of Object.entries(file.enabledPlugins)) {
        if (!on || known.has(id) || !id.includes('@')) continue
        known.add(id)
        const [name, marketplace] = splitId(id)
        entries.push({ id, name, marketplace, format: 'claude', source: `${marketplace} (not installed: seam plugin install ${id})`, state: 'not-installed', decidedBy: file.file, decidedScope: file.scope })
      }
    }
    for (const entry of entries) {
      if (entry.state === 'enabled' && view.root !== null && isWorkspaceDecision(entry.decidedBy, view.root) && !view.approved(this.trustItemOf(entry))) {
        entry.state = 'unapproved'
        entry.problem = `${entry.decidedBy} enables it, and it is new or changed since the workspace was trusted: approve it in the workspace trust dialog`
      }
      if (entry.problem !== undefined && (entry.state === 'broken' || entry.state === 'unapproved' || entry.state === 'unconfigured')) warnings.push(`Claude Code plugin ${entry.id}: ${entry.problem}`)
      for (const problem of entry.layout?.problems ?? []) warnings.push(`Claude Code plugin ${entry.id}: ${problem}`)
    }
    // A plugin whose dependency is not on still loads (README "Dependencies"); each session is told.
    const on = new Set(entries.filter((e) => e.state === 'enabled').map((e) => e.id))
    for (const entry of entries) {
      if (entry.state !== 'enabled' || entry.layout === undefined) continue
      const missing = entry.layout.dependencies.map((d) => (d.marketplace ?? entry.marketplace) !== undefined ? `${d.name}@${d.marketplace ?? entry.marketplace}` : d.name).filter((id) => !on.has(id))
      if (missing.length > 0) warnings.push(`Claude Code plugin ${entry.id}: it depends on ${missing.join(', ')}, not installed or not on here; it is loaded without ${missing.length === 1 ? 'it' : 'them'}`)
    }
    const declaredMarketplaces = settings.flatMap((s) => Object.entries(s.extraKnownMarketplaces).map(([name, source]) => ({ name, source, file: s.file })))
    return { entries, declaredMarketplaces, warnings }
  }

  private installedEntry(id: string, record: InstalledRecord, settings: PluginSettingsFile[]): CatalogEntry {
    const base: CatalogEntry = { id, name: record.name, marketplace: record.marketplace, version: record.version, format: 'claude', root: record.installPath, source: record.source, state: 'broken', decidedBy: 'Seam', contentHash: record.contentHash }
    if (!existsSync(record.installPath)) return { ...base, problem: `its copy ${record.installPath} is missing: reinstall it (seam plugin install ${id})` }
    let hash = this.verified.get(record.installPath)
    if (hash === undefined) {
      hash = contentHash(record.installPath)
      this.verified.set(record.installPath, hash)
    }
    if (hash !== record.contentHash) {
      return { ...base, problem: `its files in ${record.installPath} changed since it was installed (content ${hash.slice(0, 12)}, pinned ${record.contentHash.slice(0, 12)}): it is not loaded; reinstall it to trust the new content` }
    }
    let layout: PluginLayout
    try {
      layout = readPluginFolder(record.installPath, { name: record.name })
    } catch (error) {
      return { ...base, problem: error instanceof PluginManifestError ? error.message : String(error) }
    }
    const decision = decide(id, record.enabled, layout.defaultEnabled, settings)
    const entry: CatalogEntry = { ...base, format: layout.format, state: decision.on ? 'enabled' : 'disabled', decidedBy: decision.by, decidedScope: decision.scope, layout }
    if (layout.description !== undefined) entry.description = layout.description
    return this.withUserConfig(entry)
  }

  private folderEntry(dir: string, settings: PluginSettingsFile[]): CatalogEntry {
    const base: CatalogEntry = { id: dir, name: dir, format: 'claude', root: dir, source: dir, state: 'broken', decidedBy: 'Seam' }
    let layout: PluginLayout
    try {
      layout = readPluginFolder(dir)
    } catch (error) {
      return { ...base, problem: error instanceof PluginManifestError ? error.message : String(error) }
    }
    const decision = decide(layout.name, undefined, layout.defaultEnabled, settings)
    const entry: CatalogEntry = { ...base, id: layout.name, name: layout.name, format: layout.format, state: decision.on ? 'enabled' : 'disabled', decidedBy: decision.by, decidedScope: decision.scope, layout }
    if (layout.version !== undefined) entry.version = layout.version
    if (layout.description !== undefined) entry.description = layout.description
    return this.withUserConfig(entry)
  }

  /** Its stored userConfig values; an enabled plugin missing a required one is `unconfigured` and does not load. */
  private withUserConfig(entry: CatalogEntry): CatalogEntry {
    const options = entry.layout?.userConfig ?? {}
    if (Object.keys(options).length === 0) return entry
    try {
      entry.userConfigValues = this.options.userConfig.read(entry.name, entry.marketplace)
    } catch (error) {
      return { ...entry, state: 'broken', problem: `its userConfig values cannot be read: ${(error as Error).message}` }
    }
    const missing = missingOptions(options, entry.userConfigValues)
    if (entry.state === 'enabled' && missing.length > 0) {
      entry.state = 'unconfigured'
      entry.problem = `it needs its settings before it loads: ${missing.map((key) => `userConfig.${key}`).join(', ')} (seam plugin config ${entry.id}, or Configure in the plugin manager)`
    }
    return entry
  }
}

/** The most specific word on a plugin: local, project, Seam's switch, user settings, defaultEnabled, on. */
function decide(id: string, seamSwitch: boolean | undefined, defaultEnabled: boolean | undefined, settings: PluginSettingsFile[]): { on: boolean; by: string; scope: DecisionScope } {
  const inScope = (scope: string) => settings.find((s) => s.scope === scope && id in s.enabledPlugins)
  for (const scope of ['local', 'project'] as const) {
    const file = inScope(scope)
    if (file) return { on: file.enabledPlugins[id] as boolean, by: file.file, scope }
  }
  if (seamSwitch !== undefined) return { on: seamSwitch, by: 'Seam', scope: 'seam' }
  const user = inScope('user')
  if (user) return { on: user.enabledPlugins[id] as boolean, by: user.file, scope: 'user' }
  if (defaultEnabled !== undefined) return { on: defaultEnabled, by: 'defaultEnabled', scope: 'plugin' }
  return { on: true, by: 'default', scope: 'default' }
}

function isWorkspaceDecision(decidedBy: string, workspace: string): boolean {
  return decidedBy.startsWith(workspace)
}

function splitId(id: string): [string, string] {
  const at = id.lastIndexOf('@')
  return [id.slice(0, at), id.slice(at + 1)]
}

/**
 * `name@mk 1.0.0: hook PreToolUse: cmd; MCP server x: cmd args; monitor m: cmd; bin/ on the Bash PATH`: what
 * enabling it runs, with the plugin's variables (`vars`) written in as they will be.
 */
export function describeRuns(entry: CatalogEntry, vars: Readonly<Record<string, string>> = {}): string {
  const parts: string[] = []
  const layout = entry.layout && {
    ...entry.layout,
    hooks: entry.layout.hooks.map((h) => ({ ...h, hooks: substitute(h.hooks, vars) as Record<string, unknown> })),
    mcpServers: entry.layout.mcpServers.map((m) => ({ ...m, servers: substitute(m.servers, vars) as Record<string, unknown> }))
  }
  for (const source of layout?.hooks ?? []) {
    for (const [event, groups] of Object.entries(source.hooks)) {
      for (const group of Array.isArray(groups) ? groups : []) {
        for (const handler of Array.isArray((group as { hooks?: unknown }).hooks) ? ((group as { hooks: unknown[] }).hooks) : []) {
          const h = handler as { command?: unknown; url?: unknown; args?: unknown }
          const what = typeof h.command === 'string' ? [h.command, ...(Array.isArray(h.args) ? h.args : [])].join(' ') : typeof h.url === 'string' ? h.url : JSON.stringify(handler)
          parts.push(`hook ${event}: ${what}`)
        }
      }
    }
  }
  for (const source of layout?.mcpServers ?? []) {
    for (const [name, server] of Object.entries(source.servers)) {
      const s = server as { command?: unknown; args?: unknown; url?: unknown }
      const what = typeof s.command === 'string' ? [s.command, ...(Array.isArray(s.args) ? s.args : [])].join(' ') : String(s.url ?? '')
      parts.push(`MCP server ${name}: ${what}`)
    }
  }
  for (const source of entry.layout?.monitors ?? []) {
    for (const monitor of source.monitors) parts.push(`monitor ${monitor.name}: ${substitute(monitor.command, vars) as string}`)
  }
  for (const source of entry.layout?.lspServers ?? []) {
    for (const [name, server] of Object.entries(source.servers)) parts.push(`LSP server ${name}: ${String(substitute([server.command, ...(server.args ?? [])].join(' '), vars))}`)
  }
  const statusLine = layout?.settings?.subagentStatusLine
  if (statusLine !== undefined) parts.push(`subagent status line: ${substitute(statusLine.command, vars) as string}`)
  if (layout?.binDir) parts.push('bin/ on the Bash PATH')
  return `${entry.id}${entry.version ? ` ${entry.version}` : ''}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`
}

/** The contract's view of an enabled plugin, with the plugin variables substituted as Claude Code does. */
export function toInstalledPlugin(entry: CatalogEntry, dataDir: string, projectDir: string): InstalledPlugin {
  const layout = entry.layout as PluginLayout
  const env = { CLAUDE_PLUGIN_ROOT: layout.root, CLAUDE_PLUGIN_DATA: dataDir }
  // Processes (hooks, MCP servers) get every userConfig value written in; the model never sees a sensitive one.
  const options = userConfigVars(layout.userConfig, entry.userConfigValues ?? {})
  const vars: Record<string, string> = { ...env, ...options, CLAUDE_PROJECT_DIR: projectDir }
  const plugin: InstalledPlugin = {
    name: layout.name,
    format: layout.format,
    root: layout.root,
    dataDir,
    commands: layout.commands,
    agents: layout.agents,
    skills: layout.skills,
    // Hook commands keep ${CLAUDE_PROJECT_DIR} for the shell (it is exported to them); the plugin's own are written in.
    hooks: layout.hooks.map((h) => ({ file: h.file, hooks: substitute(h.hooks, { ...env, ...options }) as Record<string, unknown> })),
    mcpServers: layout.mcpServers.map((m) => ({ file: m.file, servers: withPluginEnv(substitute(m.servers, vars) as Record<string, unknown>, env) })),
    env
  }
  if (entry.marketplace !== undefined) plugin.marketplace = entry.marketplace
  if (entry.version !== undefined) plugin.version = entry.version
  if (layout.binDir !== undefined) plugin.binDir = layout.binDir
  if (entry.contentHash !== undefined) plugin.contentHash = entry.contentHash
  const visible = userConfigVars(Object.fromEntries(Object.entries(layout.userConfig).filter(([, option]) => !option.sensitive)), entry.userConfigValues ?? {})
  if (Object.keys(visible).length > 0) plugin.userConfig = Object.fromEntries(Object.entries(visible).map(([name, value]) => [name.slice('user_config.'.length), value]))
  if (layout.outputStyles.length > 0) plugin.outputStyles = layout.outputStyles
  if (layout.themes.length > 0) plugin.themes = layout.themes
  if (layout.channels.length > 0) plugin.channels = layout.channels
  if (layout.settings?.agent !== undefined) plugin.settingsAgent = layout.settings.agent
  // Monitor commands, like hook commands, keep ${CLAUDE_PROJECT_DIR} for the shell (it is exported to them).
  const monitors = layout.monitors.flatMap((source) => source.monitors.map((m) => ({ file: source.file, name: m.name, command: substitute(m.command, { ...env, ...options }) as string, description: m.description, when: m.when })))
  if (monitors.length > 0) plugin.monitors = monitors
  const lspServers = pluginLspServers(layout, vars)
  if (lspServers.length > 0) plugin.lspServers = lspServers
  // A process, like a monitor: every userConfig value written in; ${CLAUDE_PROJECT_DIR} is exported to it.
  const statusLine = layout.settings?.subagentStatusLine
  if (statusLine !== undefined && layout.settings !== undefined) plugin.subagentStatusLine = { file: layout.settings.file, command: substitute(statusLine.command, { ...env, ...options }) as string }
  return plugin
}

/** The layout's LSP servers with the plugin variables written in; all three are exported to them (as the spec says). */
function pluginLspServers(layout: PluginLayout, vars: Readonly<Record<string, string>>): PluginLspServer[] {
  const exported = { CLAUDE_PLUGIN_ROOT: vars.CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA: vars.CLAUDE_PLUGIN_DATA, CLAUDE_PROJECT_DIR: vars.CLAUDE_PROJECT_DIR }
  return layout.lspServers.flatMap((source) =>
    Object.entries(source.servers).map(([name, declared]) => {
      const s = substitute(declared, vars) as LspServer
      const server: PluginLspServer = {
        name,
        file: source.file,
        command: s.command,
        args: s.args ?? [],
        extensionToLanguage: s.extensionToLanguage,
        transport: s.transport ?? 'stdio',
        env: { ...exported, ...(s.env ?? {}) }
      }
      if (s.initializationOptions !== undefined) server.initializationOptions = s.initializationOptions
      if (s.settings !== undefined) server.settings = s.settings
      if (s.workspaceFolder !== undefined) server.workspaceFolder = s.workspaceFolder
      if (s.startupTimeout !== undefined) server.startupTimeout = s.startupTimeout
      if (s.shutdownTimeout !== undefined) server.shutdownTimeout = s.shutdownTimeout
      if (s.restartOnCrash !== undefined) server.restartOnCrash = s.restartOnCrash
      if (s.maxRestarts !== undefined) server.maxRestarts = s.maxRestarts
      return server
    })
  )
}

/** `${NAME}` of `vars` replaced in every string inside `value`; other `${...}` are left for the reader's own expansion. */
export function substitute(value: unknown, vars: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') return value.replace(PLUGIN_VARIABLE, (all, name: string) => vars[name] ?? all)
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars))
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]))
  return value
}

/** Stdio servers get CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA in their environment (the entry's own env wins). */
function withPluginEnv(servers: Record<string, unknown>, env: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => {
      if (typeof server !== 'object' || server === null || typeof (server as { command?: unknown }).command !== 'string') return [name, server]
      const own = (server as { env?: unknown }).env
      return [name, { ...server, env: { ...env, ...(typeof own === 'object' && own !== null ? own : {}) } }]
    })
  )
}
