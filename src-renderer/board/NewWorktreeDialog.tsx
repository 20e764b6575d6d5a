// "New session in a worktree" from the sidebar's button or the command palette: the Board's form
// in a dialog (disabled with the reason when the workspace cannot have one).
import { Modal } from '../app/Modal'
import { NewWorktreeForm } from './NewWorktreeForm'
import { newWorktreeDialog, useNewWorktreeDialog } from './new-worktree'

export function NewWorktreeDialog() {
  const open = useNewWorktreeDialog((state) => state.open)
  if (!open) return null
  return (
    <Modal label="New session in a worktree" onCancel={newWorktreeDialog.close} focusFirst className="new-worktree-dialog">
      <p className="muted small">A new branch <code>seam/&lt;name&gt;</code> in its own folder, so this session cannot touch the others&apos; files. Uncommitted changes of the main worktree are not included.</p>
      <NewWorktreeForm onCreated={newWorktreeDialog.close} />
      <div className="modal-actions">
        <button type="button" onClick={newWorktreeDialog.close}>Cancel</button>
      </div>
    </Modal>
  )
}

