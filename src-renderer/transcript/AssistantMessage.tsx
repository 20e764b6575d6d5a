import { memo } from 'react'
import { MarkdownBlocks } from './MarkdownBlocks'
import { Thinking } from './Thinking'
import type { AssistantItem, LiveItem } from './transcript-types'

export const AssistantMessage = memo(function AssistantMessage({ item }: { item: AssistantItem | LiveItem }) {
  const live = item.kind === 'live'
  return (
    <div className={live ? 'msg assistant live' : 'msg assistant'} aria-label="Assistant message" aria-busy={live || undefined}>
      <div className="msg-role">Assistant{live ? ' · writing…' : ''}</div>
      {item.thinking ? <Thinking text={item.thinking} live={live && !item.text} /> : null}
      {item.text ? <MarkdownBlocks text={item.text} /> : null}
      {item.kind === 'assistant' && item.partial && <div className="muted small">(stream interrupted: this is what had arrived)</div>}
    </div>
  )
})
