// A subagent's own transcript inside its card: the task it was given, its text and its tool
// calls (the same cards as the session's), notices and hooks. Rows that act on the session
// (rewind, revert, retry) belong to the parent's transcript and are not shown here.
import { AssistantMessage } from '../transcript/AssistantMessage'
import { HookRow } from '../transcript/HookRow'
import { ContextRow, NoticeRow } from '../transcript/SmallRows'
import { ToolCard } from '../transcript/ToolCard'
import type { Transcript, TranscriptItem } from '../transcript/transcript-types'

export function NestedTranscript({ transcript }: { transcript: Transcript }) {
  const rows = transcript.items.filter(shown)
  if (rows.length === 0 && !transcript.live) return <p className="muted small">Nothing recorded yet.</p>
  return (
    <ol className="subagent-rows">
      {rows.map((row) => (
        <li key={row.key}>
          <NestedRow row={row} />
        </li>
      ))}
      {transcript.live && (
        <li key={transcript.live.key}>
          <AssistantMessage item={transcript.live} />
        </li>
      )}
    </ol>
  )
}

function shown(item: TranscriptItem): boolean {
  return item.kind === 'user' || item.kind === 'assistant' || item.kind === 'tool' || item.kind === 'notice' || item.kind === 'hook' || item.kind === 'context' || item.kind === 'turn-end' || item.kind === 'steering'
}

function NestedRow({ row }: { row: TranscriptItem }) {
  switch (row.kind) {
    case 'user':
      return (
        <div className="msg user subagent-task" aria-label="Task given to the subagent">
          <div className="msg-role">Task</div>
          <div className="msg-text">{row.content}</div>
        </div>
      )
    case 'steering':
      return <div className="msg-text small">{row.text}</div>
    case 'assistant':
      return <AssistantMessage item={row} />
    case 'tool':
      return <ToolCard item={row} />
    case 'notice':
      return <NoticeRow item={row} />
    case 'hook':
      return <HookRow item={row} />
    case 'context':
      return <ContextRow item={row} />
    case 'turn-end':
      return <p className={`tool-status ${row.reason === 'error' ? 'error' : 'muted'}`}>Ended: {row.reason === 'cancelled' ? 'stopped' : row.reason}{row.error ? ` (${row.error})` : ''}</p>
    default:
      return null
  }
}
