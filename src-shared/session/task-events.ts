// Durable events about a session's background tasks (the background-tasks plugin): a command
// moved to or started in the background (`task/started`), and its end (`task/ended`). Not
// model-visible (the model hears of an end through a context message); they let a resumed
// session list its tasks with their exit codes, and mark those the host's death cut short.
// No Node imports here: these schemas are read by the host and the renderer alike.
import { z } from 'zod'

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
