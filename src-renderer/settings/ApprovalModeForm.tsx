// Approval mode: when the approval seam asks the user (settings/set approvalMode).
import { useState } from 'react'
import type { AppStatus } from '../../src-shared/contract/ipc'
import { useAppStore } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { setApprovalMode } from '../composer/approval-mode'

type Mode = AppStatus['approvalMode']

const MODES: Array<{ mode: Mode; label: string; hint: string }> = [
  { mode: 'ask-side-effects', label: 'Ask before side effects', hint: 'tools that change files or run commands ask first' },
  { mode: 'ask-all', label: 'Ask for everything', hint: 'every tool call asks first' },
  { mode: 'never-ask', label: 'Never ask', hint: 'policies still deny; nothing asks' },
  { mode: 'accept-edits', label: 'Accept edits', hint: "file edits run without asking; commands ask (Claude Code's acceptEdits)" },
  { mode: 'dont-ask', label: "Don't ask", hint: 'what would ask is denied; only allow rules let side effects through' },
  { mode: 'plan', label: 'Plan', hint: 'read-only: tools that change files or run programs are denied' }
]

export function ApprovalModeForm() {
  const host = useHost()
  const current = useAppStore((state) => state.status?.approvalMode)
  const [error, setError] = useState<string | null>(null)
  const choose = async (approvalMode: Mode) => {
    setError(null)
    try {
      await setApprovalMode(host, approvalMode)
    } catch (e) {
      setError(errorText(e))
    }
  }
  return (
    <fieldset className="radio-group">
      <legend>Approval mode</legend>
      {MODES.map(({ mode, label, hint }) => (
        <label key={mode} className="radio">
          <input type="radio" name="approval-mode" value={mode} checked={current === mode} onChange={() => void choose(mode)} />
          <span>{label}</span> <span className="muted">— {hint}</span>
        </label>
      ))}
      {error && <p className="form-error" role="alert">{error}</p>}
    </fieldset>
  )
}
