// A session's background tasks as the UI (`tasks/*`) and `/tasks` show them: the ones the
// background-tasks plugin holds (running, or ended in this run), and the ones only the session's
// log still knows (ended in an earlier run, with their exit codes; one the log shows running was
// cut short when that run ended).
import { open } from 'node:fs/promises'
import type { BackgroundTaskInfo, BackgroundTaskService } from '../../src-shared/host/background-tasks'
import type { Kernel } from '../../src-shared/kernel'
import type { SessionEvent } from '../../src-shared/session/events'
import { tasksFromLog } from '../../src-shared/session/task-events'

/** A task id this session does not have (code for the contract's error). */
export class TaskNotFoundError extends Error {
  readonly code = 'TASK_NOT_FOUND'
  readonly field = 'taskId'
}

export function backgroundTasksOf(kernel: Kernel | undefined): BackgroundTaskService | undefined {
  return kernel?.getService('backgroundTasks')
}

export function sessionTasks(service: BackgroundTaskService | undefined, sessionId: string, events: readonly SessionEvent[]): BackgroundTaskInfo[] {
  const live = service?.list(sessionId) ?? []
  const known = new Set(live.map((task) => task.id))
  const logged = tasksFromLog(sessionId, events)
    .filter((task) => !known.has(task.info.id))
    .map((task) => task.info)
  return [...logged, ...live].sort((a, b) => a.startedAt - b.startedAt)
}

/** The last `maxChars` characters of a task's output: from the plugin, or for a task only the log knows, from its file. */
export async function taskTail(service: BackgroundTaskService | undefined, sessionId: string, events: readonly SessionEvent[], taskId: string, maxChars: number): Promise<string> {
  if (service?.list(sessionId).some((task) => task.id === taskId)) return service.tail(sessionId, taskId, maxChars)
  const logged = tasksFromLog(sessionId, events).find((task) => task.info.id === taskId)
  if (!logged) throw new TaskNotFoundError(`No task found with ID: ${taskId}`)
  return fileTail(logged.info.outputPath, maxChars)
}

export async function stopTask(service: BackgroundTaskService | undefined, sessionId: string, taskId: string): Promise<BackgroundTaskInfo> {
  const task = service?.list(sessionId).find((t) => t.id === taskId)
  if (!service || !task) throw new TaskNotFoundError(`No task found with ID: ${taskId}`)
  if (task.status !== 'running') throw Object.assign(new Error(`Task ${taskId} is not running (status: ${task.status})`), { code: 'TASK_NOT_RUNNING', field: 'taskId' })
  return service.stop(sessionId, taskId)
}

/** `/tasks`: one line per task (id, status and exit code, run time, what it runs), then its output file. */
export function tasksText(tasks: readonly BackgroundTaskInfo[], now = Date.now()): string {
  if (tasks.length === 0) return 'No background tasks in this session.'
  const running = tasks.filter((task) => task.status === 'running').length
  const lines = [`Background tasks: ${running} running, ${tasks.length - running} ended`]
  for (const task of tasks) {
    const ran = formatDuration((task.endedAt ?? now) - task.startedAt)
    const what = task.taskType === 'local_agent' ? `agent ${task.agentType ?? ''}: ${task.description ?? task.command}` : (task.description ?? task.command)
    lines.push(`  ${task.id}  ${statusText(task)}  ${ran}  ${what}`)
    lines.push(`    output: ${task.outputPath}`)
  }
  return lines.join('\n')
}

export function statusText(task: BackgroundTaskInfo): string {
  if (task.status === 'running') return 'running'
  // An agent has no exit code: how it ended is all there is.
  if (task.taskType === 'local_agent') {
    if (task.status !== 'killed') return task.status
    return task.endReason === 'session-closed' ? 'stopped when the session closed' : task.endReason === 'host-exited' ? 'ended when Seam stopped' : 'stopped'
  }
  const code = task.exitCode === undefined ? 'exit code unknown' : `exit code ${task.exitCode}`
  if (task.endReason === 'host-exited') return `ended when Seam stopped (${code})`
  if (task.endReason === 'session-closed') return `stopped when the session closed (${code})`
  if (task.endReason === 'stopped') return `stopped (${code})`
  return `${task.status} (${code})`
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`
}

async function fileTail(file: string, maxChars: number): Promise<string> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch {
    // The file is gone (the session's folder was cleaned): nothing to show.
    return ''
  }
  try {
    const { size } = await handle.stat()
    const from = Math.max(0, size - maxChars * 4)
    const buffer = Buffer.alloc(size - from)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    return text.length > maxChars ? text.slice(-maxChars) : text
  } finally {
    await handle.close()
  }
}
