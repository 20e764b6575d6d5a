// Approval mode: when the approval seam asks the user (settings/set approvalMode). A draft of the
// settings section (saved with its Save); the composer's mode switch still applies at once.
import { useState } from 'react'
import type { AppStatus } from '../../src-shared/contract/ipc'
import { useAppStore } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { setApprovalMode } from '../composer/approval-mode'
import { useDraftPart } from './section-form'

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
  const [draft, setDraft] = useState<Mode | null>(null)
  const [error, setError] = useState<string | null>(null)
  const shown = draft ?? current
  const save = async (): Promise<boolean> => {
    if (draft === null) return true
    setError(null)
    try {
      await setApprovalMode(host, draft)
      setDraft(null)
      return true
    } catch (e) {
      setError(`Approval mode: ${errorText(e)}`)
      return false
    }
  }
  useDraftPart({ dirty: draft !== null && draft !== current, save, discard: () => setDraft(null) })
  return (
    <fieldset className="radio-group">
      <legend>Approval mode</legend>
      {MODES.map(({ mode, label, hint }) => (
        <label key={mode} className="radio">
          <input type="radio" name="approval-mode" value={mode} checked={shown === mode} onChange={() => setDraft(mode)} />
          <span>{label}</span> <span className="muted">— {hint}</span>
        </label>
      ))}
      {error && <p className="form-error" role="alert">{error}</p>}
    </fieldset>
  )
}
