// The desktop answerer of the approval seam: one modal at a time for the first pending ask.
// Enter allows once, Esc denies (with the note, if any). When the host settles the shown ask
// elsewhere (cancelled, unavailable, answered in another window), the store drops it and the
// next ask shows. "Allow for this session" and "Always allow" grant the Claude Code rules the
// dialog lists, shown before anything is saved; "Always allow" also saves them (in this
// workspace's .claude/settings.local.json, or everywhere in Seam's user rules). A dangerous call
// (request.risks: rm -rf, sudo, curl | sh, force push, a write outside the workspace) is marked,
// its Deny has the focus and Enter denies it.
import { subagentLabel } from '../../src-shared/subagent-label'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { useAppStore } from '../app/app-store'
import { Modal } from '../app/Modal'
import { useSessionsStore } from '../sessions/sessions-store'
import { useSessionStore } from '../transcript/session-store'
import { ApprovalDetails } from './ApprovalDetails'
import { CallRisks } from './CallRisks'
import { useApprovalStore } from './approval-store'
import { useApprovalAnswer, type AlwaysSaveTo, type ApprovalOutcome } from './use-approval-answer'

/**
 * Whether the modal shows (the app behind it is inert then): an ask is pending and the Board, which
 * answers every ask on its sessions' cards (board/BoardApproval.tsx), is not the page showing.
 */
export function useApprovalDialogOpen(): boolean {
  const pending = useApprovalStore((state) => state.queue.length > 0)
  const onBoard = useAppStore((state) => state.page === 'board')
  return pending && !onBoard
}

export function ApprovalDialog() {
  const request = useApprovalStore((state) => state.queue[0])
  const waiting = useApprovalStore((state) => state.queue.length - 1)
  const open = useApprovalDialogOpen()
  if (!open || !request) return null
  return <ApprovalModal key={request.id} request={request} waiting={waiting} />
}

/** Enter does not allow a call during this long after its dialog appears. */
export const ENTER_GUARD_MS = 600

function ApprovalModal({ request, waiting }: { request: ApprovalRequestPublic; waiting: number }) {
  const scopeId = useId()
  const [note, setNote] = useState('')
  const [saveTo, setSaveTo] = useState<AlwaysSaveTo>('workspace')
  const { answer: send, busy, error } = useApprovalAnswer(request)
  const rules = request.scope.rules ?? []
  const risks = request.risks ?? []
  const denyRef = useRef<HTMLButtonElement>(null)
  // Runs after the modal's focus trap placed the focus: a dangerous call starts on Deny.
  useEffect(() => {
    if (risks.length > 0) denyRef.current?.focus()
  }, [risks.length])
  // When the dialog appeared: an Enter meant for the message box, pressed as the dialog pops up,
  // must not approve a call the user has not read.
  const shownAt = useRef(Date.now())
  // An ask from a session the user is not looking at says which one it is.
  const openSessionId = useSessionStore((state) => state.sessionId)
  const otherSession = useSessionsStore((state) => (request.sessionId === openSessionId ? null : state.list.find((s) => s.id === request.sessionId)?.title ?? request.sessionId))

  const answer = (outcome: ApprovalOutcome) => send(outcome, { note, saveTo })

  const onKey = (event: KeyboardEvent<HTMLDivElement>): boolean => {
    if (event.key === 'Escape') {
      event.preventDefault()
      void answer('denied')
      return true
    }
    if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return false
    const target = event.target as HTMLElement
    // In the note, Enter is a new line; on a button, Enter presses that button.
    if (target.closest('textarea, button, input, select, a')) return false
    event.preventDefault()
    if (risks.length > 0) {
      void answer('denied')
      return true
    }
    if (Date.now() - shownAt.current < ENTER_GUARD_MS) return true
    void answer('allowed-once')
    return true
  }

  return (
    <Modal label="Approve tool call" onKey={onKey} className="approval-dialog">
      <p className="approval-tool">
        <span className="tool-name">{request.tool}</span>
        {waiting > 0 && <span className="muted"> · {waiting} more waiting</span>}
      </p>
      {otherSession !== null && <p className="approval-session">In another session: “{otherSession || 'New session'}”</p>}
      {request.agent && (
        <p className="approval-session" aria-label="Asked by a subagent">
          Asked by {subagentLabel(request.agent)}
        </p>
      )}
      <p className="approval-reason">
        <span className="field-label">Why: </span>
        {request.reason}
        {request.askedBy && <span className="muted"> (asked by {request.askedBy})</span>}
      </p>
      <CallRisks risks={risks} />
      <ApprovalDetails request={request} />
      <label className="field">
        <span className="field-label">Note for the model (sent with Deny, optional)</span>
        <textarea value={note} rows={2} onChange={(e) => setNote(e.target.value)} aria-label="Note for the model" />
      </label>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="modal-actions approval-actions">
        <button type="button" className={risks.length > 0 ? '' : 'primary'} disabled={busy} onClick={() => void answer('allowed-once')}>Allow once</button>
        <button type="button" disabled={busy} aria-describedby={scopeId} onClick={() => void answer('allowed-session')}>Allow for this session</button>
        {rules.length > 0 && (
          <button type="button" disabled={busy} aria-describedby={scopeId} onClick={() => void answer('allowed-always')}>Always allow</button>
        )}
        <button type="button" ref={denyRef} className="danger" disabled={busy} onClick={() => void answer('denied')}>Deny</button>
      </div>
      <div id={scopeId} className="approval-scope muted">
        {rules.length === 0 ? (
          <p>For this session allows: {request.scope.description}</p>
        ) : (
          <>
            <p>{rules.length === 1 ? 'The rule' : 'The rules'} “Allow for this session” and “Always allow” add:</p>
            <ul className="approval-rules" aria-label="Rules to add">
              {rules.map((rule) => (
                <li key={rule}><code>{rule}</code></li>
              ))}
            </ul>
            <label className="approval-save-to">
              “Always allow” saves {rules.length === 1 ? 'it' : 'them'}{' '}
              <select value={saveTo} onChange={(e) => setSaveTo(e.target.value as AlwaysSaveTo)} disabled={busy} aria-label="Where Always allow saves">
                <option value="workspace">in this workspace (.claude/settings.local.json)</option>
                <option value="user">everywhere (Seam's user rules)</option>
              </select>
            </label>
          </>
        )}
      </div>
      <p className="muted keys-hint">{risks.length > 0 ? 'Enter: deny (dangerous call) · Esc: deny' : 'Enter: allow once · Esc: deny'}</p>
    </Modal>
  )
}
