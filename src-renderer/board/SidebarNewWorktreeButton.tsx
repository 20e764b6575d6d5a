// The sidebar's "Worktree session…" beside "New session": opens the dialog "New session in a
// worktree" (its name does not repeat "New session", which names the plain button). When the workspace cannot
// have a worktree session the button is marked disabled (aria-disabled, the reason as its
// description and tooltip) but stays focusable and still opens the dialog, which shows the reason
// with its form disabled: keyboard, pointer and screen reader users all reach the reason.
import { useId } from 'react'
import { newWorktreeDialog, useWorktreeAvailability } from './new-worktree'

export function SidebarNewWorktreeButton() {
  const availability = useWorktreeAvailability()
  const reasonId = useId()
  const reason = availability?.available === false ? availability.reason : null
  return (
    <>
      <button
        type="button"
        className="small"
        aria-disabled={reason !== null || availability === null}
        aria-describedby={reason !== null ? reasonId : undefined}
        title={reason ?? 'A new session on its own branch, in its own git worktree'}
        onClick={newWorktreeDialog.open}
      >
        Worktree session…
      </button>
      {reason !== null && <span id={reasonId} className="sr-only">Unavailable: {reason}</span>}
    </>
  )
}
