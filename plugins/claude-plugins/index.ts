// @seam/claude-plugins: Claude Code (and Codex) plugins, installed from marketplaces into Seam's
// home or loaded from folders, offered to the loaders of commands, agents, skills, hooks and MCP
// servers through the `claudePlugins` service. See README.md.
import { delimiter, join, resolve } from 'node:path'
import { z } from 'zod'
import { definePlugin, type InstalledPlugin, type PluginCatalogService } from '@seam/sdk'
import { claudeUserSettingsPath } from '@seam/sdk/node'
import { PluginCatalog, toInstalledPlugin, type CatalogEntry, type CatalogSnapshot, type WorkspaceView } from './catalog'
import { dependencyGraph, dependentsOf } from './dependencies'
import { PluginManager, PluginManagerError } from './manager'
import { managerRow, withLspStates, type ManagerRow } from './manager-view'
import { MainAgentSlot } from './main-agent'
import { SubagentStatusLineConfigSchema, SubagentStatusLines } from './subagent-status-line'
import { PluginStore } from './store'
import { missingOptions, UserConfigError, UserConfigStore, type UserConfigValue } from './user-config'

export type { CatalogEntry, CatalogSnapshot, PluginState } from './catalog'
export { describeRuns } from './catalog'
export { PluginManager, PluginManagerError, parseMarketplaceArg, describeMarketplaceSource } from './manager'
export type { InstallResult } from './manager'
export type { PluginLayout } from './manifest'
export type { ManagerRow } from './manager-view'
export type { PluginComponents } from './components'
export { UserConfigError } from './user-config'
export { createReleaseTag, planReleaseTag, pushReleaseTag, ReleaseTagError } from './release-tag-command'
export type { ReleaseTagPlan } from './release-tag-command'
export type { UserConfigField, UserConfigValue } from './user-config'

export const ClaudePluginsConfigSchema = z.object({
  /** Claude Code's user settings file (its `enabledPlugins`, `extraKnownMarketplaces`). */
  userSettingsPath: z.string().optional(),
  /** Plugin folders loaded in place, as Claude Code's `--plugin-dir` (not copied, not pinned). */
  pluginDirs: z.array(z.string()).default([]),
  /** Where installed plugins and marketplaces are kept; default: `<Seam home>/claude-plugins`. */
  seamHome: z.string().optional(),
  /** How a plugin's settings.json `subagentStatusLine` command is run (subagent-status-line.ts). */
  subagentStatusLine: SubagentStatusLineConfigSchema
})
export type ClaudePluginsConfigInput = z.input<typeof ClaudePluginsConfigSchema>

/** What the CLI and the plugin manager use: the catalog with every plugin's state, and the install operations. */
export interface ClaudePluginManagerService {
  /** Every plugin this workspace knows: installed, folder, or enabled by a settings file and not installed. */
  catalog(): CatalogSnapshot
  manager: PluginManager
  /** `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` of a plugin, as its hooks and servers get them. */
  pluginVars(entry: CatalogEntry): Record<string, string>
  /** The plugin manager's rows: every plugin of the catalog with its components and what decides its state. */
  rows(): ManagerRow[]
  /**
   * Seam's switch, as `seam plugin enable|disable NAME@MARKETPLACE` (installed_plugins.json,
   * written atomically). Refused when a workspace settings file decides (the switch would change
   * nothing). Returns the plugin's row as it is now.
   */
  setEnabled(id: string, enabled: boolean): ManagerRow
  /**
   * Sets a plugin's userConfig values (strings are parsed per the option's type; '' or null unsets
   * one) and returns its row. Refused, naming the field, for an unknown key or a bad value; the
   * file is written whole (0600) or not at all.
   */
  configure(id: string, values: Readonly<Record<string, UserConfigValue | null>>): ManagerRow
  /** The options of `id` still missing a value that its userConfig requires. */
  missingConfig(id: string): string[]
}

declare module '@seam/sdk' {
  interface Services {
    claudePluginManager: ClaudePluginManagerService
  }
}

