// One Claude Code or Codex plugin in the plugin manager: where it came from, its version, its
// components (names on expand), its state (on or off and who decided, waiting for trust, errors)
// and Seam's switch, whose confirmation names what starts or stops running.
import { useState } from 'react'
import type { ClaudePluginRow as Row } from '../../../src-shared/contract/claude-plugins'
import { useHost } from '../../app/host-context'
import { PluginConfigDialog } from './PluginConfigDialog'
import { ComponentCounts, type ComponentGroup } from './ComponentCounts'
import { PluginSwitch } from './PluginSwitch'
import { claudePluginsActions } from './claude-plugins-store'

export function ClaudePluginRow({ plugin }: { plugin: Row }) {
  const host = useHost()
  const on = plugin.state === 'enabled' || plugin.state === 'unapproved' || plugin.state === 'unconfigured'
  const [configuring, setConfiguring] = useState(false)
  return (
    <tr className={`plugin-row claude-plugin-row state-${plugin.state}`} aria-label={plugin.id}>
      <td>
        <strong>{plugin.name}</strong>
        <span className="muted small"> {plugin.format === 'codex' ? 'Codex plugin' : 'Claude Code plugin'}</span>
        {plugin.description && <div className="small muted">{plugin.description}</div>}
      </td>
      <td>{plugin.version ?? '—'}</td>
      <td>
        <div>{ORIGIN_TEXT[plugin.origin]}{plugin.marketplace ? ` ${plugin.marketplace}` : ''}</div>
        <div className="path small muted" title={plugin.source}>{plugin.source}</div>
        {plugin.installedAsDependency === true && <div className="small muted">installed as a dependency</div>}
      </td>
      <td>
        <span className={`badge plugin-${STATE_CLASS[plugin.state]}`}>{STATE_TEXT[plugin.state]}</span>
        <div className="small muted">{decidedText(plugin)}</div>
        {plugin.problems.map((problem) => (
          <div key={problem} className="small form-error">{problem}</div>
        ))}
      </td>
      <td>{plugin.components ? <ComponentCounts plugin={plugin.id} groups={groupsOf(plugin)} /> : <span className="muted">—</span>}</td>
      <td className="plugin-actions">
        <PluginSwitch
          name={plugin.id}
          on={on}
          {...(plugin.switchable ? {} : { disabledReason: plugin.switchNote ?? 'Seam cannot switch it' })}
          consequence={(turningOn) => <Consequence plugin={plugin} turningOn={turningOn} />}
          onChange={async (next) => {
            const row = await claudePluginsActions.setEnabled(host, plugin.id, next)
            // userConfig is asked for when the plugin is enabled, as Claude Code does.
            if (row.state === 'unconfigured') setConfiguring(true)
          }}
        />
        {plugin.userConfig.length > 0 && (
          <button type="button" className="plugin-configure" aria-label={`Settings of ${plugin.id}`} onClick={() => setConfiguring(true)}>
            Settings…
          </button>
        )}
        {configuring && <PluginConfigDialog plugin={plugin} onSave={(values) => claudePluginsActions.configure(host, plugin.id, values)} onClose={() => setConfiguring(false)} />}
      </td>
    </tr>
  )
}

function Consequence({ plugin, turningOn }: { plugin: Row; turningOn: boolean }) {
  const c = plugin.components
  const offered = c ? [...c.commands, ...c.skills.map((s) => `skill ${s}`), ...c.agents.map((a) => `agent ${a}`)] : []
  return (
    <>
      {plugin.runs.length > 0 ? (
        <>
          <p>{turningOn ? 'These start running:' : 'These stop running:'}</p>
          <ul className="plugin-runs">
            {plugin.runs.map((line) => (
              <li key={line} className="path small">{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>Nothing of it runs as a process (no hooks, MCP servers or bin/ programs).</p>
      )}
      {offered.length > 0 && <p>{turningOn ? 'Offered to sessions: ' : 'No longer offered to sessions: '}{offered.join(', ')}.</p>}
      {!turningOn && plugin.requiredBy !== undefined && plugin.requiredBy.length > 0 && <p>{plugin.requiredBy.join(', ')} {plugin.requiredBy.length === 1 ? 'depends on it and stays' : 'depend on it and stay'} on without it.</p>}
      {turningOn && plugin.runs.length > 0 && <p className="muted">Its hooks and servers run as you, with your permissions.</p>}
      <p className="muted">Seam keeps this switch in its home (as seam plugin {turningOn ? 'enable' : 'disable'} {plugin.id} does); your ~/.claude/settings.json is not changed.</p>
    </>
  )
}

function groupsOf(plugin: Row): ComponentGroup[] {
  const c = plugin.components
  if (!c) return []
  return [
    { label: ['command', 'commands'], names: c.commands },
    { label: ['agent', 'agents'], names: c.agents },
    { label: ['skill', 'skills'], names: c.skills },
    { label: ['hook', 'hooks'], names: c.hooks },
    { label: ['MCP server', 'MCP servers'], names: c.mcpServers },
    { label: ['channel', 'channels'], names: c.channels ?? [] },
    { label: ['bin/ program', 'bin/ programs'], names: c.bin },
    { label: ['output style', 'output styles'], names: c.outputStyles },
    { label: ['theme (Settings → Theme)', 'themes (Settings → Theme)'], names: c.themes ?? [] },
    { label: ['main-thread agent (settings.json)', 'main-thread agents (settings.json)'], names: c.settingsAgent !== undefined ? [c.settingsAgent] : [] },
    { label: ['subagent status line (settings.json)', 'subagent status lines (settings.json)'], names: c.subagentStatusLine !== undefined ? [c.subagentStatusLine] : [] },
    { label: ['LSP server', 'LSP servers'], names: c.lspServers },
    { label: ['monitor', 'monitors'], names: c.monitors },
    { label: ['dependency', 'dependencies'], names: c.dependencies ?? [] },
    { label: ['part not supported by Seam', 'parts not supported by Seam'], names: c.unsupported ?? [] }
  ]
}

function decidedText(plugin: Row): string {
  switch (plugin.decidedScope) {
    case 'seam':
      return 'set in Seam'
    case 'local':
    case 'project':
    case 'user':
      return `by ${plugin.decidedBy}`
    case 'plugin':
      return 'its defaultEnabled'
    case 'default':
      return 'on when installed'
  }
}

const ORIGIN_TEXT: Record<Row['origin'], string> = {
  marketplace: 'marketplace',
  local: 'local folder',
  project: 'project settings',
  user: 'user settings'
}

const STATE_TEXT: Record<Row['state'], string> = {
  enabled: 'enabled',
  disabled: 'disabled',
  'not-installed': 'not installed',
  broken: 'error',
  unapproved: 'pending trust',
  unconfigured: 'needs settings'
}

const STATE_CLASS: Record<Row['state'], string> = {
  enabled: 'active',
  disabled: 'disabled',
  'not-installed': 'waiting',
  broken: 'failed',
  unapproved: 'waiting',
  unconfigured: 'waiting'
}
