// The header's overflow menu in a narrow window: a "More" button opening a menu of the items that
// do not fit (WAI-ARIA menu button: Enter/Space/ArrowDown open on the first item, arrows move,
// Esc closes and returns to the button, Tab or a click outside closes).
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { MoreHorizontal } from './icons'

export interface OverflowItem {
  label: string
  /** A toggle (the hook inspector): shown as a checked menu item. */
  checked?: boolean
  onSelect(): void
}

export function OverflowMenu({ items }: { items: readonly OverflowItem[] }) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const menuId = useId()
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLUListElement>(null)

  useEffect(() => {
    if (!open) return
    ;(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[active])?.focus()
  }, [open, active])
  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    return () => document.removeEventListener('pointerdown', onPointer)
  }, [open])

  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) button.current?.focus()
  }
  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const last = items.length - 1
    const moves: Record<string, number> = { ArrowDown: active === last ? 0 : active + 1, ArrowUp: active === 0 ? last : active - 1, Home: 0, End: last }
    if (event.key in moves) {
      event.preventDefault()
      setActive(moves[event.key]!)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      close(true)
    } else if (event.key === 'Tab') {
      setOpen(false)
    }
  }

  return (
    <span className="overflow-menu">
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label="More"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          setActive(0)
          setOpen(!open)
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault()
            setActive(event.key === 'ArrowDown' ? 0 : items.length - 1)
            setOpen(true)
          }
        }}
      >
        <MoreHorizontal aria-hidden="true" size={16} />
      </button>
      {open && (
        <ul ref={menu} id={menuId} role="menu" aria-label="More" className="menu" onKeyDown={onMenuKey}>
          {items.map((item, i) => (
            <li
              key={item.label}
              role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
              aria-checked={item.checked}
              tabIndex={i === active ? 0 : -1}
              className="menu-item"
              onClick={() => {
                item.onSelect()
                close(true)
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault()
                  item.onSelect()
                  close(true)
                }
              }}
            >
              {item.label}
              {item.checked && <span className="muted small"> (open)</span>}
            </li>
          ))}
        </ul>
      )}
    </span>
  )
}
