// The dangerous-call marking of an approval (request.risks, from src-shared/host/call-risks.ts),
// shown the same way in the approval dialog and on the Board's approval card.
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'

export function CallRisks({ risks }: { risks: NonNullable<ApprovalRequestPublic['risks']> }) {
  if (risks.length === 0) return null
  return (
    <div className="approval-risks" role="group" aria-label="Dangerous call">
      <p className="approval-risks-title">Dangerous: check before allowing</p>
      <ul>
        {risks.map((risk) => (
          <li key={risk.kind + risk.text}>{risk.text}</li>
        ))}
      </ul>
    </div>
  )
}
