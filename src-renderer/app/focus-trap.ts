// Keeps Tab focus inside a modal and gives focus back to where it was when the modal closes.
import { useEffect, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react'

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute('inert'))
}

/** Focuses `root` (or its first field) on mount, restores the previous focus on unmount. */
export function useFocusTrap(root: RefObject<HTMLElement | null>, focusFirst: boolean): void {
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const el = root.current
    if (el) (focusFirst ? (focusableIn(el)[0] ?? el) : el).focus()
    return () => {
      if (previous && previous.isConnected) previous.focus()
    }
  }, [root, focusFirst])
}

/** Tab / Shift+Tab handler: wraps around the modal's focusable elements. */
export function trapTab(event: KeyboardEvent | ReactKeyboardEvent, root: HTMLElement): void {
  if (event.key !== 'Tab') return
  const items = focusableIn(root)
  if (items.length === 0) {
    event.preventDefault()
    root.focus()
    return
  }
  const first = items[0]
  const last = items[items.length - 1]
  const active = document.activeElement
  if (event.shiftKey && (active === first || active === root || !root.contains(active))) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (active === last || !root.contains(active))) {
    event.preventDefault()
    first.focus()
  }
}
