// The composer's `@` file picker: typing `@` (at the start or after a space) opens a listbox of the
// workspace's files (`files/search`: fuzzy, ignore files honoured) that filters as you type. Up and
// Down move, Enter or Tab insert `@path `, Escape closes, a click picks. The message box keeps the
// focus and points at the active option with aria-activedescendant.
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { mentionAt, mentionToken } from '../../src-shared/mentions'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'

type Found = MethodOutput<'files/search'>['files'][number]

/** Files shown at most. */
const LIMIT = 20

interface Options {
  box: RefObject<HTMLTextAreaElement | null>
  text: string
  setText(text: string): void
  sessionId: string | null
}

export interface MentionPickerControl {
  /** Spread onto the message box. */
  textareaProps: { 'aria-autocomplete': 'list'; 'aria-controls'?: string; 'aria-activedescendant'?: string }
  /** Call first from the box's keydown; true when the picker used the key. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean
  /** Call when the caret may have moved without a change (click, arrow keys). */
  onCaretMove(): void
  picker: ReactNode
}

export function useMentionPicker({ box, text, setText, sessionId }: Options): MentionPickerControl {
  const host = useHost()
  const listId = useId()
  const [token, setToken] = useState<{ start: number; query: string } | undefined>()
  const [files, setFiles] = useState<Found[]>([])
  const [truncated, setTruncated] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  /** The `@` the user closed with Escape: not reopened until the caret leaves it. */
  const dismissed = useRef<number | undefined>(undefined)
  const request = useRef(0)

  const onCaretMove = useCallback(() => {
    const el = box.current
    if (!el) return
    const found = el.selectionStart === el.selectionEnd ? mentionAt(el.value, el.selectionStart) : undefined
    if (found === undefined || found.start !== dismissed.current) dismissed.current = undefined
    setToken((current) => (found === undefined || found.start === dismissed.current ? undefined : current?.start === found.start && current.query === found.query ? current : found))
  }, [box])

  // The text changed (typing, a paste, a restored draft): look at the caret again.
  useEffect(onCaretMove, [text, onCaretMove])

  const query = token?.query
  useEffect(() => {
    if (query === undefined) return
    const id = ++request.current
    host.invoke('files/search', { ...(sessionId ? { sessionId } : {}), query, limit: LIMIT }).then(
      (result) => {
        if (id !== request.current) return
        setFiles(result.files)
        setTruncated(result.truncated)
        setError(null)
        setActive(0)
      },
      (e: unknown) => {
        if (id !== request.current) return
        setFiles([])
        setError(errorText(e))
      }
    )
  }, [host, query, sessionId])

  const open = token !== undefined
  const choose = (file: Found) => {
    const el = box.current
    if (!el || !token) return
    const caret = el.selectionStart
    const inserted = `${mentionToken(file.path)} `
    const next = text.slice(0, token.start) + inserted + text.slice(caret)
    setText(next)
    setToken(undefined)
    const at = token.start + inserted.length
    // After React has written the new value: put the caret after the inserted mention.
    requestAnimationFrame(() => {
      el.focus()
      el.setSelectionRange(at, at)
      onCaretMove()
    })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false
    if (event.key === 'Escape') {
      event.preventDefault()
      dismissed.current = token.start
      setToken(undefined)
      return true
    }
    if (files.length === 0) return false
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((index) => (index + step + files.length) % files.length)
      return true
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault()
      const file = files[Math.min(active, files.length - 1)]
      if (file) choose(file)
      return true
    }
    return false
  }

  const optionId = (index: number) => `${listId}-option-${index}`
  const showList = open && files.length > 0
  const picker = open ? (
    <div className="mention-picker">
      {showList ? (
        <ul id={listId} role="listbox" aria-label="Files to mention">
          {files.map((file, index) => (
            <li
              key={file.path}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'active' : undefined}
              // mousedown, not click: the message box keeps the focus.
              onMouseDown={(event) => {
                event.preventDefault()
                choose(file)
              }}
              onMouseEnter={() => setActive(index)}
            >
              <Highlighted path={file.path} indexes={file.indexes} />
            </li>
          ))}
        </ul>
      ) : (
        <div role="status" className="mention-picker-empty">{error ?? (query ? `No file matches "${query}"` : 'No files')}</div>
      )}
      {showList && truncated ? <div className="mention-picker-note small muted">Large workspace: only part of it is searched.</div> : null}
    </div>
  ) : null

  return {
    textareaProps: {
      'aria-autocomplete': 'list',
      ...(showList ? { 'aria-controls': listId, 'aria-activedescendant': optionId(Math.min(active, files.length - 1)) } : {})
    },
    onKeyDown,
    onCaretMove,
    picker
  }
}

/** The path with the characters the query matched in bold. */
function Highlighted({ path, indexes }: { path: string; indexes: readonly number[] }) {
  if (indexes.length === 0) return <>{path}</>
  const marked = new Set(indexes)
  const parts: ReactNode[] = []
  let run = ''
  let runMarked = false
  const flush = (key: number) => {
    if (run === '') return
    parts.push(runMarked ? <mark key={key}>{run}</mark> : run)
    run = ''
  }
  for (let i = 0; i < path.length; i++) {
    const isMarked = marked.has(i)
    if (isMarked !== runMarked) {
      flush(i)
      runMarked = isMarked
    }
    run += path[i]
  }
  flush(path.length)
  return <>{parts}</>
}
