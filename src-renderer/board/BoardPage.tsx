// The board: every running and recent session of the workspace in one table (branch, status,
// last message, files changed, cost, time), "New session in a worktree", and per worktree session
// its review (ReviewPanel). Refreshed from the host's pushes, at most once per REFRESH_MS, so
// several sessions streaming at once cost the window one small request a second, not one per event.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { BoardRow } from '../../src-shared/contract/worktrees'
import { useHost } from '../app/host-context'
import { appActions } from '../app/app-store'
import { errorText } from '../app/errors'
import { sessionsActions } from '../sessions/sessions-store'
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

export function BoardPage() {
  const host = useHost()
  const [rows, setRows] = useState<BoardRow[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [reviewing, setReviewing] = useState<string | null>(null)
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)

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

  return (
    <section className="board" aria-label="Sessions board">
      <div className="board-head">
        <h2>Board</h2>
        <NewWorktreeSession onCreated={(id) => void load().then(() => setReviewing(null)).then(() => open(id))} />
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
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
              <tr key={row.id} data-status={row.status} aria-label={`Session ${row.title || row.id}`}>
                <td>{row.title || <span className="muted">(untitled)</span>}</td>
                <td>{row.worktree ? <code>{row.worktree.branch || row.worktree.path}</code> : <span className="muted">main worktree</span>}</td>
                <td><span className={`board-status ${row.status}`}>{STATUS_TEXT[row.status]}{row.waitingFor ? ` from ${row.waitingFor}` : ''}</span></td>
                <td className="board-last">{row.lastMessage}</td>
                <td>{row.filesChanged}</td>
                <td>{row.costUsd > 0 ? `$${row.costUsd.toFixed(4)}` : '—'}</td>
                <td>{new Date(row.lastActivity).toLocaleTimeString()}</td>
                <td className="board-actions">
                  <button type="button" onClick={() => open(row.id)}>Open</button>
                  {row.worktree && row.status !== 'detached' && (
                    <button type="button" onClick={() => setReviewing(reviewing === row.id ? null : row.id)} aria-expanded={reviewing === row.id}>
                      Review
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {reviewed && <ReviewPanel key={reviewed.id} row={reviewed} onChanged={() => void load()} onClose={() => setReviewing(null)} />}
    </section>
  )
}

/** The name and base of a new worktree session; disabled with the host's reason when the workspace cannot have one. */
function NewWorktreeSession({ onCreated }: { onCreated: (id: string) => void }) {
  const host = useHost()
  const [reason, setReason] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [base, setBase] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null)

  useEffect(() => {
    let live = true
    host.invoke('worktrees/availability', {}).then(
      (answer) => live && setReason(answer.available ? null : answer.reason),
      (e: unknown) => live && setReason(errorText(e))
    )
    return () => {
      live = false
    }
  }, [host])

  const create = async () => {
    setBusy(true)
    setMessage(null)
    try {
      const made = await host.invoke('worktrees/create', { ...(name.trim() ? { name: name.trim() } : {}), ...(base.trim() ? { base: base.trim() } : {}) })
      setMessage({ error: false, text: [`Worktree ${made.worktree.path} on ${made.worktree.branch || 'a hook-made folder'}.`, ...made.notices].join(' ') })
      setName('')
      onCreated(made.id)
    } catch (e) {
      setMessage({ error: true, text: errorText(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="board-new" aria-label="New session in a worktree" onSubmit={(e) => { e.preventDefault(); void create() }}>
      <label>
        Worktree name
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="generated" disabled={reason !== null} />
      </label>
      <label>
        Start from
        <input value={base} onChange={(e) => setBase(e.target.value)} placeholder="HEAD" disabled={reason !== null} />
      </label>
      <button type="submit" className="primary" disabled={busy || reason !== null} title={reason ?? undefined}>New session in a worktree</button>
      {reason !== null && <p className="muted small" role="note">{reason}</p>}
      {message && <p className={message.error ? 'form-error' : 'muted small'} role={message.error ? 'alert' : 'status'}>{message.text}</p>}
    </form>
  )
}
