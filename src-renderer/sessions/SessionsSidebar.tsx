// The sessions list, grouped by the workspace each session belongs to (the window's first): new,
// open (replays the log), rename inline, delete with confirmation; client plugins' sidebar
// panels below it.
import { Fragment, useState } from 'react'
import { appActions, useAppStore } from '../app/app-store'
import { ConfirmDialog } from '../app/ConfirmDialog'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { SidebarPanels } from '../plugins/SidebarPanels'
import { SessionRow } from './SessionRow'
import { groupByWorkspace } from './session-groups'
import { sessionsActions, useSessionsStore, type SessionSummary } from './sessions-store'

export function SessionsSidebar() {
  const host = useHost()
  const list = useSessionsStore((state) => state.list)
  const openId = useSessionsStore((state) => state.openId)
  const listError = useSessionsStore((state) => state.error)
  const currentWorkspace = useAppStore((state) => state.status?.workspace ?? null)
  const groups = groupByWorkspace(list, currentWorkspace)
  const [deleting, setDeleting] = useState<SessionSummary | null>(null)
  const [error, setError] = useState<string | null>(null)

  const create = async () => {
    setError(null)
    try {
      await sessionsActions.create(host)
      appActions.showPage('chat')
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-head">
        <h2 className="panel-title">Sessions</h2>
        <button type="button" className="primary small" onClick={() => void create()}>New session</button>
      </div>
      {(error ?? listError) && <p className="form-error" role="alert">{error ?? listError}</p>}
      <ul className="session-list" aria-label="Session list">
        {groups.map((group) => (
          <Fragment key={group.workspace}>
            {/* A heading row, not a session: hidden from the list's items. */}
            <li role="presentation" className="session-group">
              <h3 className="session-group-title" title={group.workspace} aria-label={`Workspace ${group.workspace}${group.current ? ' (open in this window)' : ''}`}>
                {group.label}
                {group.current && <span className="muted"> · this window</span>}
              </h3>
            </li>
            {group.sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                active={session.id === openId}
                onOpen={() => {
                  appActions.showPage('chat')
                  void sessionsActions.open(host, session.id)
                }}
                onRename={(title) => sessionsActions.rename(host, session.id, title)}
                onDelete={() => setDeleting(session)}
              />
            ))}
          </Fragment>
        ))}
        {list.length === 0 && <li className="muted empty">No sessions yet.</li>}
      </ul>
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
