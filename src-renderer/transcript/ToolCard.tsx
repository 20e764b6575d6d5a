// One card per tool call: the tool, its sealed arguments (original and rewritten side by side),
// its live status, the result (a plugin's renderer, a diff for Edit/Write, or the text) and the
// duration.
import { memo } from 'react'
import { useToolResultRenderer } from '../plugins/slots-store'
import { ToolResultSlot } from '../plugins/ToolResultSlot'
import { useSessionStore } from './session-store'
import { callSummary, formatDuration } from './format'
import { ToolArgs } from './ToolArgs'
import { ToolDiff } from './ToolDiff'
import { ToolOutput } from './ToolOutput'
import { ToolStatusLine } from './ToolStatusLine'
import type { ToolCardItem, ToolStatus } from './transcript-types'

const UNFINISHED: ReadonlySet<ToolStatus> = new Set(['pending', 'approval', 'running'])

export const ToolCard = memo(function ToolCard({ item }: { item: ToolCardItem }) {
  const agentRunning = useSessionStore((state) => state.agent?.running ?? false)
  const renderer = useToolResultRenderer(item.name)
  // A call with no result in a session that is not running will never finish.
  const status: ToolStatus = UNFINISHED.has(item.status) && !agentRunning ? 'interrupted' : item.status
  const summary = callSummary(item.args)
  return (
    <article className={`tool-card status-${status}`} aria-label={`Tool call ${item.name}`} data-status={status}>
      <header className="tool-head">
        <span className="tool-name">{item.name}</span>
        {summary && <code className="tool-summary" title={summary}>{summary}</code>}
        <span className={`badge status-${status}`}>{STATUS_TEXT[status]}</span>
        {item.result && <span className="muted tool-duration">{formatDuration(item.result.durationMs)}</span>}
      </header>
      {item.parent && <div className="muted small">called by another tool ({item.parent})</div>}
      <ToolArgs item={item} />
      <ToolStatusLine item={item} status={status} />
      {grantNote(item) && <p className="tool-grant" role="note">{grantNote(item)}</p>}
      {item.result && (
        <>
          {renderer && <ToolResultSlot entry={renderer} card={item} />}
          {!item.result.isError && <ToolDiff name={item.name} structured={item.result.structured} />}
          {status === 'denied' ? (
            <ToolOutput content={item.result.content} isError collapsed summary="What the model was told" />
          ) : (
            <ToolOutput content={item.result.content} isError={item.result.isError} collapsed={Boolean(renderer)} />
          )}
        </>
      )}
    </article>
  )
})

/** A call that ran without a dialog because an earlier "Allow for this session" covered it. */
function grantNote(item: ToolCardItem): string | null {
  const verdict = item.result?.verdict
  if (!verdict || verdict.stage !== 'approval' || verdict.approval !== 'allowed-session' || item.approval) return null
  return `Ran under a session grant: ${verdict.reason?.replace(/^allowed for this session: /, '') ?? 'allowed for this session'}`
}

export const STATUS_TEXT: Record<ToolStatus, string> = {
  pending: 'queued',
  approval: 'waiting for approval',
  running: 'running',
  done: 'done',
  error: 'error',
  denied: 'denied',
  timeout: 'timed out',
  cancelled: 'cancelled',
  interrupted: 'interrupted'
}
