// The notifications settings: desktop notifications on or off, and the idle time of Claude Code's
// `idle_prompt`. A draft of the Notifications section, saved with its Save bar (in web mode,
// turning them on asks the browser's permission, from that Save click).
import { useState } from 'react'
import type { Settings } from '../../src-shared/contract/ipc'
import { fieldErrorOf } from '../app/errors'
import { useDraftPart } from '../settings/section-form'
import { useSettingsDraft } from '../settings/settings-draft'
import { browserNotifications, requestNotificationPermission, setNotificationSetting } from './web-notifications'

const IDLE_LABEL = 'Idle prompt after (seconds)'
const LABELS = { desktopNotifications: 'Desktop notifications', idlePromptSeconds: IDLE_LABEL }
type Values = { on: boolean; idle: string }

const notificationValues = (settings: Settings): Values => ({ on: settings.desktopNotifications, idle: String(settings.idlePromptSeconds) })

export function NotificationsForm() {
  const { host, saved, draft: values, setDraft: setValues, keep, error, setError } = useSettingsDraft(notificationValues)
  const [note, setNote] = useState<string | null>(null)

  const dirty = saved !== null && values !== null && (saved.on !== values.on || saved.idle !== values.idle)
  const save = async (): Promise<boolean> => {
    if (!values || !saved) return true
    setError(null)
    setNote(null)
    try {
      if (values.on && !saved.on && host.transport === 'web') {
        const permission = await requestNotificationPermission()
        if (permission === 'unsupported') setNote('This browser has no desktop notifications.')
        else if (permission === 'denied') setNote('The browser blocks notifications for this page: allow them in its site settings.')
      }
      const next = await host.invoke('settings/set', { desktopNotifications: values.on, idlePromptSeconds: Number(values.idle) })
      setNotificationSetting(next.desktopNotifications)
      keep(notificationValues(next))
      return true
    } catch (e) {
      setError(fieldErrorOf(e, LABELS))
      return false
    }
  }
  useDraftPart({ dirty, save, discard: () => saved && setValues(saved) })

  if (values === null) return error ? <p className="form-error" role="alert">{error.text}</p> : <p className="muted">Loading…</p>

  const blocked = host.transport === 'web' && browserNotifications()?.permission === 'denied'
  return (
    <div className="notifications-form">
      <label className="field inline">
        <input type="checkbox" checked={values.on} onChange={(e) => setValues({ ...values, on: e.target.checked })} />
        <span>Desktop notifications when Seam needs you and its window is not focused (an approval waiting, a turn finished or failed)</span>
      </label>
      {values.on && blocked && <p className="muted small">The browser blocks notifications for this page.</p>}
      <label className="field inline">
        <span className="field-label">{IDLE_LABEL}</span>
        <input
          type="number"
          min={1}
          max={86400}
          step={1}
          value={values.idle}
          aria-invalid={error?.field === 'idlePromptSeconds' ? true : undefined}
          onChange={(e) => setValues({ ...values, idle: e.target.value })}
        />
      </label>
      <p className="muted small">Claude Code&apos;s Notification hooks get <code>idle_prompt</code> when a turn has ended and nothing was sent for this long.</p>
      {note && <p className="muted" role="status">{note}</p>}
      {error && <p className="form-error" role="alert">{error.text}</p>}
    </div>
  )
}