export default definePlugin({
  name: 'claude-plugins',
  schema: ClaudePluginsConfigSchema,
  inject: ['workspace'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const store = new PluginStore(config.seamHome ?? workspace.seamHome)
    const userConfig = new UserConfigStore((plugin, marketplace) => store.userConfigFile(plugin, marketplace))
    const catalog = new PluginCatalog({
      store,
      userConfig,
      userSettingsPath: claudeUserSettingsPath(config.userSettingsPath),
      pluginDirs: config.pluginDirs.map((dir) => resolve(dir))
    })
    const view = (root: string | null): WorkspaceView => ({
      root,
      // Only the host's own workspace can be trusted here: another folder's settings are not read.
      trusted: root !== null && root === workspace.root && workspace.trusted,
      approved: (item) => workspace.isApproved(item)
    })
    const listeners = new Set<() => void>()
    const changed = () => {
      catalog.invalidate()
      for (const listener of [...listeners]) {
        try {
          listener()
        } catch (error) {
          ctx.logger.error('claude-plugins: a change listener failed', error)
        }
      }
    }
    const manager = new PluginManager(store, () => catalog.snapshot(view(workspace.root)).declaredMarketplaces, () => {
      changed()
      workspace.itemsChanged()
    })

    const logged = new Set<string>()
    const snapshotFor = (root: string | null): CatalogSnapshot => {
      const snapshot = catalog.snapshot(view(root))
      for (const warning of snapshot.warnings) {
        if (logged.has(warning)) continue
        logged.add(warning)
        ctx.logger.warn(warning)
      }
      return snapshot
    }

    const service: PluginCatalogService = {
      list(root: string): readonly InstalledPlugin[] {
        return snapshotFor(root)
          .entries.filter((entry) => entry.state === 'enabled' && entry.layout !== undefined)
          .map((entry) => toInstalledPlugin(entry, store.dataDir(entry.name, entry.marketplace), root))
      },
      onChange(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      warnings: (root) => snapshotFor(root).warnings
    }
    ctx.provide('claudePlugins', service)
    const rows = (): ManagerRow[] => {
      const installed = store.installed()
      const lsp = ctx.maybe('lspServers')?.status()
      const graph = dependencyGraph(installed)
      return snapshotFor(workspace.root).entries.map((entry) => {
        const row = withLspStates(managerRow(entry, installed[entry.id] !== undefined, catalog.pluginVars(entry)), lsp)
        const requiredBy = installed[entry.id] !== undefined ? dependentsOf(entry.id, graph) : []
        return { ...row, ...(requiredBy.length > 0 ? { requiredBy } : {}), ...(installed[entry.id]?.auto === true ? { installedAsDependency: true } : {}) }
      })
    }
    const entryOf = (id: string): CatalogEntry => {
      const entry = snapshotFor(workspace.root).entries.find((e) => e.id === id)
      if (entry === undefined) throw new PluginManagerError(`no Claude Code plugin "${id}" (seam plugin list)`)
      return entry
    }
    ctx.provide('claudePluginManager', {
      catalog: () => snapshotFor(workspace.root),
      manager,
      pluginVars: (entry) => catalog.pluginVars(entry),
      rows,
      setEnabled(id, enabled) {
        const before = rows().find((row) => row.id === id)
        if (before === undefined) throw new PluginManagerError(`no Claude Code plugin "${id}" (seam plugin list)`)
        if (!before.switchable) throw new PluginManagerError(`${id}: ${before.switchNote ?? 'Seam cannot switch it'}`)
        manager.setEnabled(id, enabled)
        const after = rows().find((row) => row.id === id)
        if (after === undefined) throw new PluginManagerError(`${id} is gone from the catalog`)
        return after
      },
      configure(id, values) {
        const entry = entryOf(id)
        if (entry.layout === undefined) throw new PluginManagerError(`${id}: ${entry.problem ?? 'its files could not be read'}`)
        if (Object.keys(entry.layout.userConfig).length === 0) throw new UserConfigError(`${id}: the plugin has no userConfig options`)
        userConfig.write(entry.name, entry.marketplace, entry.layout.userConfig, values)
        changed()
        workspace.itemsChanged()
        const row = rows().find((r) => r.id === id)
        if (row === undefined) throw new PluginManagerError(`${id} is gone from the catalog`)
        return row
      },
      missingConfig(id) {
        const entry = entryOf(id)
        return entry.layout ? missingOptions(entry.layout.userConfig, entry.userConfigValues ?? {}) : []
      }
    })
    workspace.contributeTrustItems(ctx, (root) => catalog.trustItems(root))

    // A plugin's settings.json `subagentStatusLine`: its command draws the subagents' rows.
    const statusLines = new SubagentStatusLines(ctx, config.subagentStatusLine, service)
    ctx.provide('subagentStatusLines', { lines: (sessionId) => statusLines.lines(sessionId), setColumns: (sessionId, columns) => statusLines.setColumns(sessionId, columns) })

    const mainAgent = new MainAgentSlot(ctx)
    // Plugins announced to each session: what is loaded, and what could not be.
    ctx.on('agent/session-start', (agent) => {
      const root = workspace.root ?? agent.workspace
      for (const warning of snapshotFor(root).warnings) agent.notify('warn', warning, 'claude-plugins')
      // Each enabled plugin's bin/ joins the PATH of the session's commands, after what is there
      // (appended, so a plugin cannot shadow git or ls: see README).
      const bins = service.list(root).flatMap((plugin) => (plugin.binDir !== undefined ? [plugin.binDir] : []))
      if (bins.length > 0) agent.setEnv('PATH', [agent.env.PATH ?? process.env.PATH ?? '', ...bins].filter((part) => part !== '').join(delimiter))
      // A plugin's settings.json `agent`: the main thread runs as it (its prompt and tools; main-agent.ts).
      if (agent.subagent === undefined) for (const problem of mainAgent.apply(service.list(root), root)) agent.notify('warn', `Claude Code plugins: ${problem}`, 'claude-plugins')
    })
    // ...and its `model`, for each turn the main thread starts.
    ctx.on('agent/prompt-submit', async (agent, _content, source, next) => {
      const decision = await next()
      if (decision.action === 'allow' && source !== 'steering') mainAgent.useModel(agent)
      return decision
    })
  }
})
