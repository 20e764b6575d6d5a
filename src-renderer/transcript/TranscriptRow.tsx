// Picks the component for one transcript row.
import { memo } from 'react'
import type { QueuedMessage } from './session-store'
import { AssistantMessage } from './AssistantMessage'
import { HookRow } from './HookRow'
import { CompactionRow, InstructionsRow } from './ContextRows'
import { BlockedRow, ContextRow, NoticeRow, QueuedRow, RevertRow, RewindRow, SteeringRow, TurnEndRow } from './SmallRows'
import { ChangesCard } from './ChangesCard'
import { ToolCard } from './ToolCard'
import { AGENT_TOOLS, SubagentCard } from '../subagents/SubagentCard'
import type { LiveItem, TranscriptItem } from './transcript-types'
import { UserMessage } from './UserMessage'

export type TranscriptRowItem = TranscriptItem | LiveItem | ({ kind: 'queued'; key: string } & { queued: QueuedMessage })

/**
 * Memoised on the row's item: a streamed frame changes only the live row's item (settled items keep
 * their identity), so the rows in view are not rendered again on every frame.
 */
export const TranscriptRow = memo(function TranscriptRow({ row }: { row: TranscriptRowItem }) {
  switch (row.kind) {
    case 'user':
      return <UserMessage item={row} />
    case 'assistant':
    case 'live':
      return <AssistantMessage item={row} />
    case 'tool':
      return row.subagent || AGENT_TOOLS.has(row.name) ? <SubagentCard item={row} /> : <ToolCard item={row} />
    case 'steering':
      return <SteeringRow item={row} />
    case 'context':
      return <ContextRow item={row} />
    case 'blocked':
      return <BlockedRow item={row} />
    case 'notice':
      return <NoticeRow item={row} />
    case 'hook':
      return <HookRow item={row} />
    case 'turn-end':
      return <TurnEndRow item={row} />
    case 'instructions':
      return <InstructionsRow item={row} />
    case 'compaction':
      return <CompactionRow item={row} />
    case 'changes':
      return <ChangesCard item={row} />
    case 'revert':
      return <RevertRow item={row} />
    case 'rewind':
      return <RewindRow item={row} />
    case 'queued':
      return <QueuedRow item={row.queued} />
    default: {
      const unknown: never = row
      return <div className="muted">unknown row {JSON.stringify(unknown)}</div>
    }
  }
})

/** A first guess of a row's height before it is measured. */
export function estimateRowHeight(row: TranscriptRowItem | undefined): number {
  switch (row?.kind) {
    case 'tool':
      return 140
    case 'assistant':
    case 'live':
      return 90
    case 'hook':
    case 'notice':
    case 'turn-end':
    case 'context':
    case 'instructions':
      return 28
    case 'compaction':
    case 'revert':
    case 'rewind':
      return 40
    case 'changes':
      return 100
    default:
      return 60
  }
}
