// What an empty list or page shows: what is missing, and what to do about it. Every empty state of
// the app goes through this one component so they read and look alike.
import type { ReactNode } from 'react'
import type { LucideIcon } from './icons'

export function EmptyState({ icon: Icon, title, children, as = 'div' }: { icon: LucideIcon; title: string; children?: ReactNode; as?: 'div' | 'li' }) {
  const Tag = as
  return (
    <Tag className="empty-state">
      <Icon className="empty-state-icon" aria-hidden="true" />
      <p className="empty-state-title">{title}</p>
      {children && <p className="empty-state-hint">{children}</p>}
    </Tag>
  )
}
