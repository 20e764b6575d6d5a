import { memo } from 'react'
import { MentionedFiles } from './MentionedFiles'
import { RewindAction } from './RewindAction'
import { SentImages } from './SentImages'
import type { UserItem } from './transcript-types'

export const UserMessage = memo(function UserMessage({ item }: { item: UserItem }) {
  // A slash command shows as typed; what the model got is one click away.
  if (item.slashCommand && item.originalContent !== undefined) {
    return (
      <div className="msg user" aria-label="Your message">
        <div className="msg-role">You{item.source === 'cli' ? ' (cli)' : ''}</div>
        <div className="msg-text">{item.originalContent}</div>
        <details className="muted small">
          <summary>/{item.slashCommand.name} ({item.slashCommand.source} command) expanded; as sent to the model</summary>
          <div className="msg-text">{item.content}</div>
        </details>
      </div>
    )
  }
  return (
    <div className="msg user" aria-label="Your message">
      <div className="msg-role">
        You{item.source === 'cli' ? ' (cli)' : ''}
        <RewindAction seq={item.seq} />
      </div>
      <div className="msg-text">{item.content}</div>
      <SentImages images={item.images} />
      {item.mentions && item.mentions.length > 0 ? <MentionedFiles files={item.mentions} /> : null}
      {item.originalContent !== undefined && (
        <details className="muted small">
          <summary>rewritten by a prompt policy; as typed</summary>
          <div className="msg-text">{item.originalContent}</div>
        </details>
      )}
    </div>
  )
})
