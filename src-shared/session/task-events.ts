// Durable events about a session's background tasks (the background-tasks plugin): a command
// moved to or started in the background (`task/started`), and its end (`task/ended`). Not
// model-visible (the model hears of an end through a context message); they let a resumed
// session list its tasks with their exit codes, and mark those the host's death cut short.
// No Node imports here: these schemas are read by the host and the renderer alike.
import { z } from 'zod'
import type { BackgroundTaskInfo } from '../host/background-tasks'
import type { SessionEvent, SessionEventOf } from './events'

type SubagentEnd = SessionEventOf<'subagent/end'>

const base = { seq: z.number().int().positive(), ts: z.number() }

export const TaskStartedEvent = z.object({
  type: z.literal('task/started'),
  ...base,
  taskId: z.string().min(1),
  command: z.string(),
  description: z.string().optional(),
  /** Absolute path of the file holding its stdout and stderr. */
  outputPath: z.string().min(1),
  /** Set when a foreground command was moved to the background at its timeout. */
  movedAfterTimeoutMs: z.number().int().positive().optional()
})

export const TaskEndedEvent = z.object({
  type: z.literal('task/ended'),
  ...base,
  taskId: z.string().min(1),
  status: z.enum(['completed', 'failed', 'killed']),
  /** Absent when the host died with the task running (found so on resume). */
  exitCode: z.number().int().optional(),
  endReason: z.enum(['stopped', 'session-closed', 'host-exited']).optional()
})

/**
 * A session's tasks as its log tells them: each `task/started` with its `task/ended`, and each
 * background agent's `subagent/start` (with `outputFile`) with its `subagent/end`. One without
 * an end (`dangling`) was running when the host stopped (it died, or quit before the end was
 * written): it reads as killed with `endReason` `host-exited` and no exit code.
 */
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
    } else if (event.type === 'subagent/start' && event.outputFile !== undefined) {
      tasks.set(event.agentId, {
        dangling: true,
        info: {
          id: event.agentId,
          sessionId,
          taskType: 'local_agent',
          command: event.description,
          description: event.description,
          agentType: event.agentType,
          outputPath: event.outputFile,
          status: 'killed',
          endReason: 'host-exited',
          startedAt: event.ts
        }
      })
    } else if (event.type === 'subagent/end') {
      const task = tasks.get(event.agentId)
      if (task?.info.taskType !== 'local_agent') continue
      const { endReason: _unknown, ...started } = task.info
      task.dangling = false
      task.info = { ...started, status: agentTaskStatus(event.reason), endedAt: event.ts }
    }
  }
  return [...tasks.values()]
}

/** How a background agent's task reads by how its turn ended, as its notice said (a turn limit still answered). */
function agentTaskStatus(reason: SubagentEnd['reason']): BackgroundTaskInfo['status'] {
  if (reason === 'cancelled') return 'killed'
  return reason === 'completed' || reason === 'max_steps' ? 'completed' : 'failed'
}
