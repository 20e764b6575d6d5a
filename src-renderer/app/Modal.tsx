// A modal dialog: role="dialog", aria-modal, labelled, focus trapped, Esc cancels (unless the
// caller handles keys itself). Rendered over the app through a portal.
import { useRef, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { trapTab, useFocusTrap } from './focus-trap'

export interface ModalProps {
  /** The dialog's accessible name (also its heading). */
  label: string
  children: ReactNode
  onCancel?: () => void
  /** Extra key handling; runs before the default Esc handling. Return true when handled. */
  onKey?: (event: KeyboardEvent<HTMLDivElement>) => boolean
  /** Focus the first field instead of the dialog itself. */
  focusFirst?: boolean
  className?: string
}

export function Modal({ label, children, onCancel, onKey, focusFirst = false, className }: ModalProps) {
  const ref = useRef<HTMLDivElement>(null)
  useFocusTrap(ref, focusFirst)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (ref.current) trapTab(event, ref.current)
    if (event.defaultPrevented) return
    // A key an input method is using (Esc closing its candidates, Enter committing) is not a command.
    if (event.nativeEvent.isComposing) return
    if (onKey?.(event)) return
    if (event.key === 'Escape' && onCancel) {
      event.preventDefault()
      onCancel()
    }
  }
  return createPortal(
    <div className="modal-backdrop">
      <div ref={ref} className={`modal ${className ?? ''}`} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} onKeyDown={onKeyDown}>
        <h2 className="modal-title">{label}</h2>
        {children}
      </div>
    </div>,
    document.body
  )
}
