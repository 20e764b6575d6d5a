// The sessions list, grouped by the workspace each session belongs to (the window's first): new,
// open (replays the log), rename inline, delete with confirmation, search by title and content;
// client plugins' sidebar panels below it.
import { Fragment, useState } from 'react'
import { appActions, useAppStore } from '../app/app-store'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { SidebarPanels } from '../plugins/SidebarPanels'
import { SidebarNewWorktreeButton } from '../board/SidebarNewWorktreeButton'
import { SessionRow } from './SessionRow'
import { groupByWorkspace } from './session-groups'
import { sessionsActions, startNewSession, useSessionsStore, type SessionSearchResult, type SessionSummary } from './sessions-store'
import { useSessionSearch } from './use-session-search'
import { EmptyState } from '../app/EmptyState'
import { Inbox, SearchX } from '../app/icons'

export function SessionsSidebar() {
  const host = useHost()
  const list = useSessionsStore((state) => state.list)
  const openId = useSessionsStore((state) => state.openId)
  const listError = useSessionsStore((state) => state.error)
  const currentWorkspace = useAppStore((state) => state.status?.workspace ?? null)
  const [deleting, setDeleting] = useState<SessionSummary | null>(null)
  const [error, setError] = useState<string | null>(null)

  const [query, setQuery] = useState('')
  const search = useSessionSearch(query, list)
  const shown: readonly (SessionSummary | SessionSearchResult)[] = search.shown
  const groups = groupByWorkspace(shown, currentWorkspace)
  // A new session is stored by its first message (the composer creates it): no empty rows.
  const create = () => {
    setError(null)
    startNewSession()
  }

  return (
    <nav className="sidebar" id="sessions-sidebar" aria-label="Sessions">
      <div className="sidebar-head">
        <h2 className="panel-title">Sessions</h2>
        <div className="sidebar-new">
          <button type="button" className="primary small" onClick={create}>New session</button>
          <SidebarNewWorktreeButton />
        </div>
      </div>
      <input type="search" className="session-search" aria-label="Search sessions" placeholder="Search titles and messages" value={query} onChange={(e) => setQuery(e.target.value)} />
      {(error ?? listError ?? search.error) && <p className="form-error" role="alert">{error ?? listError ?? search.error}</p>}
      <ul className="session-list" aria-label="Session list">
        {groups.map((group) => (
          <Fragment key={group.workspace}>
            {/* A heading row, not a session (it has no open button; e2e counts rows by that button). */}
            <li className="session-group">
              <h3 className="session-group-title" title={group.workspace} aria-label={`Workspace ${group.workspace}${group.current ? ' (open in this window)' : ''}`}>
                {group.label}
                {group.current && <span className="muted"> · this window</span>}
              </h3>
            </li>
            {group.sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                match={matchOf(session)}
                active={session.id === openId}
                onOpen={() => {
                  appActions.showPage('chat')
                  const match = matchOf(session)
                  void sessionsActions.open(host, session.id, match ? { seq: match.seq, words: search.words } : undefined)
                }}
                onRename={(title) => sessionsActions.rename(host, session.id, title)}
                onDelete={() => setDeleting(session)}
              />
            ))}
          </Fragment>
        ))}
        {list.length === 0 && (
          <EmptyState as="li" icon={Inbox} title="No sessions yet.">
            Send a message to start one, or press New session.
          </EmptyState>
        )}
        {list.length > 0 && shown.length === 0 && !search.pending && (
          <EmptyState as="li" icon={SearchX} title={`No session matches “${query}”.`}>
            Titles and what was said are searched; try fewer or other words, or clear the search.
          </EmptyState>
        )}
      </ul>
      <p className="sr-only" role="status">{search.status}</p>
      <SidebarPanels />
      {deleting && (
        <ConfirmDialog label="Delete session?" confirm="Delete" danger onConfirm={() => sessionsActions.remove(host, deleting.id)} onClose={() => setDeleting(null)}>
          <p>
            Delete “{deleting.title}” and its log ({deleting.eventCount} events)? This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </nav>
  )
}

/** Where a search result's content matched (a plain list row has none). */
function matchOf(session: SessionSummary | SessionSearchResult): SessionSearchResult['match'] {
  return 'titleMatch' in session ? (session as SessionSearchResult).match : undefined
}
