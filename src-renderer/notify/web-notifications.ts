// Desktop notifications in web mode: the browser's Notification API, when Seam needs the user
// and its page does not have the focus (src-shared/attention.ts decides; one per moment). The
// desktop app notifies from its main process instead, so this stays off there. Permission is
// asked only from a user gesture (the settings toggle, `requestNotificationPermission`).
import type { HostApi } from '../../src-shared/contract/ipc'
import { AttentionGate, sessionLabel } from '../../src-shared/attention'
import { useSessionsStore } from '../sessions/sessions-store'

let settingOn = false

/** The user's `desktopNotifications` setting as last read or saved. */
export function setNotificationSetting(on: boolean): void {
  settingOn = on
}

export function browserNotifications(): typeof Notification | undefined {
  return typeof Notification === 'function' ? Notification : undefined
}

/** Asks the browser for permission (call from a click or key press); resolves to the answer. */
export async function requestNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  const api = browserNotifications()
  if (!api) return 'unsupported'
  if (api.permission !== 'default') return api.permission
  return api.requestPermission()
}

export function installWebNotifications(host: HostApi, focusSession: (sessionId: string) => void): () => void {
  if (host.transport === 'electron') return () => {}
  const gate = new AttentionGate({
    enabled: () => settingOn && browserNotifications()?.permission === 'granted',
    focused: () => document.hasFocus(),
    sessionName: (sessionId) => {
      const summary = useSessionsStore.getState().list.find((s) => s.id === sessionId)
      return sessionLabel(sessionId, summary?.title, summary?.worktree?.branch || undefined)
    },
    show: (notice) => {
      const api = browserNotifications()!
      const note = new api(notice.title, { body: notice.body, tag: notice.key })
      note.onclick = () => {
        window.focus()
        focusSession(notice.sessionId)
        note.close()
      }
    }
  })
  host.invoke('settings/get', {}).then(
    (settings) => setNotificationSetting(settings.desktopNotifications),
    () => undefined // Stays off until the settings can be read.
  )
  const offs = [
    host.on('session/appended', ({ sessionId, event }) => void gate.event(sessionId, event)),
    // A subagent's approval is recorded in its own log: it asks the user all the same.
    host.on('subagent/appended', ({ sessionId, event }) => void gate.subagentEvent(sessionId, event))
  ]
  return () => offs.forEach((off) => off())
}
