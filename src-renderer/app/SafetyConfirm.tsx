// The confirmation before switching off an entry that guards tool calls or provides the tools
// (src-shared/host/safety-entries.ts), naming what switching it off does.
import { SAFETY_ENTRIES } from '../../src-shared/host/safety-entries'
import { ConfirmDialog } from './ConfirmDialog'

export function SafetyConfirm({ id, onConfirm, onClose }: { id: string; onConfirm(): Promise<void>; onClose(): void }) {
  const entry = SAFETY_ENTRIES[id]
  return (
    <ConfirmDialog label={`Turn off ${id}?`} confirm={`Turn off ${id}`} danger onConfirm={onConfirm} onClose={onClose}>
      <p className="safety-consequence">{entry?.consequence}</p>
      <p className="muted">The header shows a warning while it is off; switch it back on here at any time.</p>
    </ConfirmDialog>
  )
}
