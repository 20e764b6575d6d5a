// An Agent call's card: the subagent's type and task, its live status (running, done, failed,
// stopped), what it cost and the tokens it used (or, instead, the row a Claude Code plugin's
// `subagentStatusLine` command drew for it), Stop while it runs, and its own transcript
// (tool calls and text) folded inside: streamed while it runs, read from its child log when the
// session is reopened. The parent's model only ever sees the final text (the result below).
import { memo, useEffect, useRef, useState } from 'react'
import { useHost } from '../app/host-context'
import { errorText } from '../app/errors'
import { formatDuration } from '../transcript/format'
import { ToolOutput } from '../transcript/ToolOutput'
import { ToolStatusLine } from '../transcript/ToolStatusLine'
import { useSessionStore } from '../transcript/session-store'
import type { ToolCardItem } from '../transcript/transcript-types'
import { NestedTranscript } from './NestedTranscript'
import { subagentActions, usageSoFar, useSubagentStore } from './subagent-store'
import { useStatusLine } from './status-line-store'
import { StatusLineRow } from './StatusLineRow'
import { PROBE_CELLS, useStatusColumns } from './status-columns'

export type SubagentStatus = 'starting' | 'running' | 'done' | 'failed' | 'stopped'

const STATUS_TEXT: Record<SubagentStatus, string> = { starting: 'starting', running: 'running', done: 'done', failed: 'failed', stopped: 'stopped' }

/** The Agent tool's names (Task is its old one). */
export const AGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task'])

export function subagentStatus(item: ToolCardItem, sessionRunning: boolean): SubagentStatus {
  const end = item.subagent?.end
  if (end) return end.reason === 'completed' || end.reason === 'max_steps' ? 'done' : end.reason === 'cancelled' ? 'stopped' : 'failed'
  // A background agent's call answered at launch; the agent runs on until its subagent/end.
  if (item.subagent && launchedInBackground(item)) return 'running'
  if (item.result) return item.status === 'cancelled' || item.status === 'interrupted' ? 'stopped' : item.result.isError ? 'failed' : 'done'
  if (item.status === 'denied' || item.status === 'error' || item.status === 'timeout') return 'failed'
  if (!sessionRunning) return 'stopped'
  return item.subagent ? 'running' : 'starting'
}

