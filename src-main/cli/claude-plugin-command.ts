// `seam plugin marketplace add|list|update|remove` and the Claude Code plugin side of
// `seam plugin install|update|enable|disable|uninstall|list` (NAME@MARKETPLACE), as `claude plugin`
// does them, through the `claudePluginManager` service of plugins/claude-plugins.
import type { HostRuntime } from '../app/runtime'
import type { ClaudePluginManagerService, InstallResult, ManagerRow, UserConfigField } from '../../plugins/claude-plugins/index'
import { describeMarketplaceSource, describeRuns, parseMarketplaceArg } from '../../plugins/claude-plugins/index'
import { askUserConfig, askYesNo, withTerminal } from './plugin-config-prompt'
import { UsageError } from './usage-error'

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

const MARKETPLACE_USAGE = 'seam plugin marketplace add SOURCE | list | update [NAME] | remove NAME   (SOURCE: a folder, a git URL or path, owner/repo, a URL to marketplace.json, npm:PACKAGE)'

export function claudePluginService(runtime: HostRuntime): ClaudePluginManagerService {
  const service = runtime.kernel.getService('claudePluginManager')
  if (!service) throw new Error('Claude Code plugins are turned off (profile entry claude-plugins is disabled)')
  return service
}

/** Whether `target` names a Claude Code plugin: `name@marketplace` with a marketplace Seam knows, or an installed one. */
export function isClaudePluginId(runtime: HostRuntime, target: string | undefined): boolean {
  if (target === undefined) return false
  const at = target.lastIndexOf('@')
  if (at <= 0) return false
  const service = runtime.kernel.getService('claudePluginManager')
  if (!service) return false
  const marketplace = target.slice(at + 1)
  return service.manager.listMarketplaces().some((m) => m.name === marketplace) || service.catalog().entries.some((e) => e.id === target)
}

export async function marketplaceCommand(runtime: HostRuntime, args: string[], io: Io): Promise<number> {
  const [action, target, ...extra] = args
  const { manager } = claudePluginService(runtime)
  if (extra.length > 0) throw new UsageError(MARKETPLACE_USAGE)
  switch (action) {
    case 'add': {
      if (!target) throw new UsageError(MARKETPLACE_USAGE)
      const added = await manager.addMarketplace(parseMarketplaceArg(target, process.cwd()))
      io.stdout.write(`added marketplace ${added.name} (${describeMarketplaceSource(added.known.source)}): ${added.marketplace.plugins.length} plugin(s): ${added.marketplace.plugins.map((p) => p.name).join(', ')}\n`)
      return 0
    }
    case 'list': {
      for (const row of manager.listMarketplaces()) {
        const state = row.added ? `${row.plugins ?? '?'} plugin(s)` : `declared in ${row.declaredIn}, not added yet`
        io.stdout.write(`${row.name}  ${describeMarketplaceSource(row.source)}  ${state}${row.problem ? `  problem: ${row.problem}` : ''}\n`)
      }
      return 0
    }
    case 'update': {
      const names = target ? [target] : manager.listMarketplaces().filter((m) => m.added).map((m) => m.name)
      for (const name of names) {
        const updated = await manager.updateMarketplace(name)
        io.stdout.write(`updated marketplace ${name}${updated.commit ? ` (${updated.commit.slice(0, 12)})` : ''}\n`)
      }
      return 0
    }
    case 'remove': {
      if (!target) throw new UsageError(MARKETPLACE_USAGE)
      // Its plugins go with it: plugins of other marketplaces that depend on them are named.
      const going = claudePluginService(runtime).catalog().entries.filter((e) => e.marketplace === target && e.state !== 'not-installed').map((e) => e.id)
      const dependents = going.map((id) => [id, manager.dependents(id).filter((other) => !going.includes(other))] as const)
      const uninstalled = manager.removeMarketplace(target)
      io.stdout.write(`removed marketplace ${target}${uninstalled.length > 0 ? `; uninstalled ${uninstalled.join(', ')}` : ''}\n`)
      for (const [id, others] of dependents) if (uninstalled.includes(id)) sayDependents(others, id, 'uninstalled', io)
      return 0
    }
    default:
      throw new UsageError(MARKETPLACE_USAGE)
  }
}

