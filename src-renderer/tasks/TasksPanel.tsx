// The session's background tasks: commands (Bash run_in_background, or moved to the background at
// their timeout) and agents run in the background (Agent run_in_background), above the composer: each running one with its run time, the live tail of its output
// and Stop; ended ones with their exit code (their output on request). Shown once the session has
// had a task. The list follows the session's `task/started` / `task/ended` (and, for agents,
// `subagent/start` / `subagent/end`) events and is read from
// the host (`tasks/list`); output tails come from `tasks/tail`, polled while a task runs.
import { useEffect, useMemo, useRef, useState } from 'react'
import type { BackgroundTaskView } from '../../src-shared/contract/tasks'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useSessionStore } from '../transcript/session-store'
import { EmptyState } from '../app/EmptyState'
import { Terminal } from '../app/icons'
import { formatRunTime, statusLabel } from './task-format'
import { tasksPanelActions, useTasksPanelStore } from './tasks-panel-store'
import { useStatusLine } from '../subagents/status-line-store'
import { StatusLineRow } from '../subagents/StatusLineRow'

/** Characters of output a row shows. */
const TAIL_CHARS = 4_000
/** The events after which the list is read again: a command's or an agent's start and end. */
const TASK_EVENTS = new Set(['task/started', 'task/ended', 'subagent/start', 'subagent/end'])
/** How often a running task's tail and run time refresh. */
const REFRESH_MS = 1_000

export function TasksPanel() {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const events = useSessionStore((state) => state.events)
  // The list is read again whenever a task starts or ends.
  const taskEvents = useMemo(() => events.filter((event) => TASK_EVENTS.has(event.type)).length, [events])
  const [tasks, setTasks] = useState<BackgroundTaskView[]>([])
  const [error, setError] = useState<string | null>(null)
  const [open, setOpen] = useState(true)
  const asked = useTasksPanelStore((state) => state.asked)

  useEffect(() => {
    if (!sessionId || taskEvents === 0) {
      setTasks([])
      return
    }
    let current = true
    host.invoke('tasks/list', { sessionId }).then(
      (answer) => current && (setTasks(answer.tasks), setError(null)),
      (e: unknown) => current && setError(errorText(e))
    )
    return () => {
      current = false
    }
  }, [host, sessionId, taskEvents])

  if (!sessionId || tasks.length === 0) {
    if (error) return <p className="banner error" role="alert">Background tasks: {error}</p>
    return asked ? <NoTasks /> : null
  }
  const running = tasks.filter((task) => task.status === 'running').length
  return (
    <section className="tasks-panel" aria-label="Background tasks">
      <div className="tasks-head">
        <button type="button" className="link" aria-expanded={open} aria-controls="tasks-list" onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'} tasks
        </button>
        <span className="tasks-count" role="status" aria-label="Background task count">
          {running} running, {tasks.length - running} ended
        </span>
      </div>
      {error && <p className="banner error" role="alert">{error}</p>}
      {open && (
        <ul id="tasks-list" className="tasks-list">
          {tasks.map((task) => (
            <TaskRow key={task.id} sessionId={sessionId} task={task} onError={setError} />
          ))}
        </ul>
      )}
    </section>
  )
}

/** Asked for before the session has a task: what appears here, and how to start one. */
function NoTasks() {
  return (
    <section className="tasks-panel" aria-label="Background tasks">
      <EmptyState
        icon={Terminal}
        title="No background tasks yet."
        action={<button type="button" className="link small" onClick={tasksPanelActions.hide}>Hide tasks</button>}
      >
        Commands the agent runs in the background show here while they run, with their live output and a Stop button: a Bash
        call made with run_in_background, one moved there when it outlasts its timeout, or a background agent. To start one,
        ask for it in a message, for example “run the test suite in the background”.
      </EmptyState>
    </section>
  )
}

function TaskRow({ sessionId, task, onError }: { sessionId: string; task: BackgroundTaskView; onError(error: string): void }) {
  const host = useHost()
  const [now, setNow] = useState(Date.now())
  const [tail, setTail] = useState<string | null>(null)
  const [showOutput, setShowOutput] = useState(task.status === 'running')
  const [stopping, setStopping] = useState(false)
  const running = task.status === 'running'
  const outputRef = useRef<HTMLPreElement>(null)
  // A background agent's row drawn by a plugin's subagentStatusLine (its task id is its agent id).
  const statusLine = useStatusLine(host, sessionId, task.taskType === 'local_agent' ? task.id : undefined)

  // A tail reads from the bottom: the newest line stays in view as output arrives.
  useEffect(() => {
    const pre = outputRef.current
    if (pre) pre.scrollTop = pre.scrollHeight
  }, [tail])

  useEffect(() => {
    if (!showOutput) return
    let current = true
    const read = () =>
      host.invoke('tasks/tail', { sessionId, taskId: task.id, maxChars: TAIL_CHARS }).then(
        (answer) => current && setTail(answer.text),
        (e: unknown) => current && onError(errorText(e))
      )
    void read()
    if (!running) return () => void (current = false)
    const timer = setInterval(() => {
      setNow(Date.now())
      void read()
    }, REFRESH_MS)
    return () => {
      current = false
      clearInterval(timer)
    }
  }, [host, sessionId, task.id, running, showOutput, onError])

  useEffect(() => {
    if (!running || showOutput) return
    const timer = setInterval(() => setNow(Date.now()), REFRESH_MS)
    return () => clearInterval(timer)
  }, [running, showOutput])

  const stop = async () => {
    setStopping(true)
    try {
      await host.invoke('tasks/stop', { sessionId, taskId: task.id })
    } catch (e) {
      onError(errorText(e))
    } finally {
      setStopping(false)
    }
  }

  const title = task.taskType === 'local_agent' ? `Agent ${task.agentType ?? ''}: ${task.description ?? task.command}` : (task.description ?? task.command)
  return (
    <li className="task-row" data-status={task.status} aria-label={`Task ${task.id}`}>
      <div className="task-line">
        <span className="task-status" aria-label="Status">{statusLabel(task)}</span>
        <span className="task-title" title={task.command}>{title}</span>
        <span className="task-time muted" aria-label="Run time">{formatRunTime((task.endedAt ?? now) - task.startedAt)}</span>
        {running ? (
          <button type="button" className="danger small" disabled={stopping} onClick={() => void stop()} aria-label={`Stop ${task.id}`}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="button" className="link small" aria-expanded={showOutput} onClick={() => setShowOutput(!showOutput)} aria-label={`${showOutput ? 'Hide' : 'Show'} output of ${task.id}`}>
            {showOutput ? 'Hide output' : 'Output'}
          </button>
        )}
      </div>
      {statusLine && <StatusLineRow line={statusLine} />}
      {showOutput && (
        <pre ref={outputRef} className="task-output" aria-label={`Output of ${task.id}`} tabIndex={0}>
          {tail === null ? 'Reading…' : tail === '' ? '(no output yet)' : tail}
        </pre>
      )}
      <div className="task-file muted">{task.outputPath}</div>
    </li>
  )
}
