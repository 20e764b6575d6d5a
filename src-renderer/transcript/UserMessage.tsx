import { memo } from 'react'
import type { UserItem } from './transcript-types'
import { dataUrl } from '../composer/attachments'

export const UserMessage = memo(function UserMessage({ item }: { item: UserItem }) {
  return (
    <div className="msg user" aria-label="Your message">
      <div className="msg-role">You{item.source === 'cli' ? ' (cli)' : ''}</div>
      <div className="msg-text">{item.content}</div>
      {item.images && item.images.length > 0 && (
        <ul className="thumbs" aria-label="Images sent">
          {item.images.map((image, index) => (
            <li key={index} className="thumb">
              <img src={dataUrl(image)} alt={image.name ?? `Image ${index + 1}`} />
            </li>
          ))}
        </ul>
      )}
      {item.originalContent !== undefined && (
        <details className="muted small">
          <summary>rewritten by a prompt policy; as typed</summary>
          <div className="msg-text">{item.originalContent}</div>
        </details>
      )}
    </div>
  )
})
