// Every app action the keyboard reaches: the command palette lists them, shortcuts run some.
import type { HostApi } from '../../src-shared/contract/ipc'
import { newWorktreeDialog } from '../board/new-worktree'
import { composerActions } from '../composer/composer-store'
import { SETTINGS_SECTIONS } from '../settings/sections'
import { sessionsActions, startNewSession, useSessionsStore } from '../sessions/sessions-store'
import { tasksPanelActions } from '../tasks/tasks-panel-store'
import { useSessionStore } from '../transcript/session-store'
import { appActions, useAppStore } from './app-store'

export interface AppCommand {
  id: string
  label: string
  /** Shown beside the label, e.g. "Ctrl+K". */
  shortcut?: string
  group: 'Actions' | 'Go to' | 'Sessions'
  run(host: HostApi): void | Promise<void>
}

const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+'

/** Stops the open session's running turn; false when none runs. */
export function stopRunningTurn(host: HostApi): boolean {
  const { sessionId, agent } = useSessionStore.getState()
  if (!sessionId || !agent?.running) return false
  void host.invoke('chat/cancel', { sessionId }).catch(() => {})
  return true
}

/** Ctrl+B: moves the open session's running foreground Bash to the background; false when no turn runs. */
export function moveRunningCommandToBackground(host: HostApi): boolean {
  const { sessionId, agent } = useSessionStore.getState()
  if (!sessionId || !agent?.running) return false
  void host.invoke('tasks/background', { sessionId }).catch(() => {})
  return true
}

export function appCommands(): AppCommand[] {
  const inspectorOpen = useAppStore.getState().inspector.open
  const running = useSessionStore.getState().agent?.running ?? false
  const commands: AppCommand[] = [
    { id: 'new-session', label: 'New session', shortcut: `${MOD}Shift+O`, group: 'Actions', run: () => startNewSession() },
    { id: 'new-worktree-session', label: 'Start a worktree session…', group: 'Actions', run: () => newWorktreeDialog.open() },
    { id: 'focus-composer', label: 'Focus the message box', shortcut: `${MOD}L`, group: 'Actions', run: () => focusComposer() },
    ...(running ? [{ id: 'stop', label: 'Stop the running turn', shortcut: 'Esc', group: 'Actions' as const, run: (host: HostApi) => void stopRunningTurn(host) }] : []),
    // Claude Code's key on every platform (Cmd+B is bold elsewhere on a Mac).
    ...(running ? [{ id: 'background', label: 'Move the running command to the background', shortcut: 'Ctrl+B', group: 'Actions' as const, run: (host: HostApi) => void moveRunningCommandToBackground(host) }] : []),
    { id: 'chat', label: 'Chat', group: 'Go to', run: () => appActions.showPage('chat') },
    { id: 'tasks', label: 'Background tasks', group: 'Go to', run: () => (appActions.showPage('chat'), tasksPanelActions.show()) },
    { id: 'settings', label: 'Settings', shortcut: `${MOD},`, group: 'Go to', run: () => appActions.showPage('settings') },
    // Each settings section is a place of its own (deep links into Settings).
    ...SETTINGS_SECTIONS.map((section) => ({ id: `settings:${section.id}`, label: `Settings: ${section.title}`, group: 'Go to' as const, run: () => appActions.openSettings(section.id) })),
    { id: 'plugins', label: 'Plugins', group: 'Go to', run: () => appActions.showPage('plugins') },
    { id: 'hooks', label: inspectorOpen ? 'Close the hook inspector' : 'Open the hook inspector', group: 'Go to', run: () => (inspectorOpen ? appActions.closeInspector() : appActions.openInspector()) }
  ]
  for (const session of useSessionsStore.getState().list) {
    const title = session.title || 'New session'
    commands.push({ id: `open:${session.id}`, label: `Open session: ${title}`, group: 'Sessions', run: (host) => {
      appActions.showPage('chat')
      void sessionsActions.open(host, session.id)
    } })
  }
  return commands
}

export function focusComposer(): void {
  appActions.showPage('chat')
  composerActions.focus()
}
