// The name and base of a new worktree session, then the session opens in the chat. Disabled with
// the host's reason when the workspace cannot have one (not a git repository, no commit, no git).
import { useState } from 'react'
import { appActions } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { sessionsActions } from '../sessions/sessions-store'
import { useWorktreeAvailability } from './new-worktree'

export function NewWorktreeForm({ onCreated }: { onCreated?: (id: string) => void }) {
  const host = useHost()
  const availability = useWorktreeAvailability()
  const reason = availability?.available === false ? availability.reason : null
  const unavailable = availability?.available !== true
  const [name, setName] = useState('')
  const [base, setBase] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null)

  const create = async () => {
    setBusy(true)
    setMessage(null)
    try {
      const made = await host.invoke('worktrees/create', { ...(name.trim() ? { name: name.trim() } : {}), ...(base.trim() ? { base: base.trim() } : {}) })
      setMessage({ error: false, text: [`Worktree ${made.worktree.path} on ${made.worktree.branch || 'a hook-made folder'}.`, ...made.notices].join(' ') })
      setName('')
      onCreated?.(made.id)
      appActions.showPage('chat')
      await sessionsActions.open(host, made.id)
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
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="generated" disabled={unavailable} />
      </label>
      <label>
        Start from
        <input value={base} onChange={(e) => setBase(e.target.value)} placeholder="HEAD" disabled={unavailable} />
      </label>
      <button type="submit" className="primary" disabled={busy || unavailable} title={reason ?? undefined}>New session in a worktree</button>
      {reason !== null && <p className="muted small" role="note">{reason}</p>}
      {message && <p className={message.error ? 'form-error' : 'muted small'} role={message.error ? 'alert' : 'status'}>{message.text}</p>}
    </form>
  )
}
