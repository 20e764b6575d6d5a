// The contract's part for a session's background tasks (the background-tasks plugin): the list,
// a task's output tail, and Stop. The list of a session no plugin has seen running comes from its
// log (ended tasks with their exit codes).
import { z } from 'zod'

const SessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a session id')
const TaskId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a task id')

export const BackgroundTaskSchema = z.object({
  id: z.string(),
  /** Absent: a command (`local_bash`); `local_agent`: a subagent run in the background. */
  taskType: z.enum(['local_bash', 'local_agent']).optional(),
  command: z.string(),
  agentType: z.string().optional(),
  description: z.string().optional(),
  outputPath: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'killed']),
  exitCode: z.number().int().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  movedAfterTimeoutMs: z.number().optional(),
  endReason: z.enum(['stopped', 'session-closed', 'host-exited']).optional()
})
export type BackgroundTaskView = z.output<typeof BackgroundTaskSchema>

/** The most output one `tasks/tail` answer carries. */
export const TASK_TAIL_MAX_CHARS = 64_000

export const TaskMethods = {
  /** The session's background tasks, oldest first. */
  'tasks/list': {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ tasks: z.array(BackgroundTaskSchema) })
  },
  /** The last `maxChars` characters of a task's output file. */
  'tasks/tail': {
    input: z.object({ sessionId: SessionId, taskId: TaskId, maxChars: z.number().int().min(1).max(TASK_TAIL_MAX_CHARS) }).strict(),
    output: z.object({ text: z.string() })
  },
  /**
   * Ctrl+B: moves the session's running foreground Bash (the call of `token`, or every one
   * running) to the background; its call answers the model at once and the turn goes on. Answers
   * the tasks made (none when no foreground command ran).
   */
  'tasks/background': {
    input: z.object({ sessionId: SessionId, token: z.string().min(1).max(256).optional() }).strict(),
    output: z.object({ tasks: z.array(BackgroundTaskSchema) })
  },
  /** Stops a running task (its whole process group) and answers once it ended. */
  'tasks/stop': {
    input: z.object({ sessionId: SessionId, taskId: TaskId }).strict(),
    output: z.object({ task: BackgroundTaskSchema })
  }
} as const
