// The on/off switch of a plugin row (a Seam bundle or a Claude Code plugin): clicking it opens a
// confirmation that names what will start or stop running; the change is made only on Confirm.
import { useState, type ReactNode } from 'react'
import { ConfirmDialog } from '../../app/ConfirmDialog'

export interface PluginSwitchProps {
  /** The plugin's name as the user knows it (`kit@team-tools`, `weather`). */
  name: string
  on: boolean
  /** Why the switch cannot be used here (shown beside it, and it is disabled). */
  disabledReason?: string
  /** The confirmation's body for the change the click asks for. */
  consequence(turningOn: boolean): ReactNode
  onChange(on: boolean): Promise<void>
}

export function PluginSwitch({ name, on, disabledReason, consequence, onChange }: PluginSwitchProps) {
  const [asking, setAsking] = useState(false)
  const verb = on ? 'Turn off' : 'Turn on'
  return (
    <>
      <button
        type="button"
        role="switch"
        className="tree-switch plugin-switch"
        aria-checked={on}
        aria-label={`${name} enabled`}
        disabled={disabledReason !== undefined}
        {...(disabledReason !== undefined ? { title: disabledReason } : {})}
        onClick={() => setAsking(true)}
      >
        {on ? 'On' : 'Off'}
      </button>
      {disabledReason !== undefined && <div className="small muted plugin-switch-note">{disabledReason}</div>}
      {asking && (
        <ConfirmDialog label={`${verb} ${name}?`} confirm={`${verb} ${name}`} danger={on} onConfirm={() => onChange(!on)} onClose={() => setAsking(false)}>
          {consequence(!on)}
        </ConfirmDialog>
      )}
    </>
  )
}
