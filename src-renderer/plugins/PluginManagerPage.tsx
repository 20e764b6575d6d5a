// The plugin manager: Seam's plugins (built-ins and bundles) and, beside them, Claude Code and Codex
// plugins, each with source, version, components, state and an on/off switch; install a bundle
// from a file; recent plugin log records.
import { useEffect } from 'react'
import { useHost } from '../app/host-context'
import { InstallBundle } from './InstallBundle'
import { ClaudePluginsSection } from './manager/ClaudePluginsSection'
import { PluginLogs } from './PluginLogs'
import { PluginRow } from './PluginRow'
import { pluginsActions, usePluginsStore } from './plugins-store'
import { EmptyState } from '../app/EmptyState'
import { Puzzle } from '../app/icons'

export function PluginManagerPage() {
  const host = useHost()
  const list = usePluginsStore((state) => state.list)
  const error = usePluginsStore((state) => state.error)
  useEffect(() => {
    void pluginsActions.refresh(host)
  }, [host])
  return (
    <div className="page-scroll plugins-page">
      <h1>Plugins</h1>
      <section className="settings-section">
        <h2>Install a bundle</h2>
        <InstallBundle />
      </section>
      <section className="settings-section">
        <h2>Seam plugins</h2>
        {error && <p className="form-error" role="alert">{error}</p>}
        <table className="plugin-table" aria-label="Installed plugins">
          <thead>
            <tr><th>Name</th><th>Version</th><th>Source</th><th>State</th><th>Components</th><th>On</th></tr>
          </thead>
          <tbody>
            {list.map((plugin) => (
              <PluginRow key={plugin.id} plugin={plugin} />
            ))}
          </tbody>
        </table>
        {list.length === 0 && !error && (
          <EmptyState icon={Puzzle} title="No plugins installed.">
            Install a bundle above from a file or the registry; built-in plugins show here once the host has loaded them.
          </EmptyState>
        )}
      </section>
      <ClaudePluginsSection />
      <section className="settings-section">
        <h2>Log</h2>
        <PluginLogs />
      </section>
    </div>
  )
}
