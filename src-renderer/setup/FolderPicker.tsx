// Web mode's "Choose folder…": a folder browser the host serves (`folders/list`, folders under the
// user's home only). Keyboard first: the path field is a combobox over the folders of the folder
// its text names up to the last "/", filtered by what follows (type-ahead); ↑/↓ move, Enter or
// Tab opens the folder (Tab completes what is typed), Backspace after a "/" goes up one folder,
// Esc cancels. "Use this folder" takes the folder listed.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { FolderListing } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { Modal } from '../app/Modal'
import './folder-picker.css'

export interface FolderPickerProps {
  onChoose(path: string): void | Promise<void>
  onCancel(): void
}

/** The folder a typed text lists ("~/a/b" lists "~/a"; "~/a/" lists "~/a") and the name filter after it. */
export function splitTyped(typed: string): { folder: string; filter: string } {
  const slash = typed.lastIndexOf('/')
  if (slash < 0) return { folder: '~', filter: typed === '~' ? '' : typed }
  return { folder: typed.slice(0, slash) || '/', filter: typed.slice(slash + 1) }
}

export function FolderPicker({ onChoose, onCancel }: FolderPickerProps) {
  const host = useHost()
  const listId = useId()
  const [typed, setTyped] = useState('~/')
  const [hidden, setHidden] = useState(false)
  const [listing, setListing] = useState<FolderListing | null>(null)
  /** The folder text the listing answers (while another is being read, its folders are not offered). */
  const [listedFor, setListedFor] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const [busy, setBusy] = useState(false)
  const field = useRef<HTMLInputElement>(null)
  const { folder, filter } = splitTyped(typed)

  useEffect(() => {
    let live = true
    // A short pause while typing; none for the first listing and for opening a folder (typed ends in "/").
    const timer = setTimeout(
      () => {
        host.invoke('folders/list', { path: folder, hidden }).then(
          (next) => {
            if (!live) return
            setListing(next)
            setListedFor(folder)
            setError(null)
          },
          (e: unknown) => live && setError(errorText(e))
        )
      },
      listing === null || typed.endsWith('/') ? 0 : 150
    )
    return () => {
      live = false
      clearTimeout(timer)
    }
    // The listing is read for the folder part only; typing the filter does not ask the host again.
  }, [host, folder, hidden])

  const matches = (listedFor === folder ? (listing?.entries ?? []) : []).filter((entry) => entry.name.toLowerCase().startsWith(filter.toLowerCase()))
  const current = Math.min(active, Math.max(matches.length - 1, 0))
  useEffect(() => setActive(0), [folder, filter, hidden])

  const open = (path: string) => {
    if (!listing) return
    const display = path === listing.home ? '~' : path.startsWith(`${listing.home}/`) ? `~/${path.slice(listing.home.length + 1)}` : path
    setTyped(`${display}/`)
    field.current?.focus()
  }
  const up = () => {
    if (listing?.parent) open(listing.parent)
  }
  const use = async () => {
    if (!listing) return
    setBusy(true)
    setError(null)
    try {
      await onChoose(listing.path)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const entry = matches[current]
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (matches.length === 0) return
      setActive(event.key === 'ArrowDown' ? (current + 1) % matches.length : (current - 1 + matches.length) % matches.length)
    } else if (event.key === 'Home' && event.ctrlKey) {
      event.preventDefault()
      setActive(0)
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      if (entry && !entry.disabled && (filter !== '' || event.key === 'Enter')) {
        event.preventDefault()
        open(entry.path)
      } else if (event.key === 'Enter') event.preventDefault()
    } else if (event.key === 'Backspace' && typed.endsWith('/') && field.current?.selectionStart === typed.length) {
      // After a "/", Backspace goes up a folder rather than deleting the slash.
      if (listing?.parent) {
        event.preventDefault()
        up()
      }
    }
  }

  const activeId = matches[current] ? `${listId}-${current}` : undefined
  return (
    <Modal label="Choose a folder" onCancel={onCancel} focusFirst className="folder-picker">
      <div className="modal-body">
        <label className="field">
          <span className="field-label">Folder path</span>
          <input
            ref={field}
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            aria-invalid={error ? true : undefined}
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={onKeyDown}
          />
        </label>
        <p className="muted small folder-hint">↑ ↓ choose · Enter opens · Tab completes · Backspace after “/” goes up · Esc cancels</p>
        <div className="row folder-tools">
          <button type="button" onClick={up} disabled={!listing?.parent}>Up one folder</button>
          <label className="field inline">
            <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
            <span>Show hidden folders</span>
          </label>
        </div>
        {error && <p className="form-error" role="alert">{error}</p>}
        <ul id={listId} role="listbox" aria-label={`Folders in ${listing?.display ?? folder}`} className="folder-list">
          {matches.map((entry, index) => (
            <li
              key={entry.path}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              aria-disabled={entry.disabled ? true : undefined}
              className={`folder-entry${index === current ? ' active' : ''}${entry.disabled ? ' disabled' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setActive(index)
                if (!entry.disabled) open(entry.path)
              }}
            >
              <span className="folder-name">{entry.name}/</span>
              {entry.disabled && <span className="muted small"> ({entry.disabled})</span>}
            </li>
          ))}
          {listing && listedFor === folder && matches.length === 0 && <li className="muted folder-empty" role="option" aria-disabled="true" aria-selected="false">{filter ? `No folder here starts with “${filter}”` : 'No folders here'}</li>}
        </ul>
        {listing?.truncated && <p className="muted small">Only the first {listing.entries.length} folders are listed: type to narrow.</p>}
      </div>
      <div className="modal-actions">
        <span className="muted folder-chosen" aria-label="Folder to use">{listing?.display ?? '…'}</span>
        <button type="button" onClick={onCancel}>Cancel</button>
        <button type="button" className="primary" disabled={!listing || busy} onClick={() => void use()}>Use this folder</button>
      </div>
    </Modal>
  )
}
