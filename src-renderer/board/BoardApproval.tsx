// An approval ask answered on the Board, on the card of the session that asks: the tool and why,
// the dangerous-call marking (request.risks, from src-shared/host/call-risks.ts), the call itself
// (the diff or the command line, as the dialog shows it) and the dialog's answers: Allow once,
// Allow for this session, Always allow (where it saves), Deny with a note. Every control is a
// button, field or select, reached with Tab; a dangerous call's Deny is the primary button and
// its Allow is not. While the Board shows, the app-wide dialog stays closed (ApprovalDialog).
import { useId, useState } from 'react'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { subagentLabel } from '../../src-shared/subagent-label'
import { ApprovalDetails } from '../approval/ApprovalDetails'
import { CallRisks } from '../approval/CallRisks'
import { useApprovalAnswer, type AlwaysSaveTo } from '../approval/use-approval-answer'

export function BoardApproval({ request, session }: { request: ApprovalRequestPublic; session: string }) {
  const { answer, busy, error } = useApprovalAnswer(request)
  const [note, setNote] = useState('')
  const [saveTo, setSaveTo] = useState<AlwaysSaveTo>('workspace')
  const scopeId = useId()
  const rules = request.scope.rules ?? []
  const risks = request.risks ?? []
  const dangerous = risks.length > 0
  const target = request.file?.path ?? (request.tool === 'Bash' && typeof request.args.command === 'string' ? request.args.command : null)

  return (
    <section className={`board-approval${dangerous ? ' dangerous' : ''}`} aria-label={`Approval for ${session}`}>
      <p className="board-approval-ask">
        <span className="tool-name">{request.tool}</span>
        {target !== null && <> <code className="path board-approval-target">{target}</code></>}
        <span className="muted"> · {request.reason}{request.askedBy ? ` (asked by ${request.askedBy})` : ''}</span>
      </p>
      {request.agent && <p className="approval-session" aria-label="Asked by a subagent">Asked by {subagentLabel(request.agent)}</p>}
      <CallRisks risks={risks} />
      <details className="board-approval-details">
        <summary>The call in full</summary>
        <ApprovalDetails request={request} />
      </details>
      <label className="board-approval-note">
        <span className="field-label">Note for the model (sent with Deny, optional)</span>
        <input type="text" value={note} onChange={(e) => setNote(e.target.value)} disabled={busy} />
      </label>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="board-approval-actions" role="group" aria-label="Answer">
        <button type="button" className={dangerous ? '' : 'primary'} disabled={busy} onClick={() => void answer('allowed-once')}>Allow once</button>
        <button type="button" disabled={busy} aria-describedby={scopeId} onClick={() => void answer('allowed-session')}>Allow for this session</button>
        {rules.length > 0 && (
          <>
            <button type="button" disabled={busy} aria-describedby={scopeId} onClick={() => void answer('allowed-always', { saveTo })}>Always allow</button>
            <select value={saveTo} onChange={(e) => setSaveTo(e.target.value as AlwaysSaveTo)} disabled={busy} aria-label="Where Always allow saves">
              <option value="workspace">in this workspace</option>
              <option value="user">everywhere</option>
            </select>
          </>
        )}
        <button type="button" className={dangerous ? 'danger primary' : 'danger'} disabled={busy} onClick={() => void answer('denied', { note })}>Deny</button>
      </div>
      <p id={scopeId} className="muted small">
        {rules.length === 0 ? `For this session allows: ${request.scope.description}` : `“Allow for this session” and “Always allow” add ${rules.map((rule) => `“${rule}”`).join(', ')}`}
      </p>
    </section>
  )
}