export const SubagentCard = memo(function SubagentCard({ item }: { item: ToolCardItem }) {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const sessionRunning = useSessionStore((state) => state.agent?.running ?? false)
  const agentId = item.subagent?.agentId
  const log = useSubagentStore((state) => (agentId !== undefined && state.sessionId === sessionId ? state.byAgent[agentId] : undefined))
  const [open, setOpen] = useState(false)
  const [stopping, setStopping] = useState(false)
  const [stopError, setStopError] = useState<string | null>(null)
  const status = subagentStatus(item, sessionRunning)
  const agentType = item.subagent?.agentType ?? stringArg(item.args.subagent_type) ?? 'general-purpose'
  const description = item.subagent?.description ?? stringArg(item.args.description) ?? ''
  // A plugin's subagentStatusLine row, when its command drew one: it takes the default rows' place.
  const statusLine = useStatusLine(host, sessionId, agentId)
  // The row's width in cells is the command's `columns` while the subagent runs.
  const probeRowRef = useRef<HTMLParagraphElement>(null)
  const probeCellsRef = useRef<HTMLSpanElement>(null)
  useStatusColumns(host, sessionId, status === 'running', probeRowRef, probeCellsRef)

  useEffect(() => {
    if (open && agentId !== undefined && sessionId !== null) void subagentActions.load(host, sessionId, agentId)
  }, [open, agentId, sessionId, host])

  const end = item.subagent?.end
  const live = usageSoFar(log?.events ?? [])
  const usage = end ? { inputTokens: end.usage.inputTokens, outputTokens: end.usage.outputTokens, costUsd: end.costUsd, toolUseCount: end.toolUseCount } : live
  const latest = status === 'running' ? latestActivity(log?.transcript.items ?? []) : null

  const stop = async () => {
    if (agentId === undefined || sessionId === null) return
    setStopping(true)
    setStopError(null)
    try {
      const { stopped } = await host.invoke('subagents/stop', { sessionId, agentId })
      if (!stopped) setStopError('This subagent is no longer running.')
    } catch (error) {
      setStopError(errorText(error))
    } finally {
      setStopping(false)
    }
  }

  return (
    <article className={`tool-card subagent-card status-${status}`} aria-label={`Subagent ${agentType}: ${description}`} data-status={status}>
      <p ref={probeRowRef} className="subagent-status-line small status-cell-probe" aria-hidden="true">
        <span ref={probeCellsRef}>{'0'.repeat(PROBE_CELLS)}</span>
      </p>
      <header className="tool-head">
        <span className="tool-name">{item.name}</span>
        <span className="subagent-type">{agentType}</span>
        <span className="subagent-description" title={description}>{description}</span>
        <span className={`badge subagent-status status-${status}`} aria-label={`Status: ${STATUS_TEXT[status]}`}>{STATUS_TEXT[status]}</span>
        {status === 'running' && (
          <button type="button" className="subagent-stop" onClick={() => void stop()} disabled={stopping} aria-label={`Stop subagent ${agentType}`}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        )}
      </header>
      {statusLine && <StatusLineRow line={statusLine} />}
      <p className="subagent-meta muted small" aria-label="Subagent usage" hidden={statusLine !== undefined}>
        {usage.toolUseCount} tool {usage.toolUseCount === 1 ? 'call' : 'calls'} · {formatTokens(usage.inputTokens)} in / {formatTokens(usage.outputTokens)} out
        {usage.costUsd !== undefined ? ` · ${formatCost(usage.costUsd)}` : ''}
        {end ? ` · ${formatDuration(end.durationMs)} · ${end.model}` : ''}
        {item.subagent?.background || launchedInBackground(item) ? ' · background' : ''}
      </p>
      {end?.error && <p role="status" className="tool-status error">Failed: {end.error}</p>}
      {status === 'stopped' && !end && <p role="status" className="tool-status muted">{item.statusReason ?? 'Stopped before it finished'}</p>}
      {!item.subagent && !item.result && <ToolStatusLine item={item} status={item.status} />}
      {latest && !statusLine && <p className="subagent-latest muted small" aria-live="polite">{latest}</p>}
      {stopError && <p className="form-error" role="alert">{stopError}</p>}
      {agentId !== undefined && (
        <div className="subagent-nested">
          <button type="button" className="link subagent-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : 'Show'} the subagent’s transcript
          </button>
          {open && (
            <div className="subagent-transcript" role="group" aria-label={`Transcript of subagent ${agentType}`}>
              {log?.loading && !log.loaded && <p className="muted small">Loading…</p>}
              {log?.error && <p className="form-error" role="alert">{log.error}</p>}
              {log && <NestedTranscript transcript={log.transcript} />}
            </div>
          )}
        </div>
      )}
      {item.result && <ToolOutput content={item.result.content} isError={item.result.isError} collapsed summary="What the parent agent was told" />}
    </article>
  )
})

/** The Agent call answered Claude Code's `async_launched`: the agent runs in the background. */
export function launchedInBackground(item: ToolCardItem): boolean {
  const structured = item.result?.structured
  return typeof structured === 'object' && structured !== null && (structured as { status?: unknown }).status === 'async_launched'
}

function stringArg(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** What a running subagent did last: its newest tool call or a line of its text. */
function latestActivity(items: readonly { kind: string }[]): string | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as { kind: string; name?: string; args?: Record<string, unknown>; text?: string }
    if (item.kind === 'tool') return `Latest: ${item.name}${summaryOf(item.args)}`
    if (item.kind === 'assistant' && item.text) return `Latest: ${oneLine(item.text)}`
  }
  return null
}

function summaryOf(args: Record<string, unknown> | undefined): string {
  if (!args) return ''
  for (const key of ['command', 'file_path', 'pattern', 'path', 'url']) if (typeof args[key] === 'string') return ` ${oneLine(args[key] as string)}`
  return ''
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}

export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n)
}

export function formatCost(usd: number): string {
  return `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`
}
