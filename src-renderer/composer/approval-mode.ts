// Setting the approval mode (settings/set approvalMode), from the settings form or the composer's
// mode switch, and the cycle of Claude Code's permission modes the switch steps through with
// Shift+Tab: default, acceptEdits, plan, bypassPermissions (as Seam's modes).
import type { AppStatus, HostApi } from '../../src-shared/contract/ipc'
import { useAppStore } from '../app/app-store'

export type ApprovalMode = AppStatus['approvalMode']

export const MODE_CYCLE: ReadonlyArray<{ mode: ApprovalMode; claude: string; label: string }> = [
  { mode: 'ask-side-effects', claude: 'default', label: 'Ask before edits' },
  { mode: 'accept-edits', claude: 'acceptEdits', label: 'Accept edits' },
  { mode: 'plan', claude: 'plan', label: 'Plan mode' },
  { mode: 'never-ask', claude: 'bypassPermissions', label: 'Bypass permissions' }
]

/** The next mode of the cycle; a mode outside it (ask-all, dont-ask) goes to the first. */
export function nextMode(current: ApprovalMode | undefined): ApprovalMode {
  const at = MODE_CYCLE.findIndex((m) => m.mode === current)
  return MODE_CYCLE[(at + 1) % MODE_CYCLE.length]!.mode
}

export async function setApprovalMode(host: HostApi, approvalMode: ApprovalMode): Promise<void> {
  await host.invoke('settings/set', { approvalMode })
  // The app/status push carries the new mode; the call's reply may come first.
  const status = useAppStore.getState().status
  if (status) useAppStore.setState({ status: { ...status, approvalMode } })
}
