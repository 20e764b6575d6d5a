// A resumed session's tasks, from its log: each `task/started` with its `task/ended`; one without
// an end was running when the host stopped (it died, or quit before the end was written).
import type { BackgroundTaskInfo, SessionEvent } from '@seam/sdk'

export interface LoggedTask {
  info: BackgroundTaskInfo
  /** Started and never ended in the log. */
  dangling: boolean
}

export function tasksFromLog(sessionId: string, events: readonly SessionEvent[]): LoggedTask[] {
  const tasks = new Map<string, LoggedTask>()
  for (const event of events) {
    if (event.type === 'task/started') {
      tasks.set(event.taskId, {
        dangling: true,
        info: {
          id: event.taskId,
          sessionId,
          command: event.command,
          ...(event.description !== undefined ? { description: event.description } : {}),
          outputPath: event.outputPath,
          status: 'killed',
          endReason: 'host-exited',
          startedAt: event.ts,
          ...(event.movedAfterTimeoutMs !== undefined ? { movedAfterTimeoutMs: event.movedAfterTimeoutMs } : {})
        }
      })
    } else if (event.type === 'task/ended') {
      const task = tasks.get(event.taskId)
      if (!task) continue
      const { endReason: _unknown, ...started } = task.info
      task.dangling = false
      task.info = {
        ...started,
        status: event.status,
        endedAt: event.ts,
        ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
        ...(event.endReason !== undefined ? { endReason: event.endReason } : {})
      }
    }
  }
  return [...tasks.values()]
}
