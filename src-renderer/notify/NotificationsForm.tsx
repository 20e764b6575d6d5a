// The notifications settings: desktop notifications on or off, and the idle time of Claude Code's
// `idle_prompt`. A draft of the Notifications section, saved with its Save bar (in web mode,
// turning them on asks the browser's permission, from that Save click).
import { useEffect, useState } from 'react'
import { errorText, fieldErrorOf } from '../app/errors'
import { useHost } from '../app/host-context'
import { useDraftPart } from '../settings/section-form'
import { browserNotifications, requestNotificationPermission, setNotificationSetting } from './web-notifications'

const IDLE_LABEL = 'Idle prompt after (seconds)'
const LABELS = { desktopNotifications: 'Desktop notifications', idlePromptSeconds: IDLE_LABEL }
type Values = { on: boolean; idle: string }

export function NotificationsForm() {
  const host = useHost()
  const [saved, setSaved] = useState<Values | null>(null)
  const [values, setValues] = useState<Values | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const [error, setError] = useState<{ field: string | undefined; text: string } | null>(null)

  useEffect(() => {
    let live = true
    host.invoke('settings/get', {}).then(
      (settings) => {
        if (!live) return
        const loaded = { on: settings.desktopNotifications, idle: String(settings.idlePromptSeconds) }
        setSaved(loaded)
        setValues(loaded)
      },
      (e: unknown) => live && setError({ field: undefined, text: errorText(e) })
    )
    return () => {
      live = false
    }
  }, [host])

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
      const loaded = { on: next.desktopNotifications, idle: String(next.idlePromptSeconds) }
      setSaved(loaded)
      setValues(loaded)
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
