import { memo } from 'react'
import { RewindAction } from './RewindAction'
import type { UserItem } from './transcript-types'

export const UserMessage = memo(function UserMessage({ item }: { item: UserItem }) {
  return (
    <div className="msg user" aria-label="Your message">
      <div className="msg-role">
        You{item.source === 'cli' ? ' (cli)' : ''}
        <RewindAction seq={item.seq} />
      </div>
      <div className="msg-text">{item.content}</div>
      {item.originalContent !== undefined && (
        <details className="muted small">
          <summary>rewritten by a prompt policy; as typed</summary>
          <div className="msg-text">{item.originalContent}</div>
        </details>
      )}
    </div>
  )
})
