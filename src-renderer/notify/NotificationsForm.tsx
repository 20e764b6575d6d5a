// The notifications settings: desktop notifications on or off (in web mode, turning them on asks
// the browser's permission, from this click), and the idle time of Claude Code's `idle_prompt`.
import { useEffect, useState } from 'react'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { browserNotifications, requestNotificationPermission, setNotificationSetting } from './web-notifications'

export function NotificationsForm() {
  const host = useHost()
  const [on, setOn] = useState<boolean | null>(null)
  const [idle, setIdle] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    host.invoke('settings/get', {}).then(
      (settings) => {
        if (!live) return
        setOn(settings.desktopNotifications)
        setIdle(String(settings.idlePromptSeconds))
      },
      (e: unknown) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [host])

  if (on === null) return error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>

  const toggle = async (next: boolean) => {
    setError(null)
    setNote(null)
    // Shown at once; put back if saving fails.
    setOn(next)
    try {
      if (next && host.transport === 'web') {
        const permission = await requestNotificationPermission()
        if (permission === 'unsupported') setNote('This browser has no desktop notifications.')
        else if (permission === 'denied') setNote('The browser blocks notifications for this page: allow them in its site settings.')
      }
      const saved = await host.invoke('settings/set', { desktopNotifications: next })
      setOn(saved.desktopNotifications)
      setNotificationSetting(saved.desktopNotifications)
    } catch (e) {
      setOn(!next)
      setError(errorText(e))
    }
  }

  const saveIdle = async () => {
    setError(null)
    try {
      const saved = await host.invoke('settings/set', { idlePromptSeconds: Number(idle) })
      setIdle(String(saved.idlePromptSeconds))
      setNote('Idle time saved.')
    } catch (e) {
      setError(errorText(e))
    }
  }

  const blocked = host.transport === 'web' && browserNotifications()?.permission === 'denied'
  return (
    <div className="notifications-form">
      <label className="field inline">
        <input type="checkbox" checked={on} onChange={(e) => void toggle(e.target.checked)} />
        <span>Desktop notifications when Seam needs you and its window is not focused (an approval waiting, a turn finished or failed)</span>
      </label>
      {on && blocked && <p className="muted small">The browser blocks notifications for this page.</p>}
      <label className="field inline">
        <span className="field-label">Idle prompt after (seconds)</span>
        <input type="number" min={1} max={86400} step={1} value={idle} onChange={(e) => setIdle(e.target.value)} />
        <button type="button" onClick={() => void saveIdle()}>Save</button>
      </label>
      <p className="muted small">Claude Code&apos;s Notification hooks get <code>idle_prompt</code> when a turn has ended and nothing was sent for this long.</p>
      {note && <p className="muted" role="status">{note}</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
