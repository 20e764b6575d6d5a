// What an empty list or page shows: what is missing, and what to do about it (with the action
// itself when there is one). Every empty state of the app goes through this one component so they
// read and look alike.
import type { ReactNode } from 'react'
import type { LucideIcon } from './icons'

export interface EmptyStateProps {
  icon: LucideIcon
  title: string
  /** What to do, in words. */
  children?: ReactNode
  /** The control that does it (a button, a row of them). */
  action?: ReactNode
  as?: 'div' | 'li'
  /** Names the empty state as a region when it stands for a whole panel. */
  label?: string
}

export function EmptyState({ icon: Icon, title, children, action, as = 'div', label }: EmptyStateProps) {
  const Tag = as
  return (
    <Tag className="empty-state" {...(label ? { role: 'region', 'aria-label': label } : {})}>
      <Icon className="empty-state-icon" aria-hidden="true" />
      <p className="empty-state-title">{title}</p>
      {children && <p className="empty-state-hint">{children}</p>}
      {action && <div className="empty-state-action">{action}</div>}
    </Tag>
  )
}
