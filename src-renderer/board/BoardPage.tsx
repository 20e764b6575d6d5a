// The board: every running and recent session of the workspace in one table (branch, status,
// last message, files changed, cost, time), "New session in a worktree", each session's approval
// asks answered on its row (BoardApproval), and per worktree session its review (ReviewPanel).
// A session another process holds open (`elsewhere`) shows its live status from its log; its
// asks are answered in that process, which its row says.
// Refreshed from the host's pushes, at most once per REFRESH_MS, so several sessions streaming at
// once cost the window one small request a second, not one per event.
import { Fragment, useCallback, useEffect, useRef, useState } from 'react'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import type { BoardRow } from '../../src-shared/contract/worktrees'
import { useHost } from '../app/host-context'
import { appActions } from '../app/app-store'
import { errorText } from '../app/errors'
import { useApprovalStore } from '../approval/approval-store'
import { sessionsActions } from '../sessions/sessions-store'
import { BoardApproval } from './BoardApproval'
import { NewWorktreeForm } from './NewWorktreeForm'
import { ReviewPanel } from './ReviewPanel'
import { EmptyState } from '../app/EmptyState'
import { Inbox } from '../app/icons'

const REFRESH_MS = 1000

const STATUS_TEXT: Record<BoardRow['status'], string> = {
  running: 'running',
  waiting: 'waiting for approval',
  idle: 'idle',
  failed: 'failed',
  detached: 'detached (worktree gone)',
  closed: 'not open'
}

const COLUMNS = 8

/** How a session is named on its approval card: its title, else its branch, else its id. */
function sessionName(row: BoardRow): string {
  return row.title || row.worktree?.branch || row.id
}

export function BoardPage() {
  const host = useHost()
  const [rows, setRows] = useState<BoardRow[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [reviewing, setReviewing] = useState<string | null>(null)
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)
  const asks = useApprovalStore((state) => state.queue)

  const load = useCallback(async () => {
    try {
      setRows(await host.invoke('sessions/board', {}))
      setError(null)
    } catch (e) {
      setError(errorText(e))
    }
  }, [host])

  useEffect(() => {
    void load()
    const soon = () => {
      if (pending.current !== null) return
      pending.current = setTimeout(() => {
        pending.current = null
        void load()
      }, REFRESH_MS)
    }
    const offs = [host.on('session/appended', soon), host.on('agent/state', soon), host.on('sessions/changed', soon), host.on('approval/requested', soon), host.on('approval/settled', soon)]
    return () => {
      for (const off of offs) off()
      if (pending.current !== null) clearTimeout(pending.current)
    }
  }, [host, load])

  const open = (id: string) => {
    appActions.showPage('chat')
    void sessionsActions.open(host, id)
  }
  const reviewed = rows?.find((row) => row.id === reviewing && row.worktree)
  const asksOf = (id: string): ApprovalRequestPublic[] => asks.filter((request) => request.sessionId === id)
  // Asks of sessions the board does not list (another workspace's): answered here too.
  const elsewhere = asks.filter((request) => !rows?.some((row) => row.id === request.sessionId))

  return (
    <section className="board" aria-label="Sessions board">
      <div className="board-head">
        <h2>Board</h2>
        <NewWorktreeForm onCreated={() => setReviewing(null)} />
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      {elsewhere.length > 0 && (
        <div className="board-elsewhere">
          <h3>Asks from sessions not on this board</h3>
          {elsewhere.map((request) => (
            <BoardApproval key={request.id} request={request} session={request.sessionId} />
          ))}
        </div>
      )}
      {rows === null ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <EmptyState icon={Inbox} title="No sessions in this workspace yet.">
          Start one from Chat, or create a session in its own worktree with the form above.
        </EmptyState>
      ) : (
        <table className="board-table" aria-label="Sessions">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Branch</th>
              <th scope="col">Status</th>
              <th scope="col">Last message</th>
              <th scope="col">Files</th>
              <th scope="col">Cost</th>
              <th scope="col">Last activity</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <Fragment key={row.id}>
                <tr data-status={row.status} aria-label={`Session ${row.title || row.id}`}>
                  <td>{row.title || <span className="muted">(untitled)</span>}</td>
                  <td>{row.worktree ? <code>{row.worktree.branch || row.worktree.path}</code> : <span className="muted">main worktree</span>}</td>
                  <td>
                    <span className={`board-status ${row.status}`}>{STATUS_TEXT[row.status]}{row.waitingFor ? ` from ${row.waitingFor}` : ''}</span>
                    {row.elsewhere && <span className="board-elsewhere-tag muted"> in another process</span>}
                  </td>
                  <td className="board-last">{row.lastMessage}</td>
                  <td>{row.filesChanged}</td>
                  <td>{row.costUsd > 0 ? `$${row.costUsd.toFixed(4)}` : '—'}</td>
                  <td>{new Date(row.lastActivity).toLocaleTimeString()}</td>
                  <td className="board-actions">
                    {/* Opening it here too would make two processes write one log: it is opened where it runs. aria-disabled keeps the reason reachable by keyboard. */}
                    <button
                      type="button"
                      onClick={() => row.elsewhere === undefined && open(row.id)}
                      aria-disabled={row.elsewhere !== undefined || undefined}
                      title={row.elsewhere ? `Running in another process (pid ${row.elsewhere.pid}): open it there` : undefined}
                    >
                      Open
                    </button>
                    {row.worktree && row.status !== 'detached' && (
                      <button type="button" onClick={() => setReviewing(reviewing === row.id ? null : row.id)} aria-expanded={reviewing === row.id}>
                        Review
                      </button>
                    )}
                  </td>
                </tr>
                {row.elsewhere && row.status === 'waiting' && (
                  <tr className="board-approval-row">
                    <td colSpan={COLUMNS}>
                      <p className="board-elsewhere-ask" role="note">
                        {sessionName(row)} is waiting for approval{row.waitingFor ? ` from ${row.waitingFor}` : ''}, running in another process (pid {row.elsewhere.pid}): answer there.
                      </p>
                    </td>
                  </tr>
                )}
                {asksOf(row.id).length > 0 && (
                  <tr className="board-approval-row">
                    <td colSpan={COLUMNS}>
                      {asksOf(row.id).map((request) => (
                        <BoardApproval key={request.id} request={request} session={sessionName(row)} />
                      ))}
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {reviewed && <ReviewPanel key={reviewed.id} row={reviewed} onChanged={load} onClose={() => setReviewing(null)} />}
    </section>
  )
}
