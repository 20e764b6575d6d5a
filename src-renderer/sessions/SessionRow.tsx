// One session in the sidebar, with inline rename; a search result also shows where it matched.
import { useState, type KeyboardEvent, type ReactNode } from 'react'
import { errorText } from '../app/errors'
import type { SessionSearchResult, SessionSummary } from './sessions-store'
import { Pencil, Trash2 } from '../app/icons'

type SearchMatch = NonNullable<SessionSearchResult['match']>

export interface SessionRowProps {
  session: SessionSummary
  /** Where the session's content matched the search (its snippet is shown, the words marked). */
  match?: SearchMatch
  active: boolean
  onOpen(): void
  onRename(title: string): Promise<void>
  onDelete(): void
}

export function SessionRow({ session, match, active, onOpen, onRename, onDelete }: SessionRowProps) {
  const [editing, setEditing] = useState(false)
  const [title, setTitle] = useState(session.title)
  // A session gets its title from its first prompt; until then it is just new.
  const displayTitle = session.title || 'New session'
  const [error, setError] = useState<string | null>(null)

  const commit = async () => {
    const next = title.trim()
    setEditing(false)
    if (!next || next === session.title) return setTitle(session.title)
    try {
      await onRename(next)
      setError(null)
    } catch (e) {
      setTitle(session.title)
      setError(errorText(e))
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      void commit()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      setTitle(session.title)
      setEditing(false)
    }
  }

  return (
    <li className={active ? 'session-row active' : 'session-row'}>
      {editing ? (
        <input
          className="rename-input"
          aria-label="Session title"
          value={title}
          maxLength={200}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => void commit()}
        />
      ) : (
        <button type="button" className="session-open" aria-current={active ? 'true' : undefined} onClick={onOpen} title={displayTitle}>
          <span className="session-title">{displayTitle}</span>
          {match && (
            <span className="session-snippet">
              <span className="sr-only">{MATCH_WHERE[match.kind]}: </span>
              {marked(match.snippet, match.highlights)}
            </span>
          )}
          <span className="session-meta muted">{when(session.lastActivity)} · {session.eventCount} {session.eventCount === 1 ? 'event' : 'events'}</span>
        </button>
      )}
      {!editing && (
        <span className="session-actions">
          <button type="button" className="icon" aria-label={`Rename ${displayTitle}`} title="Rename" onClick={() => { setTitle(session.title); setEditing(true) }}><Pencil className="icon-inline" aria-hidden="true" /></button>
          <button type="button" className="icon" aria-label={`Delete ${displayTitle}`} title="Delete" onClick={onDelete}><Trash2 className="icon-inline" aria-hidden="true" /></button>
        </span>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </li>
  )
}

const MATCH_WHERE: Record<SearchMatch['kind'], string> = { user: 'in a prompt', assistant: 'in a reply', tool: 'a tool call' }

/** The snippet with its highlighted ranges in <mark>. */
function marked(snippet: string, highlights: SearchMatch['highlights']): ReactNode[] {
  const out: ReactNode[] = []
  let at = 0
  for (const { start, end } of [...highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end > snippet.length || end <= start) continue
    if (start > at) out.push(snippet.slice(at, start))
    out.push(<mark key={start}>{snippet.slice(start, end)}</mark>)
    at = end
  }
  if (at < snippet.length) out.push(snippet.slice(at))
  return out
}

// Made once: `toLocaleTimeString(locale, options)` builds a new formatter at every call, about
// 0.1 ms each, and every row of the sidebar formats its time at each render.
const TIME_OF_DAY = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })
const DAY_OF_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })

function when(ms: number): string {
  const date = new Date(ms)
  return date.toDateString() === new Date().toDateString() ? TIME_OF_DAY.format(date) : DAY_OF_YEAR.format(date)
}
