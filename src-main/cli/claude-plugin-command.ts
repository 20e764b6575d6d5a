// `seam plugin marketplace add|list|update|remove` and the Claude Code plugin side of
// `seam plugin install|update|enable|disable|uninstall|list` (NAME@MARKETPLACE), as `claude plugin`
// does them, through the `claudePluginManager` service of plugins/claude-plugins.
import type { HostRuntime } from '../app/runtime'
import type { ClaudePluginManagerService, InstallResult } from '../../plugins/claude-plugins/index'
import { describeMarketplaceSource, describeRuns, parseMarketplaceArg } from '../../plugins/claude-plugins/index'
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
      const uninstalled = manager.removeMarketplace(target)
      io.stdout.write(`removed marketplace ${target}${uninstalled.length > 0 ? `; uninstalled ${uninstalled.join(', ')}` : ''}\n`)
      return 0
    }
    default:
      throw new UsageError(MARKETPLACE_USAGE)
  }
}

export async function claudePluginAction(runtime: HostRuntime, action: string, id: string, io: Io): Promise<number> {
  const { manager } = claudePluginService(runtime)
  switch (action) {
    case 'install':
      reportInstall(runtime, await manager.install(id), io)
      return 0
    case 'update':
      reportInstall(runtime, await manager.update(id), io)
      return 0
    case 'enable':
    case 'disable':
      manager.setEnabled(id, action === 'enable')
      io.stdout.write(`${action}d ${id}\n`)
      return 0
    case 'uninstall':
    case 'remove':
      manager.uninstall(id)
      io.stdout.write(`uninstalled ${id}\n`)
      return 0
    default:
      throw new UsageError(`seam plugin ${action} does not apply to a Claude Code plugin`)
  }
}

/** One line per Claude Code plugin: id, version, state (and what decided it), source, components. */
export function listClaudePlugins(runtime: HostRuntime, io: Io): void {
  const service = runtime.kernel.getService('claudePluginManager')
  if (!service) return
  for (const entry of service.catalog().entries) {
    const layout = entry.layout
    const parts = layout
      ? [`commands ${layout.commands.length}`, `agents ${layout.agents.length}`, `skills ${layout.skills.length}`, `hooks ${layout.hooks.length}`, `servers ${layout.mcpServers.reduce((n, m) => n + Object.keys(m.servers).length, 0)}`]
      : []
    io.stdout.write(`${entry.id}  claude-${entry.format === 'codex' ? 'codex' : 'plugin'}  ${entry.version ?? ''}  ${entry.state} (${entry.decidedBy})  ${entry.source}${parts.length > 0 ? `  ${parts.join(', ')}` : ''}${entry.problem ? `  ${entry.problem}` : ''}\n`)
  }
}

function reportInstall(runtime: HostRuntime, result: InstallResult, io: Io): void {
  const verb = result.status === 'unchanged' ? 'already installed, unchanged:' : result.status
  io.stdout.write(`${verb} ${result.id} ${result.record.version} (content ${result.record.contentHash.slice(0, 12)}) in ${result.record.installPath}\n`)
  // What it will run, as the trust dialog shows it.
  const entry = { id: result.id, name: result.record.name, marketplace: result.record.marketplace, root: result.record.installPath, format: result.layout.format, source: result.record.source, state: 'enabled' as const, decidedBy: 'Seam', layout: result.layout }
  const runs = describeRuns(entry, claudePluginService(runtime).pluginVars(entry))
  const colon = runs.indexOf(': ')
  if (colon >= 0) io.stdout.write(`runs: ${runs.slice(colon + 2).split('; ').join('\n      ')}\n`)
}
