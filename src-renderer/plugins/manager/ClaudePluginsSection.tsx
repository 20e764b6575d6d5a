// The plugin manager's Claude Code and Codex plugins, in the same columns as Seam's bundles above
// them: installed from marketplaces, folders loaded in place, and ones a settings file enables.
import { useEffect } from 'react'
import { useHost } from '../../app/host-context'
import { ClaudePluginRow } from './ClaudePluginRow'
import { claudePluginsActions, useClaudePluginsStore } from './claude-plugins-store'
import './plugin-manager.css'

export function ClaudePluginsSection() {
  const host = useHost()
  const { available, rows, warnings, error } = useClaudePluginsStore()
  useEffect(() => {
    void claudePluginsActions.refresh(host)
  }, [host])
  // A plugin LSP server started or failed (its state is in the row), or a plugin changed.
  useEffect(() => host.on('plugins/changed', () => void claudePluginsActions.refresh(host)), [host])
  return (
    <section className="settings-section" aria-labelledby="claude-plugins-heading">
      <h2 id="claude-plugins-heading">Claude Code and Codex plugins</h2>
      {error && <p className="form-error" role="alert">{error}</p>}
      {!available ? (
        <p className="muted">Claude Code plugins are off: the claude-plugins entry is disabled in the plugin tree (Settings).</p>
      ) : rows.length === 0 ? (
        <p className="muted">None installed. Add a marketplace and install from it: seam plugin marketplace add SOURCE, then seam plugin install NAME@MARKETPLACE.</p>
      ) : (
        <table className="plugin-table" aria-label="Claude Code and Codex plugins">
          <thead>
            <tr><th>Name</th><th>Version</th><th>Source</th><th>State</th><th>Components</th><th>On</th></tr>
          </thead>
          <tbody>
            {rows.map((plugin) => (
              <ClaudePluginRow key={plugin.id} plugin={plugin} />
            ))}
          </tbody>
        </table>
      )}
      {warnings.length > 0 && (
        <ul className="plugin-warnings" aria-label="Claude Code plugin warnings">
          {warnings.map((warning) => (
            <li key={warning} className="small">{warning}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
