// The `/` menu of the message box: while the text is `/` plus a partial command name, the host's
// commands (commands/list: built-ins, user, project, Codex) are listed, filtered as you type, with
// their argument hints and descriptions. Up/Down move, Enter or Tab or a click choose (Enter on a
// built-in that takes nothing runs it), Esc closes. The message box stays focused and points at
// the highlighted option (aria-activedescendant), as a listbox popup should.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactElement } from 'react'
import type { CommandInfo, CommandList } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

/** The partial command name when the whole text is `/name` being typed (no space yet), else undefined. */
export function slashQuery(text: string): string | undefined {
  const match = /^\/([^\s/]*)$/.exec(text)
  return match ? match[1] : undefined
}

/** Commands whose name contains the query, those starting with it first. */
export function filterCommands(commands: readonly CommandInfo[], query: string): CommandInfo[] {
  const q = query.toLowerCase()
  commands = commands.filter((c) => c.userInvocable !== false)
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q))
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q))
  return [...starts, ...contains]
}

export interface SlashMenuState {
  /** Attributes for the message box (it owns the focus while the menu is open). */
  inputProps: { 'aria-autocomplete': 'list'; 'aria-controls'?: string; 'aria-activedescendant'?: string }
  /** Handles the menu's keys; true when the key was the menu's (the composer must not act on it). */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean
  menu: ReactElement | null
}

export function useSlashMenu(options: {
  text: string
  sessionId: string | null
  /** Replaces the draft (a chosen command that takes arguments). */
  insert(text: string): void
  /** Sends a command at once (a built-in that takes nothing). */
  run(text: string): void
}): SlashMenuState {
  const host = useHost()
  const listId = useId()
  const query = slashQuery(options.text)
  const [list, setList] = useState<CommandList | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState(false)
  const open = query !== undefined && !dismissed
  const requested = useRef(false)

  // Read again each time the menu opens: command files can change between uses.
  useEffect(() => {
    if (!open) {
      requested.current = false
      return
    }
    if (requested.current) return
    requested.current = true
    let live = true
    host.invoke('commands/list', options.sessionId ? { sessionId: options.sessionId } : {}).then(
      (reply) => live && (setList(reply), setError(null)),
      (e: unknown) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [open, host, options.sessionId])
  useEffect(() => setActive(0), [query])
  useEffect(() => {
    if (query === undefined) setDismissed(false)
  }, [query])

  const matches = open && list ? filterCommands(list.commands, query) : []
  const optionId = (index: number) => `${listId}-option-${index}`
  const choose = (command: CommandInfo, how: 'enter' | 'tab' | 'click') => {
    if (how !== 'tab' && command.source === 'builtin' && command.runsWithoutArguments) options.run(`/${command.name}`)
    else options.insert(`/${command.name} `)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || matches.length === 0 || event.nativeEvent.isComposing) return false
    const current = matches[Math.min(active, matches.length - 1)]
    switch (event.key) {
      case 'ArrowDown':
        setActive((i) => (i + 1) % matches.length)
        break
      case 'ArrowUp':
        setActive((i) => (i - 1 + matches.length) % matches.length)
        break
      case 'Enter':
        if (event.shiftKey) return false
        choose(current, 'enter')
        break
      case 'Tab':
        if (event.shiftKey) return false
        choose(current, 'tab')
        break
      case 'Escape':
        setDismissed(true)
        break
      default:
        return false
    }
    event.preventDefault()
    return true
  }

  const shown = open && (matches.length > 0 || error !== null || (list !== null && list.problems.length > 0))
  const activeIndex = Math.min(active, matches.length - 1)
  const menu = shown ? (
    <div className="slash-menu">
      {matches.length > 0 && (
        <ul id={listId} role="listbox" aria-label="Slash commands">
          {matches.map((command, index) => (
            <li
              key={command.name}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={index === activeIndex ? 'slash-option active' : 'slash-option'}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(command, 'click')}
              onMouseEnter={() => setActive(index)}
            >
              <span className="slash-name">/{command.name}</span>
              {command.argumentHint && <span className="slash-hint"> {command.argumentHint}</span>}
              <span className="slash-description"> {command.description}</span>
              {command.source !== 'builtin' && <span className="slash-source"> ({command.source === 'plugin' ? `${command.kind ?? 'plugin'}: ${command.origin ?? ''}` : command.source})</span>}
            </li>
          ))}
        </ul>
      )}
      {error && <p className="form-error small">Commands could not be listed: {error}</p>}
      {list?.problems.map((problem) => (
        <p key={problem.file} className="slash-problem small">
          /{problem.name} is broken: {problem.file}: {problem.message}
        </p>
      ))}
    </div>
  ) : null

  return {
    inputProps: {
      'aria-autocomplete': 'list',
      ...(matches.length > 0 && shown ? { 'aria-controls': listId, 'aria-activedescendant': optionId(activeIndex) } : {})
    },
    onKeyDown,
    menu
  }
}
