// Desktop notifications in the desktop app: Electron's main-process Notification when Seam needs
// the user and its window is not focused (src-shared/attention.ts decides). Clicking one brings
// the window forward and asks the page to show that session (`app/focus-session`).
import { Notification, type BrowserWindow } from 'electron'
import { AttentionGate, type AttentionNotice } from '../../src-shared/attention'
import type { SessionEvent } from '../../src-shared/session/events'
import type { PushPayload } from '../../src-shared/contract/ipc'

export interface DesktopNotificationsOptions {
  /** Every event appended to any open session (the session hub's onAppended). */
  onAppended(listener: (sessionId: string, event: SessionEvent) => void): () => void
  /** Every event a running subagent records (`sessionId`: its parent): its approvals notify too. */
  onSubagentAppended?(listener: (sessionId: string, event: SessionEvent) => void): () => void
  /** The setting `desktopNotifications`, read at each moment. */
  enabled(): boolean
  window(): BrowserWindow | null
  /** Opens a new app window (the user closed it since the notification was shown). */
  openWindow(): BrowserWindow
  focusSession(payload: PushPayload<'app/focus-session'>): void
  /** Names the session a notice is about (its title, a worktree session's branch). */
  sessionName?(sessionId: string): string | undefined
}

export function installDesktopNotifications(options: DesktopNotificationsOptions): () => void {
  // Held until clicked or closed: a notification that is garbage-collected loses its click handler.
  const live = new Set<Notification>()
  const gate = new AttentionGate({
    enabled: () => options.enabled() && Notification.isSupported(),
    focused: () => {
      const window = options.window()
      return window !== null && !window.isDestroyed() && window.isFocused()
    },
    show: (notice) => show(notice),
    ...(options.sessionName ? { sessionName: options.sessionName } : {})
  })
  function show(notice: AttentionNotice): void {
    const note = new Notification({ title: notice.title, body: notice.body })
    live.add(note)
    note.on('click', () => {
      live.delete(note)
      const window = options.window()
      if (window && !window.isDestroyed()) {
        if (window.isMinimized()) window.restore()
        window.show()
        window.focus()
        options.focusSession({ sessionId: notice.sessionId })
        return
      }
      // The window was closed (macOS keeps the app running without one): open it, and show the
      // session once its page is there to hear the push.
      const opened = options.openWindow()
      opened.webContents.once('did-finish-load', () => options.focusSession({ sessionId: notice.sessionId }))
    })
    note.on('close', () => live.delete(note))
    note.show()
  }
  const off = options.onAppended((sessionId, event) => gate.event(sessionId, event))
  const offSubagents = options.onSubagentAppended?.((sessionId, event) => gate.subagentEvent(sessionId, event))
  return () => {
    off()
    offSubagents?.()
    for (const note of live) note.close()
    live.clear()
  }
}