export async function claudePluginAction(runtime: HostRuntime, action: string, id: string, io: Io, settings: readonly string[] = [], options: { prune?: boolean; yes?: boolean } = {}): Promise<number> {
  const { manager } = claudePluginService(runtime)
  if (settings.length > 0 && !['install', 'enable', 'config'].includes(action)) throw new UsageError(`seam plugin ${action} NAME@MARKETPLACE`)
  switch (action) {
    case 'install':
      reportInstall(runtime, await manager.install(id), io)
      await askForSettings(runtime, id, settings, io, 'unset')
      return 0
    case 'config':
      await askForSettings(runtime, id, settings, io, 'all')
      return 0
    case 'update':
      reportInstall(runtime, await manager.update(id), io)
      return 0
    case 'enable':
    case 'disable':
      manager.setEnabled(id, action === 'enable')
      io.stdout.write(`${action}d ${id}\n`)
      if (action === 'disable') sayDependents(manager.dependents(id), id, 'disabled', io)
      if (action === 'enable') await askForSettings(runtime, id, settings, io, 'unset')
      return 0
    case 'uninstall':
    case 'remove':
      {
        const dependents = manager.dependents(id)
        manager.uninstall(id)
        io.stdout.write(`uninstalled ${id}\n`)
        sayDependents(dependents, id, 'uninstalled', io)
      }
      // `--prune`, as `claude plugin uninstall --prune`: then what it alone needed.
      return options.prune ? pruneClaudePlugins(runtime, io, { yes: options.yes }) : 0
    default:
      throw new UsageError(`seam plugin ${action} does not apply to a Claude Code plugin`)
  }
}

/**
 * `seam plugin prune [--dry-run] [-y]` (also `autoremove`), as `claude plugin prune`: uninstalls the
 * plugins installed only as dependencies that no installed plugin needs any more (never one the
 * user installed by name), with their data. Asks on the terminal first unless `-y`; without a
 * terminal and without `-y` it removes nothing and says so.
 */
export async function pruneClaudePlugins(runtime: HostRuntime, io: Io, options: { dryRun?: boolean; yes?: boolean } = {}): Promise<number> {
  const { manager } = claudePluginService(runtime)
  const orphans = manager.orphans()
  if (orphans.length === 0) {
    io.stdout.write('no dependencies to prune: every plugin installed as a dependency is still needed\n')
    return 0
  }
  if (options.dryRun) {
    for (const id of orphans) io.stdout.write(`would uninstall ${id} (installed as a dependency; nothing installed needs it)\n`)
    return 0
  }
  if (!options.yes) {
    const confirmed = await withTerminal((streams) => askYesNo(`Uninstall ${orphans.join(', ')} (installed as dependencies; nothing installed needs them), with their data?`, streams))
    if (confirmed === undefined) {
      io.stderr.write(`seam plugin prune would uninstall ${orphans.join(', ')}: there is no terminal to ask, so nothing was removed (confirm with -y)\n`)
      return 1
    }
    if (!confirmed) {
      io.stdout.write('nothing was removed\n')
      return 0
    }
  }
  for (const id of manager.prune()) io.stdout.write(`uninstalled ${id} (installed as a dependency; nothing installed needs it)\n`)
  return 0
}

/** One line per Claude Code plugin: id, version, state (and what decided it), source, components, dependencies. */
export function listClaudePlugins(runtime: HostRuntime, io: Io): void {
  const service = runtime.kernel.getService('claudePluginManager')
  if (!service) return
  const rows = service.rows()
  for (const entry of service.catalog().entries) {
    const layout = entry.layout
    const parts = layout
      ? [`commands ${layout.commands.length}`, `agents ${layout.agents.length}`, `skills ${layout.skills.length}`, `hooks ${layout.hooks.length}`, `servers ${layout.mcpServers.reduce((n, m) => n + Object.keys(m.servers).length, 0)}`]
      : []
    const row = rows.find((r) => r.id === entry.id)
    const dependencies = row?.components?.dependencies ?? []
    if (dependencies.length > 0) parts.push(`depends on ${dependencies.join(', ')}`)
    if (row?.installedAsDependency === true) parts.push('installed as a dependency')
    io.stdout.write(`${entry.id}  claude-${entry.format === 'codex' ? 'codex' : 'plugin'}  ${entry.version ?? ''}  ${entry.state} (${entry.decidedBy})  ${entry.source}${parts.length > 0 ? `  ${parts.join(', ')}` : ''}${entry.problem ? `  ${entry.problem}` : ''}\n`)
  }
}

