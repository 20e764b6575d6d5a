// Rows about what the model's context holds: the instructions files delivered to it, and the
// marker where the history was compacted (everything above it is still shown; the model only
// has the summary).
import { memo } from 'react'
import type { CompactionItem, InstructionsItem } from './transcript-types'

export const InstructionsRow = memo(function InstructionsRow({ item }: { item: InstructionsItem }) {
  const count = item.files.length
  return (
    <details className="context-row instructions-row muted" aria-label="Instructions files">
      <summary>
        {count === 0 ? 'Instructions files removed' : `Instructions loaded: ${count} file${count === 1 ? '' : 's'}`}
        {item.removed.length > 0 ? ` (removed: ${item.removed.join(', ')})` : ''}
      </summary>
      {item.files.map((file) => (
        <div key={file.path} className="instructions-file">
          <div className="small">
            <strong>{file.path}</strong> <span className="muted">{file.memoryType} · {file.loadReason}{file.parent ? ` · imported by ${file.parent}` : ''}</span>
          </div>
          <pre className="msg-text small">{file.content}</pre>
        </div>
      ))}
    </details>
  )
})

export const CompactionRow = memo(function CompactionRow({ item }: { item: CompactionItem }) {
  const tokens = item.tokensBefore !== undefined ? ` · ~${item.tokensBefore} → ${item.tokensAfter ?? '?'} tokens` : ''
  return (
    <details className="compaction-row" role="separator" aria-label="Conversation compacted">
      <summary>
        Conversation compacted ({item.trigger}): {item.replacedMessages} messages above were replaced by a summary for the model{tokens}
      </summary>
      {item.instructions ? <div className="small muted">Instructions: {item.instructions}</div> : null}
      <div className="msg-text small">{item.summary}</div>
    </details>
  )
})
