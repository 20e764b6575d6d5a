// A yes/no confirmation (delete a session, remove a plugin, revert or rewind files).
import { useState, type ReactNode } from 'react'
import { errorText } from './errors'
import { Modal } from './Modal'

export interface ConfirmDialogProps {
  label: string
  children: ReactNode
  confirm: string
  danger?: boolean
  /** Extra class on the dialog (a wider body, e.g. the restore dialog's diffs). */
  className?: string
  onConfirm: () => Promise<void> | void
  onClose: () => void
}

export function ConfirmDialog({ label, children, confirm, danger, className, onConfirm, onClose }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async () => {
    setBusy(true)
    setError(null)
    try {
      await onConfirm()
      onClose()
    } catch (e) {
      setError(errorText(e))
      setBusy(false)
    }
  }
  return (
    <Modal label={label} onCancel={onClose} focusFirst {...(className ? { className } : {})}>
      <div className="modal-body">{children}</div>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="modal-actions">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className={danger ? 'danger' : 'primary'} disabled={busy} onClick={() => void run()}>
          {confirm}
        </button>
      </div>
    </Modal>
  )
}