/**
 * userConfig, as Claude Code asks for it when a plugin is enabled: `KEY=VALUE` arguments first,
 * then, on a terminal, a question per option (`unset`: only those without a value; `all`: every
 * one, for `seam plugin config`). Without a terminal, what is still required is named on stderr.
 */
async function askForSettings(runtime: HostRuntime, id: string, pairs: readonly string[], io: Io, which: 'unset' | 'all'): Promise<void> {
  const service = claudePluginService(runtime)
  let row = rowOf(service, id)
  if (row.userConfig.length === 0) {
    if (pairs.length > 0 || which === 'all') throw new UsageError(`${id} has no userConfig options to set`)
    return
  }
  if (pairs.length > 0) row = service.configure(id, parsePairs(pairs))
  const ask = pairs.length > 0 ? [] : row.userConfig.filter((field) => which === 'all' || !field.set)
  if (ask.length > 0) {
    const answers = await withTerminal((streams) => askUserConfig(id, ask, streams))
    if (answers !== undefined && Object.keys(answers).length > 0) row = service.configure(id, answers)
  }
  for (const field of row.userConfig) io.stdout.write(`  ${field.key} = ${describeValue(field)}\n`)
  const missing = service.missingConfig(id)
  if (missing.length > 0) io.stderr.write(`${id} needs its settings before it loads: seam plugin config ${id} ${missing.map((key) => `${key}=…`).join(' ')}\n`)
}

function rowOf(service: ClaudePluginManagerService, id: string): ManagerRow {
  const row = service.rows().find((r) => r.id === id)
  if (row === undefined) throw new UsageError(`no Claude Code plugin "${id}" (seam plugin list)`)
  return row
}

function parsePairs(pairs: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new UsageError(`"${pair}" is not KEY=VALUE (seam plugin config NAME@MARKETPLACE KEY=VALUE ...)`)
    values[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return values
}

function describeValue(field: UserConfigField): string {
  if (!field.set) return field.required ? '(not set, required)' : '(not set)'
  if (field.sensitive) return '(set, hidden)'
  return JSON.stringify(field.value)
}

/** A plugin others name in their `dependencies` was turned off or removed: they stay as they are, and the user is told. */
function sayDependents(dependents: readonly string[], id: string, done: string, io: Io): void {
  if (dependents.length > 0) io.stderr.write(`warning: ${dependents.join(', ')} ${dependents.length === 1 ? 'depends' : 'depend'} on ${id}, which is now ${done}\n`)
}

function reportInstall(runtime: HostRuntime, result: InstallResult, io: Io): void {
  for (const dependency of result.dependencies ?? []) {
    if (dependency.status === 'unchanged') io.stdout.write(`dependency ${dependency.id} ${dependency.record.version} is installed already\n`)
    else reportInstall(runtime, dependency, io)
  }
  const verb = result.status === 'unchanged' ? 'already installed, unchanged:' : result.status
  io.stdout.write(`${verb} ${result.id} ${result.record.version} (content ${result.record.contentHash.slice(0, 12)}) in ${result.record.installPath}\n`)
  // What it will run, as the trust dialog shows it.
  const entry = { id: result.id, name: result.record.name, marketplace: result.record.marketplace, root: result.record.installPath, format: result.layout.format, source: result.record.source, state: 'enabled' as const, decidedBy: 'Seam', layout: result.layout }
  const runs = describeRuns(entry, claudePluginService(runtime).pluginVars(entry))
  const colon = runs.indexOf(': ')
  if (colon >= 0) io.stdout.write(`runs: ${runs.slice(colon + 2).split('; ').join('\n      ')}\n`)
}
