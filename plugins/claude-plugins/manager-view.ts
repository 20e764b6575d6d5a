// The plugin manager's rows for Claude Code and Codex plugins: where each came from, its version,
// its components by name, its state (on or off and who decided, waiting for trust, broken), and
// whether Seam's switch can turn it on or off here (a workspace settings file outranks it).
import type { LspServerStatus } from '@seam/sdk'
import { pluginComponents, runningParts, type PluginComponents } from './components'
import type { CatalogEntry, DecisionScope } from './catalog'
import { userConfigFields, type UserConfigField } from './user-config'

/** The catalog's identity and state fields as they are, plus what the manager shows beside them. */
export interface ManagerRow extends Pick<CatalogEntry, 'id' | 'name' | 'marketplace' | 'version' | 'description' | 'format' | 'source' | 'state' | 'decidedBy'> {
  /** `marketplace`: installed from one; `local`: a folder loaded in place; `project`/`user`: a settings file enables it and it is not installed. */
  origin: 'marketplace' | 'local' | 'project' | 'user'
  decidedScope: DecisionScope
  /** Why it is broken or waiting for trust, and what in it could not load. */
  problems: string[]
  components?: PluginComponents
  /** What runs while it is on (hooks, MCP servers, bin/). */
  runs: string[]
  /** Seam's switch can turn it on or off; otherwise `switchNote` says where to. */
  switchable: boolean
  switchNote?: string
  /** Its userConfig options with the values in effect (a sensitive one only says whether it is set). */
  userConfig: UserConfigField[]
  /** Installed plugins whose `dependencies` name it. */
  requiredBy?: string[]
  /** Installed only because another plugin depends on it (`seam plugin prune` removes it once nothing does). */
  installedAsDependency?: boolean
}

export function managerRow(entry: CatalogEntry, installed: boolean, vars: Readonly<Record<string, string>>): ManagerRow {
  const scope = entry.decidedScope ?? 'default'
  const origin: ManagerRow['origin'] = installed ? 'marketplace' : entry.state === 'not-installed' ? (scope === 'user' ? 'user' : 'project') : 'local'
  const components = entry.layout ? pluginComponents(entry.layout, vars, entry.marketplace) : undefined
  const problems = [...(entry.problem !== undefined ? [entry.problem] : []), ...(entry.layout?.problems ?? [])]
  const row: ManagerRow = {
    id: entry.id,
    name: entry.name,
    format: entry.format,
    origin,
    source: entry.source,
    state: entry.state,
    decidedBy: entry.decidedBy,
    decidedScope: scope,
    problems,
    runs: components ? runningParts(components) : [],
    switchable: false,
    userConfig: entry.layout ? userConfigFields(entry.layout.userConfig, entry.userConfigValues ?? {}) : []
  }
  if (entry.marketplace !== undefined) row.marketplace = entry.marketplace
  if (entry.version !== undefined) row.version = entry.version
  if (entry.description !== undefined) row.description = entry.description
  if (components) row.components = components
  if (entry.state === 'not-installed') row.switchNote = `not installed: seam plugin install ${entry.id}`
  else if (!installed) row.switchNote = 'loaded from a folder named in the claude-plugins config (pluginDirs): remove it there to turn it off'
  else if (scope === 'local' || scope === 'project') row.switchNote = `${entry.decidedBy} decides (its enabledPlugins outrank Seam's switch): change it there`
  else row.switchable = true
  return row
}

/**
 * Each LSP server of the row with where it is now, as the LSP plugin reports it: `running`,
 * `idle` (started at the first use of a file it serves), `starting`, `failed: why`; without the
 * LSP plugin (its profile entry off), `not run: the lsp entry is off`.
 */
export function withLspStates(row: ManagerRow, status: readonly LspServerStatus[] | undefined): ManagerRow {
  const servers = row.components?.lspServers
  if (row.components === undefined || servers === undefined || servers.length === 0) return row
  const stateOf = (server: string): string => {
    if (status === undefined) return 'not run: the lsp entry is off'
    if (row.state !== 'enabled') return 'off'
    const found = status.find((s) => s.plugin === row.name && s.server === server)
    if (found === undefined) return 'idle'
    return found.state === 'failed' ? `failed: ${found.reason ?? 'unknown reason'}` : found.state
  }
  const lspServers = servers.map((line) => `${line} (${stateOf(line.slice(0, line.indexOf(':')))})`)
  return { ...row, components: { ...row.components, lspServers } }
}
