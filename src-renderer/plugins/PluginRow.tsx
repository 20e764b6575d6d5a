// One installed plugin: state (with the missing services or the error), parts, and actions.
import { useState } from 'react'
import type { PluginInfo } from '../../src-shared/contract/ipc'
import { isSafetyEntry } from '../../src-shared/host/safety-entries'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { SafetyConfirm } from '../app/SafetyConfirm'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useClientPluginsStore } from './client-runtime'
import { pluginsActions } from './plugins-store'

export function PluginRow({ plugin }: { plugin: PluginInfo }) {
  const host = useHost()
  const client = useClientPluginsStore((state) => state.plugins[plugin.name])
  const [error, setError] = useState<string | null>(null)
  const [removing, setRemoving] = useState(false)
  const [disabling, setDisabling] = useState(false)
  const enabled = plugin.state !== 'disabled'
  const parts = [plugin.parts.host && 'host', plugin.parts.client && 'client'].filter(Boolean).join(' + ') || '—'

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
      <td>{parts}</td>
      <td className="plugin-actions">
        {enabled ? (
          <button type="button" aria-label={`Disable ${plugin.name}`} onClick={() => (plugin.kind === 'builtin' && isSafetyEntry(plugin.name) ? setDisabling(true) : void act('plugins/disable').catch(() => undefined))}>Disable</button>
        ) : (
          <button type="button" aria-label={`Enable ${plugin.name}`} onClick={() => void act('plugins/enable').catch(() => undefined)}>Enable</button>
        )}
        {plugin.kind === 'bundle' && (
          <button type="button" className="danger" aria-label={`Remove ${plugin.name}`} onClick={() => setRemoving(true)}>Remove</button>
        )}
        {disabling && <SafetyConfirm id={plugin.name} onConfirm={() => act('plugins/disable')} onClose={() => setDisabling(false)} />}
        {removing && (
          <ConfirmDialog label="Remove plugin?" confirm="Remove" danger onConfirm={() => act('plugins/remove')} onClose={() => setRemoving(false)}>
            <p>Remove {plugin.name}{plugin.version ? ` ${plugin.version}` : ''}? Its files are deleted from the Seam home.</p>
          </ConfirmDialog>
        )}
      </td>
    </tr>
  )
}

const STATE_TEXT: Record<PluginInfo['state'], string> = {
  active: 'active',
  waiting: 'waiting for a service',
  failed: 'failed',
  disabled: 'disabled',
  disposed: 'stopped'
}
