// The contract's `claudePlugins/*` methods (src-shared/contract/claude-plugins.ts): the plugin
// manager's Claude Code and Codex rows, and Seam's switch, through the `claudePluginManager`
// service (plugins/claude-plugins), the same one `seam plugin enable|disable` uses.
import type { Handlers } from '../transport/router'
import type { HostRuntime } from './runtime'

type ClaudePluginHandlerNames = 'claudePlugins/list' | 'claudePlugins/set-enabled' | 'claudePlugins/configure'

export function claudePluginHandlers(runtime: HostRuntime): Pick<Handlers, ClaudePluginHandlerNames> {
  return {
    'claudePlugins/list': async () => {
      const service = runtime.kernel.getService('claudePluginManager')
      if (!service) return { available: false, plugins: [], warnings: [] }
      return { available: true, plugins: service.rows(), warnings: service.catalog().warnings }
    },
    'claudePlugins/set-enabled': async ({ id, enabled }) => {
      const service = runtime.kernel.getService('claudePluginManager')
      if (!service) throw Object.assign(new Error('Claude Code plugins are turned off (the claude-plugins entry is disabled)'), { code: 'UNAVAILABLE' })
      try {
        return service.setEnabled(id, enabled)
      } catch (error) {
        throw Object.assign(error as Error, { code: 'PLUGIN', field: 'id' })
      }
    },
    'claudePlugins/configure': async ({ id, values }) => {
      const service = runtime.kernel.getService('claudePluginManager')
      if (!service) throw Object.assign(new Error('Claude Code plugins are turned off (the claude-plugins entry is disabled)'), { code: 'UNAVAILABLE' })
      try {
        return service.configure(id, values)
      } catch (error) {
        // The message names the option (userConfig.KEY); the form marks that field.
        const key = /userConfig\.([A-Za-z_][A-Za-z0-9_]*)/.exec((error as Error).message)?.[1]
        throw Object.assign(error as Error, { code: 'PLUGIN', field: key !== undefined ? `values.${key}` : 'id' })
      }
    }
  }
}
