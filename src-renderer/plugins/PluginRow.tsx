// One installed Seam plugin (built-in or bundle): state (with the missing services or the error),
// its parts and tools, the on/off switch (its confirmation names what starts or stops), Remove.
import { useState } from 'react'
import type { PluginInfo } from '../../src-shared/contract/ipc'
import { isSafetyEntry, SAFETY_ENTRIES } from '../../src-shared/host/safety-entries'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useClientPluginsStore } from './client-runtime'
import { ComponentCounts } from './manager/ComponentCounts'
import { PluginSwitch } from './manager/PluginSwitch'
import { pluginsActions, usePluginsStore } from './plugins-store'

export function PluginRow({ plugin }: { plugin: PluginInfo }) {
  const host = useHost()
  const client = useClientPluginsStore((state) => state.plugins[plugin.name])
  const tools = usePluginsStore((state) => state.tools[plugin.id])
  const [error, setError] = useState<string | null>(null)
  const [removing, setRemoving] = useState(false)
  const enabled = plugin.state !== 'disabled'
  const parts = [plugin.parts.host && 'host', plugin.parts.client && 'client'].filter(Boolean).join(' + ') || '—'
  const safety = plugin.kind === 'builtin' && isSafetyEntry(plugin.name) ? SAFETY_ENTRIES[plugin.name] : undefined

  const act = async (action: 'plugins/enable' | 'plugins/disable' | 'plugins/remove') => {
    setError(null)
    try {
      await host.invoke(action, { name: plugin.name })
      await pluginsActions.refresh(host)
    } catch (e) {
      setError(errorText(e))
      throw e
    }
  }

  return (
    <tr className={`plugin-row state-${plugin.state}`} aria-label={plugin.name}>
      <td>
        <strong>{plugin.name}</strong>
        {plugin.kind === 'builtin' && <span className="muted small"> built-in</span>}
        {plugin.dev && <span className="badge plugin-dev" title="loaded from its folder by seam plugin dev, over an installed bundle of the same name"> dev</span>}
      </td>
      <td>{plugin.version ?? '—'}</td>
      <td className="path small" title={plugin.source}>{plugin.source}</td>
      <td>
        <span className={`badge plugin-${plugin.state}`}>{STATE_TEXT[plugin.state]}</span>
        {plugin.state === 'waiting' && plugin.missing.length > 0 && <div className="small muted">missing: {plugin.missing.join(', ')}</div>}
        {plugin.error && <div className="small form-error">{plugin.error}</div>}
        {client?.state === 'failed' && <div className="small form-error">client part failed: {client.error}</div>}
        {client?.replacementError && <div className="small form-error">new client build not loaded (the previous one runs): {client.replacementError}</div>}
        {error && <div className="small form-error" role="alert">{error}</div>}
      </td>
      <td>
        <div>{parts}</div>
        {tools && tools.length > 0 && <ComponentCounts plugin={plugin.name} groups={[{ label: ['tool', 'tools'], names: tools }]} />}
      </td>
      <td className="plugin-actions">
        <PluginSwitch
          name={plugin.name}
          on={enabled}
          consequence={(turningOn) => <SeamConsequence plugin={plugin} parts={parts} tools={tools ?? []} turningOn={turningOn} safety={safety?.consequence} />}
          onChange={(on) => act(on ? 'plugins/enable' : 'plugins/disable')}
        />
        {plugin.kind === 'bundle' && (
          <button type="button" className="danger" aria-label={`Remove ${plugin.name}`} onClick={() => setRemoving(true)}>Remove</button>
        )}
        {removing && (
          <ConfirmDialog label="Remove plugin?" confirm="Remove" danger onConfirm={() => act('plugins/remove')} onClose={() => setRemoving(false)}>
            <p>Remove {plugin.name}{plugin.version ? ` ${plugin.version}` : ''}? Its files are deleted from the Seam home.</p>
          </ConfirmDialog>
        )}
      </td>
    </tr>
  )
}

function SeamConsequence({ plugin, parts, tools, turningOn, safety }: { plugin: PluginInfo; parts: string; tools: readonly string[]; turningOn: boolean; safety: string | undefined }) {
  const what = plugin.kind === 'builtin' ? `the built-in entry ${plugin.name}` : `the bundle ${plugin.name}${plugin.version ? ` ${plugin.version}` : ''} (${parts})`
  return (
    <>
      {!turningOn && safety && <p className="safety-consequence">{safety}</p>}
      <p>
        {turningOn ? 'Starts ' : 'Stops '}
        {what}
        {tools.length > 0 ? `${turningOn ? '' : ' and removes its tools'}: ${tools.join(', ')}` : ''}.
      </p>
      {plugin.parts.client && <p>{turningOn ? 'Its panels and result views appear.' : 'Its panels and result views disappear at once.'}</p>}
      {turningOn && plugin.kind === 'bundle' && <p className="muted">Its host part runs as trusted code in the Seam main process, with your permissions.</p>}
      {!turningOn && safety && <p className="muted">The header shows a warning while it is off; switch it back on here at any time.</p>}
    </>
  )
}

const STATE_TEXT: Record<PluginInfo['state'], string> = {
  active: 'active',
  waiting: 'waiting for a service',
  failed: 'failed',
  disabled: 'disabled',
  disposed: 'stopped'
}
