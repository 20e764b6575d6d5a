// The one-line transcript rows: steering, context, blocked prompts, notices, turn ends, queued sends.
import { MentionedFiles } from './MentionedFiles'
import { TurnFailedActions } from './TurnFailedActions'
import { SentImages } from './SentImages'
import { memo } from 'react'
import { useSessionStore, type QueuedMessage } from './session-store'
import type { BlockedItem, ContextItem, NoticeItem, RevertItem, RewindItem, SteeringItem, TurnEndItem } from './transcript-types'

export const SteeringRow = memo(function SteeringRow({ item }: { item: SteeringItem }) {
  return (
    <div className="msg steering" aria-label="Steering message">
      <div className="msg-role">{item.source === 'user' ? 'You (steering the turn)' : `Continued${item.by ? ` by ${item.by}` : ''}`}</div>
      <div className="msg-text">{item.text}</div>
      <SentImages images={item.images} />
      {item.mentions && item.mentions.length > 0 ? <MentionedFiles files={item.mentions} /> : null}
    </div>
  )
})

/** How a context row names where it came from, when its source says more than its name. */
const CONTEXT_TITLES: Record<string, string> = {
  'model/context': 'System prompt and tools sent to the model',
  'background-agent': 'A background agent ended: the model was told'
}

export const ContextRow = memo(function ContextRow({ item }: { item: ContextItem }) {
  if (item.channel) return <ChannelMessage channel={item.channel} />
  return (
    <details className="context-row muted">
      <summary>{CONTEXT_TITLES[item.source] ?? `context from ${item.source}`}</summary>
      <div className="msg-text small">{item.text}</div>
    </details>
  )
})

/** A message a channel pushed (Claude Code's `<channel source="...">`): its source, its meta as attributes, its text. */
function ChannelMessage({ channel }: { channel: NonNullable<ContextItem['channel']> }) {
  const meta = Object.entries(channel.meta)
  return (
    <div className="msg channel" aria-label={`Channel message from ${channel.server}`}>
      <div className="msg-role">
        ← {channel.server}
        {meta.length > 0 ? <span className="channel-meta"> · {meta.map(([key, value]) => `${key}=${value}`).join(' · ')}</span> : null}
      </div>
      <div className="msg-text">{channel.content}</div>
    </div>
  )
}

export const BlockedRow = memo(function BlockedRow({ item }: { item: BlockedItem }) {
  return (
    <div className="blocked-row" role="note" aria-label="Blocked prompt">
      <div><strong>Prompt blocked</strong>{item.by ? ` by ${item.by}` : ''}: {item.reason}</div>
      <div className="msg-text muted small">{item.prompt}</div>
    </div>
  )
})

export const NoticeRow = memo(function NoticeRow({ item }: { item: NoticeItem }) {
  return (
    <div className={`notice-row ${item.level}`} role={item.level === 'error' ? 'alert' : 'note'}>
      <span className="notice-level">{item.level}</span> <span className="notice-text">{item.text}</span>{' '}
      <span className="muted small">— {item.source}</span>
    </div>
  )
})

const END_TEXT: Record<TurnEndItem['reason'], string> = {
  rejected: 'Turn rejected',
  cancelled: 'Turn cancelled',
  error: 'Turn failed',
  max_steps: 'Turn stopped: step limit reached'
}

export const TurnEndRow = memo(function TurnEndRow({ item }: { item: TurnEndItem }) {
  return (
    <div className={`turn-end ${item.reason}`}>
      <span role="note" aria-label="Turn end">
        {END_TEXT[item.reason]}
        {item.error ? `: ${item.error}` : ''}
      </span>
      {item.reason === 'error' && <TurnFailedActions item={item} />}
    </div>
  )
})

export function QueuedRow({ item }: { item: QueuedMessage }) {
  const running = useSessionStore((state) => state.agent?.running ?? false)
  const label = item.mode === 'steering' ? 'queued (steers the running turn)' : item.mode === 'turn' && running ? 'queued (next turn)' : 'sending…'
  return (
    <div className="msg user queued" aria-label="Queued message">
      <div className="msg-role">You · <span className="queued-label">{label}</span></div>
      <div className="msg-text">{item.content}</div>
      <SentImages images={item.images} />
    </div>
  )
}

function fileNames(paths: readonly string[]): string {
  const names = paths.map((p) => p.split('/').pop() ?? p)
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`
}

export const RevertRow = memo(function RevertRow({ item }: { item: RevertItem }) {
  return (
    <div className="restore-row" role="note" aria-label="Revert">
      {item.paths.length === 0 ? 'Reverted nothing: the files were already as before.' : `Reverted ${item.scope === 'turn' ? "the turn's changes to " : ''}${fileNames(item.paths)}`}
    </div>
  )
})

export const RewindRow = memo(function RewindRow({ item }: { item: RewindItem }) {
  const files = item.paths.length === 0 ? 'no files to restore' : `${item.paths.length === 1 ? '1 file' : `${item.paths.length} files`} restored (${fileNames(item.paths)})`
  return (
    <div className="restore-row rewind-row" role="note" aria-label="Rewind">
      Rewound to before “{item.prompt.length > 60 ? `${item.prompt.slice(0, 60)}…` : item.prompt}”: the greyed-out messages above are no longer part of the
      conversation; {files}.
    </div>
  )
})
