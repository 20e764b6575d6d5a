// One card per tool call, as Claude Code's desktop app shows them: one line (the tool's icon and
// name, what it acted on, what came of it, its status and duration) that opens to the whole call:
// its sealed arguments (original and rewritten side by side), its live status, the result (a
// plugin's renderer, a diff for Edit/Write, or the text). A call waiting for approval, running,
// failed or denied opens by itself, as does a result a client plugin renders; the rest stay one
// line until clicked (Enter/Space on the line).
import { memo, useId } from 'react'
import { useAppStore } from '../app/app-store'
import { ChevronDown, ChevronRight } from '../app/icons'
import { useToolResultRenderer } from '../plugins/slots-store'
import { ToolResultSlot } from '../plugins/ToolResultSlot'
import { sessionActions, useSessionStore } from './session-store'
import { formatDuration } from './format'
import { ToolArgs } from './ToolArgs'
import { ToolDiff } from './ToolDiff'
import { ToolOutput } from './ToolOutput'
import { ToolStatusLine } from './ToolStatusLine'
import { STATUS_ICON, toolIcon } from './tool-icons'
import { resultSummary, toolTarget } from './tool-summary'
import type { ToolCardItem, ToolStatus } from './transcript-types'

const UNFINISHED: ReadonlySet<ToolStatus> = new Set(['pending', 'approval', 'running'])
const OPEN_BY_DEFAULT: ReadonlySet<ToolStatus> = new Set(['approval', 'running', 'error', 'timeout', 'denied'])

export const ToolCard = memo(function ToolCard({ item }: { item: ToolCardItem }) {
  const agentRunning = useSessionStore((state) => state.agent?.running ?? false)
  const workspace = useAppStore((state) => state.status?.workspace ?? undefined)
  const renderer = useToolResultRenderer(item.name)
  // The user's choice lives in the session store, so it outlasts the virtualized row's unmount.
  const choice = useSessionStore((state) => state.toolOpen[item.key] as boolean | undefined)
  const bodyId = useId()
  // A call with no result in a session that is not running will never finish.
  const status: ToolStatus = UNFINISHED.has(item.status) && !agentRunning ? 'interrupted' : item.status
  // A plugin's result view is what its user installed it for: shown without a click.
  const open = choice ?? (OPEN_BY_DEFAULT.has(status) || (renderer !== undefined && item.result !== undefined))
  const target = toolTarget(item.args, workspace)
  const outcome = resultSummary(item, status)
  const Icon = toolIcon(item.name)
  const StatusIcon = STATUS_ICON[status]
  const toggle = () => sessionActions.setToolOpen(item.key, !open)
  return (
    <article className={`tool-card status-${status}`} aria-label={`Tool call ${item.name}`} data-status={status}>
      <button type="button" className="tool-head" aria-expanded={open} aria-controls={bodyId} onClick={toggle}>
        {open ? <ChevronDown className="tool-chevron" aria-hidden="true" /> : <ChevronRight className="tool-chevron" aria-hidden="true" />}
        <Icon className="tool-icon" aria-hidden="true" />
        <span className="tool-name">{item.name}</span>
        {target && <code className="tool-summary" title={target}>{target}</code>}
        {outcome && <span className={`tool-outcome tone-${outcome.tone}`}>{outcome.text}</span>}
        <span className={`badge status-${status}`}>
          <StatusIcon className={status === 'running' ? 'status-icon spin' : 'status-icon'} aria-hidden="true" />
          {STATUS_TEXT[status]}
        </span>
        {item.result && <span className="muted tool-duration">{formatDuration(item.result.durationMs)}</span>}
      </button>
      {open && (
        <div className="tool-body" id={bodyId}>
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
        </div>
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
