// The composer's approval-mode switch: shows the mode in force and steps through Claude Code's
// modes (default, acceptEdits, plan, bypassPermissions) on click, or with Shift+Tab in the message
// box as in Claude Code. Bypass is drawn as a warning (the header's safety badge says it too).
import { useAppStore } from '../app/app-store'
import { MODE_CYCLE, type ApprovalMode } from './approval-mode'

const OTHER_LABELS: Partial<Record<ApprovalMode, string>> = { 'ask-all': 'Ask for everything', 'dont-ask': "Don't ask" }

export function modeLabel(mode: ApprovalMode | undefined): string {
  return MODE_CYCLE.find((m) => m.mode === mode)?.label ?? (mode ? OTHER_LABELS[mode] ?? mode : '…')
}

export function ModeSwitch({ onCycle, error }: { onCycle(): void; error: string | null }) {
  const mode = useAppStore((state) => state.status?.approvalMode)
  const label = modeLabel(mode)
  return (
    <>
      <button
        type="button"
        className={`mode-switch mode-${mode ?? 'unknown'}`}
        aria-label={`Approval mode: ${label}`}
        aria-keyshortcuts="Shift+Tab"
        title="Change the approval mode (Shift+Tab in the message box)"
        onClick={onCycle}
      >
        {label}
      </button>
      {error && <span className="form-error small" role="alert">{error}</span>}
    </>
  )
}
