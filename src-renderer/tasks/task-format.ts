// How the tasks panel words a task's state and run time.
import type { BackgroundTaskView } from '../../src-shared/contract/tasks'

export function statusLabel(task: BackgroundTaskView): string {
  if (task.status === 'running') return task.movedAfterTimeoutMs !== undefined ? 'running (moved to background)' : 'running'
  // An agent has no exit code: how it ended is all there is.
  if (task.taskType === 'local_agent') {
    if (task.status !== 'killed') return task.status
    return task.endReason === 'session-closed' ? 'stopped with the session' : task.endReason === 'host-exited' ? 'ended with Seam' : 'stopped'
  }
  const code = task.exitCode === undefined ? 'exit code unknown' : `exit code ${task.exitCode}`
  if (task.endReason === 'host-exited') return `ended with Seam (${code})`
  if (task.endReason === 'session-closed') return `stopped with the session (${code})`
  if (task.endReason === 'stopped') return `stopped (${code})`
  return `${task.status === 'completed' ? 'completed' : 'failed'} (${code})`
}

export function formatRunTime(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`
}
