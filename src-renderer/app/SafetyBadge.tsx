// The header's persistent warning while something that guards tool calls is off: the approval
// mode is "never ask" (Claude Code's bypassPermissions) or a safety entry of the plugin tree is
// switched off (AppStatus.safetyOff). Clicking it opens Settings, where both are switched back.
import { SAFETY_ENTRIES } from '../../src-shared/host/safety-entries'
import { appActions, useAppStore } from './app-store'
import { Warning } from './icons'

export function SafetyBadge() {
  const off = useAppStore((state) => state.status?.safetyOff)
  const bypass = useAppStore((state) => state.status?.approvalMode === 'never-ask')
  const warnings = safetyWarnings(off ?? [], bypass)
  if (warnings.length === 0) return null
  const text = warnings.length === 1 ? warnings[0]!.badge : `${warnings[0]!.badge} +${warnings.length - 1}`
  return (
    <button
      type="button"
      className="badge danger safety-badge"
      aria-label={`Safety warning: ${warnings.map((w) => w.badge).join(', ')}`}
      title={warnings.map((w) => `${w.badge}: ${w.detail}`).join('\n')}
      // Straight to where it is switched back: the plugin tree for an entry, the approval mode for bypass.
      onClick={() => appActions.openSettings((off ?? []).some((id) => SAFETY_ENTRIES[id]) ? 'plugins' : 'permissions')}
    >
      <Warning className="icon-inline" aria-hidden="true" />
      {text}
    </button>
  )
}

export function safetyWarnings(off: readonly string[], bypass: boolean): Array<{ badge: string; detail: string }> {
  const warnings = off.filter((id) => SAFETY_ENTRIES[id]).map((id) => ({ badge: SAFETY_ENTRIES[id]!.badge, detail: SAFETY_ENTRIES[id]!.consequence }))
  if (bypass && !off.includes('permission-policy')) {
    warnings.unshift({ badge: 'Approvals off', detail: 'The approval mode is "never ask" (bypassPermissions): tools run without asking you; only deny rules still apply.' })
  }
  return warnings
}
