// The command palette (Ctrl/Cmd+K): every app action and every session, filtered as you type
// (cmdk), Enter runs the highlighted one. Global shortcuts: Esc stops the running turn when no
// dialog is open; Ctrl/Cmd+Shift+O new session, Ctrl/Cmd+L message box, Ctrl/Cmd+, settings.
import { Command } from 'cmdk'
import { useEffect, useState } from 'react'
import { useApprovalStore } from '../approval/approval-store'
import { startNewSession, useSessionsStore } from '../sessions/sessions-store'
import { appCommands, focusComposer, moveRunningCommandToBackground, stopRunningTurn, type AppCommand } from './commands'
import { appActions } from './app-store'
import { useHost } from './host-context'

export function CommandPalette() {
  const host = useHost()
  const [open, setOpen] = useState(false)
  const [commands, setCommands] = useState<AppCommand[]>([])
  // The session list can change while the palette is open (a title arrives when a turn ends).
  const sessions = useSessionsStore((state) => state.list)
  useEffect(() => {
    if (open) setCommands(appCommands())
  }, [open, sessions])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey
      const key = event.key.toLowerCase()
      if (mod && !event.shiftKey && key === 'k') {
        event.preventDefault()
        setCommands(appCommands())
        setOpen((was) => !was)
        return
      }
      if (event.key === 'Escape' && !event.defaultPrevented && !open && !dialogOpen()) {
        if (stopRunningTurn(host)) event.preventDefault()
        return
      }
      // Ctrl+B (not Cmd+B), as in Claude Code: the running foreground command goes to the background.
      if (event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey && key === 'b' && !open && !dialogOpen()) {
        if (moveRunningCommandToBackground(host)) event.preventDefault()
        return
      }
      if (!mod || dialogOpen() || open) return
      if (event.shiftKey && key === 'o') startNewSession()
      else if (!event.shiftKey && key === 'l') focusComposer()
      else if (!event.shiftKey && event.key === ',') appActions.showPage('settings')
      else return
      event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [host, open])

  const run = (command: AppCommand) => {
    setOpen(false)
    void command.run(host)
  }
  const groups = ['Actions', 'Go to', 'Sessions'] as const
  return (
    <Command.Dialog open={open} onOpenChange={setOpen} label="Command palette" className="palette" overlayClassName="palette-overlay" contentClassName="palette-content">
      <Command.Input placeholder="Type a command or a session title…" aria-label="Command" />
      <Command.List>
        <Command.Empty>No command matches.</Command.Empty>
        {groups.map((group) => {
          const items = commands.filter((c) => c.group === group)
          if (items.length === 0) return null
          return (
            <Command.Group key={group} heading={group}>
              {items.map((command) => (
                <Command.Item key={command.id} value={command.label} onSelect={() => run(command)}>
                  <span>{command.label}</span>
                  {command.shortcut && <kbd>{command.shortcut}</kbd>}
                </Command.Item>
              ))}
            </Command.Group>
          )
        })}
      </Command.List>
    </Command.Dialog>
  )
}

/** A modal (approval, confirm, trust, the palette) has the keyboard: global keys leave it alone. */
function dialogOpen(): boolean {
  return useApprovalStore.getState().queue.length > 0 || document.querySelector('[role="dialog"], dialog[open]') !== null
}
