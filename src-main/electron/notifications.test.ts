// Desktop notifications in the desktop app, at the Electron edge (fake-electron stands in for
// Electron's Notification and BrowserWindow): shown only while the window is not focused and
// the setting is on, one per moment; a click brings the window forward and shows the session.
import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import type { BrowserWindow as ElectronWindow } from 'electron'
import type { SessionEvent } from '../../src-shared/session/events'
import { BrowserWindow, Notification } from './fake-electron'
import { installDesktopNotifications } from './notifications'

const asked: SessionEvent = {
  type: 'approval/asked', seq: 3, ts: 1, turnId: 'turn-1', requestId: 'r1', token: 't', tool: 'Write', args: {}, reason: 'Write changes files',
  scope: { tool: 'Write', pattern: {}, description: 'Write' }
}
const finished: SessionEvent = { type: 'turn/end', seq: 8, ts: 2, turnId: 'turn-1', reason: 'completed' }

function setup(enabled = { value: true }) {
  let emit: (sessionId: string, event: SessionEvent) => void = () => {}
  let window = new BrowserWindow({})
  const focused: string[] = []
  const stop = installDesktopNotifications({
    onAppended: (listener) => ((emit = listener), () => (emit = () => {})),
    enabled: () => enabled.value,
    window: () => (window.isDestroyed() ? null : (window as unknown as ElectronWindow)),
    openWindow: () => {
      window = new BrowserWindow({})
      return window as unknown as ElectronWindow
    },
    focusSession: ({ sessionId }) => focused.push(sessionId)
  })
  return { window, current: () => window, focused, stop, emit: (id: string, e: SessionEvent) => emit(id, e) }
}

describe('desktop notifications (Electron main process)', () => {
  it('shows an approval and a finished turn while the window is not focused, and nothing while it is', () => {
    Notification.shown = []
    const { window, emit, stop } = setup()
    window.focused = true
    emit('s1', asked)
    expect(Notification.shown).toEqual([])
    window.focused = false
    emit('s1', finished)
    emit('s1', finished)
    expect(Notification.shown.map((n) => n.options)).toEqual([{ title: 'Seam finished', body: 'The turn is done: your reply is waiting.' }])
    stop()
  })

  it('a click restores and focuses the window and asks the page to show that session', () => {
    Notification.shown = []
    const { window, emit, focused, stop } = setup()
    window.minimized = true
    emit('s7', asked)
    expect(Notification.shown).toHaveLength(1)
    expect(Notification.shown[0]!.options.title).toBe('Seam needs your approval: Write')
    Notification.shown[0]!.click()
    expect(window.isMinimized()).toBe(false)
    expect(window.isFocused()).toBe(true)
    expect(focused).toEqual(['s7'])
    stop()
  })

  it('shows nothing when the setting is off or the platform has no notifications', () => {
    Notification.shown = []
    const enabled = { value: false }
    const { emit, stop } = setup(enabled)
    emit('s1', asked)
    enabled.value = true
    Notification.supported = false
    emit('s1', finished)
    Notification.supported = true
    expect(Notification.shown).toEqual([])
    stop()
  })

  it('a click after the window was closed opens a new one and shows the session once its page has loaded (issue 30)', () => {
    Notification.shown = []
    const { window, current, emit, focused, stop } = setup()
    emit('s9', asked)
    window.close()
    Notification.shown[0]!.click()
    const reopened = current()
    expect(reopened).not.toBe(window)
    expect(reopened.isDestroyed()).toBe(false)
    expect(focused).toEqual([])
    reopened.webContents.finishLoad('seam://app/index.html')
    expect(focused).toEqual(['s9'])
    stop()
  })
})
