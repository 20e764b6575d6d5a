// The form of a Claude Code plugin's userConfig (plugin.json): one field per option, typed as the
// option says. A sensitive option's value never comes to the window: its field is a password
// input that says whether a value is set, and left empty it keeps the stored one. Saving sends
// only what changed (claudePlugins/configure); the host's refusal names the field.
import { useState } from 'react'
import type { ClaudePluginConfigField, ClaudePluginRow } from '../../../src-shared/contract/claude-plugins'
import { errorText } from '../../app/errors'
import { Modal } from '../../app/Modal'

export interface PluginConfigDialogProps {
  plugin: ClaudePluginRow
  onSave(values: Record<string, string | number | boolean | null>): Promise<void>
  onClose(): void
}

export function PluginConfigDialog({ plugin, onSave, onClose }: PluginConfigDialogProps) {
  const [draft, setDraft] = useState<Record<string, string | boolean>>(() => Object.fromEntries(plugin.userConfig.map((field) => [field.key, initial(field)])))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const save = async () => {
    const changes: Record<string, string | number | boolean | null> = {}
    for (const field of plugin.userConfig) {
      const value = draft[field.key]
      if (field.sensitive && value === '') continue
      if (value === initial(field)) continue
      changes[field.key] = value === '' ? null : value
    }
    setBusy(true)
    setError(null)
    try {
      await onSave(changes)
      onClose()
    } catch (e) {
      setError(errorText(e))
      setBusy(false)
    }
  }
  return (
    <Modal label={`Settings of ${plugin.id}`} onCancel={onClose} focusFirst>
      <form
        className="modal-body plugin-config-form"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <p className="muted small">Kept in Seam&apos;s home for this plugin only (a file only you can read); the plugin gets them as {'${user_config.KEY}'}.</p>
        {plugin.userConfig.map((field) => (
          <ConfigField key={field.key} field={field} value={draft[field.key] ?? ''} onChange={(value) => setDraft((d) => ({ ...d, [field.key]: value }))} />
        ))}
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit" className="primary" disabled={busy}>Save settings</button>
        </div>
      </form>
    </Modal>
  )
}

function ConfigField({ field, value, onChange }: { field: ClaudePluginConfigField; value: string | boolean; onChange(value: string | boolean): void }) {
  const id = `plugin-config-${field.key}`
  const label = `${field.title ?? field.key}${field.required ? ' (required)' : ''}`
  if (field.type === 'boolean') {
    return (
      <div className="form-row">
        <label htmlFor={id}>
          <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} /> {label}
        </label>
        {field.description && <div className="small muted">{field.description}</div>}
      </div>
    )
  }
  return (
    <div className="form-row">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={field.sensitive ? 'password' : field.type === 'number' ? 'number' : 'text'}
        value={typeof value === 'string' ? value : ''}
        autoComplete="off"
        {...(field.sensitive ? { placeholder: field.set ? 'set (leave empty to keep it)' : 'not set' } : {})}
        onChange={(event) => onChange(event.target.value)}
      />
      {field.description && <div className="small muted">{field.description}</div>}
    </div>
  )
}

function initial(field: ClaudePluginConfigField): string | boolean {
  if (field.type === 'boolean') return field.value === true
  if (field.sensitive || field.value === undefined) return ''
  return String(field.value)
}
