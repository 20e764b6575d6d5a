// `seam plugin install PATH|NAME[@RANGE] [--force] | update [NAME] | search [QUERY] | list | enable NAME | disable NAME | remove NAME`
// and, for Claude Code plugins, `install|update|enable|disable|uninstall NAME@MARKETPLACE`, `config NAME@MARKETPLACE
// [KEY=VALUE ...]` (its userConfig; install and enable take them too), `prune` and `marketplace …`
import { resolve } from 'node:path'
import type { HostRuntime } from '../app/runtime'
import { UsageError } from './usage-error'
import { installByName, isBundlePath, registryUsage, searchCommand, updateCommand } from './plugin-registry-command'
import { claudePluginAction, isClaudePluginId, listClaudePlugins, marketplaceCommand, pruneClaudePlugins } from './claude-plugin-command'

export async function pluginCommand(
  runtime: HostRuntime,
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  options: { force?: boolean; dryRun?: boolean; yes?: boolean; prune?: boolean } = {}
): Promise<number> {
  const [action, target] = args
  const needTarget = (what: string) => {
    if (!target) throw new UsageError(`seam plugin ${action} needs ${what}`)
    return target
  }
  if (action === 'marketplace') return marketplaceCommand(runtime, args.slice(1), io)
  const pruning = action === 'prune' || action === 'autoremove'
  if (options.dryRun && !pruning) throw new UsageError('--dry-run goes with seam plugin prune')
  if (options.prune && action !== 'uninstall' && action !== 'remove') throw new UsageError('--prune goes with seam plugin uninstall NAME@MARKETPLACE')
  if (options.yes && !pruning && !options.prune) throw new UsageError('-y goes with seam plugin prune or seam plugin uninstall NAME@MARKETPLACE --prune')
  if (pruning) {
    if (args.length > 1) throw new UsageError('seam plugin prune [--dry-run] [-y]')
    return pruneClaudePlugins(runtime, io, options)
  }
  // NAME@MARKETPLACE is a Claude Code plugin; a bundle's NAME@RANGE names no marketplace.
  if (action !== undefined && ['install', 'update', 'enable', 'disable', 'uninstall', 'remove', 'config'].includes(action) && isClaudePluginId(runtime, target)) {
    // install, enable and config take the plugin's userConfig as KEY=VALUE after the id.
    return claudePluginAction(runtime, action, target as string, io, args.slice(2), options)
  }
  if (options.prune) throw new UsageError(`seam plugin ${action} NAME@MARKETPLACE --prune: "${target ?? ''}" is not an installed Claude Code plugin`)
  if (action === 'config') throw new UsageError(`seam plugin config NAME@MARKETPLACE [KEY=VALUE ...]: "${target ?? ''}" is not an installed Claude Code plugin`)
  switch (action) {
    case 'install': {
      const what = needTarget('a folder or .tgz path, or a package NAME[@RANGE]')
      if (!isBundlePath(what)) return installByName(runtime, what, io, options)
      const declared = await runtime.plugins.install(resolve(what), { force: options.force })
      if (declared.status === 'replaced' || declared.status === 'unchanged') {
        io.stdout.write(`${declared.message}\n`)
        return 0
      }
      io.stdout.write(`installed ${declared.name}@${declared.version}${declared.host ? ` (host: ${declared.host})` : ''}${declared.client ? ` (client: ${declared.client})` : ''}\n`)
      if (declared.host) io.stderr.write(`note: ${declared.warning}\n`)
      return 0
    }
    case 'update':
      if (args.length > 2) registryUsage('update')
      return updateCommand(runtime, target, io)
    case 'search':
      return searchCommand(runtime, args.slice(1), io)
    case 'list': {
      for (const p of runtime.plugins.list()) {
        io.stdout.write(`${p.id}  ${p.kind}  ${p.version ?? ''}  ${p.state}${p.error ? `  ${p.error}` : ''}\n`)
      }
      listClaudePlugins(runtime, io)
      return 0
    }
    case 'enable':
    case 'disable':
      await runtime.plugins.setEnabled(needTarget('a bundle name'), action === 'enable')
      io.stdout.write(`${action}d ${target}\n`)
      return 0
    case 'uninstall':
      throw new UsageError(`seam plugin uninstall NAME@MARKETPLACE: "${target ?? ''}" is not an installed Claude Code plugin (a bundle is removed with seam plugin remove NAME)`)
    case 'remove':
      await runtime.plugins.remove(needTarget('a bundle name'))
      io.stdout.write(`removed ${target}\n`)
      return 0
    default:
      throw new UsageError('seam plugin install PATH|NAME[@RANGE]|NAME@MARKETPLACE | update [NAME] | search [QUERY] | list | enable NAME | disable NAME | remove NAME | uninstall NAME@MARKETPLACE | prune [--dry-run] [-y] | marketplace add|list|update|remove')
  }
}
