// The live part of a tool card: approval wait, elapsed time and streamed output while running,
// and why a call was denied, failed, timed out or cancelled.
import { useEffect, useRef, useState } from 'react'
import { useHost } from '../app/host-context'
import { describeApproval } from './build-transcript'
import { formatDuration } from './format'
import { progressKey, useSessionStore } from './session-store'
import type { ToolCardItem, ToolStatus } from './transcript-types'

export function ToolStatusLine({ item, status }: { item: ToolCardItem; status: ToolStatus }) {
  switch (status) {
    case 'approval':
      return <p role="status" className="tool-status approval">Waiting for approval{item.approval?.reason ? `: ${item.approval.reason}` : ''}</p>
    case 'running':
      return <Running item={item} />
    case 'denied':
      return <p role="status" className="tool-status denied">Denied: {item.statusReason ?? (item.approval?.outcome ? describeApproval(item.approval.outcome, item.approval.note) : 'by policy')}</p>
    case 'error':
      return <p role="status" className="tool-status error">Error{item.result?.code ? ` ${item.result.code}` : ''}: {firstLine(item.result?.content)}</p>
    case 'timeout':
      return <p role="status" className="tool-status timeout">Timed out (TIMEOUT): {firstLine(item.result?.content)}</p>
    case 'cancelled':
    case 'interrupted':
      return <p role="status" className="tool-status muted">{item.statusReason ?? (status === 'cancelled' ? 'Cancelled' : 'No result was recorded')}</p>
    default:
      return item.approval?.outcome === 'allowed-session' ? <p className="muted small">allowed for this session</p> : item.approval?.outcome === 'allowed-always' ? <p className="muted small">always allowed (rule saved)</p> : null
  }
}

function Running({ item }: { item: ToolCardItem }) {
  const chunks = useSessionStore((state) => state.progress[progressKey(item.turnId, item.callId)])
  const now = useTicker(1000)
  const output = useRef<HTMLPreElement>(null)
  useEffect(() => {
    const el = output.current
    if (el) el.scrollTop = el.scrollHeight
  }, [chunks])
  const elapsed = item.startedAt ? Math.max(0, now - item.startedAt) : 0
  return (
    <div className="tool-running">
      <p role="status" className="tool-status running">
        <span className="spinner" aria-hidden="true" /> Running{item.startedAt ? ` · ${formatDuration(elapsed)}` : ''}
      </p>
      {item.name === 'Bash' && item.token && item.args.run_in_background !== true && <MoveToBackground token={item.token} />}
      {chunks && chunks.length > 0 && (
        <pre ref={output} className="code-block tool-live-output" aria-label="Live output">
          {chunks.map((chunk, i) => (
            <span key={i} className={`stream-${chunk.stream}`}>{chunk.text}</span>
          ))}
        </pre>
      )}
    </div>
  )
}

/**
 * Claude Code's Ctrl+B for this call: the command runs on as a background task (the tasks panel
 * lists it) and the model gets its answer at once. Ctrl+B anywhere does it for the running one.
 */
function MoveToBackground({ token }: { token: string }) {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false })
  if (!sessionId) return null
  const move = async () => {
    setState({ busy: true })
    try {
      const { tasks } = await host.invoke('tasks/background', { sessionId, token })
      setState(tasks.length > 0 ? { busy: false } : { busy: false, error: 'The command is no longer running.' })
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return (
    <div className="tool-background">
      <button type="button" className="small" onClick={() => void move()} disabled={state.busy} aria-keyshortcuts="Control+B" title="Move to background (Ctrl+B)">
        Move to background
      </button>
      {state.error && <p role="alert" className="tool-status error">{state.error}</p>}
    </div>
  )
}

function useTicker(ms: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}

function firstLine(text: string | undefined): string {
  if (!text) return ''
  const line = text.split('\n', 1)[0]
  return line.length > 300 ? `${line.slice(0, 297)}…` : line
}
