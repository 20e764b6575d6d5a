// The follow-up tools of background commands, with Claude Code's names and inputs (1(d)):
// `TaskOutput {task_id, block, timeout}`, `TaskStop {task_id | shell_id}`, and the 2025 names
// `BashOutput {bash_id, filter}` (only what is new since the last read) and `KillShell {shell_id}`.
// Each answers about the calling session's tasks only.
import { z } from 'zod'
import { defineTool, type ToolDefinition, type ToolOutput } from '@seam/sdk'
import { agentOutput } from './output-file'
import type { Task, TaskTable } from './task-table'
import { bashOutputText, killedShell, legacyStatus, noShell, noTask, shellNotRunning, stoppedTask, taskNotRunning, taskOutputText, type RetrievalStatus } from './wording'

export interface TaskToolOptions {
  /** Characters of output a result carries at most (the newest are kept). */
  maxOutputChars: number
  /** TaskOutput's wait when the call gives no `timeout`. */
  defaultWaitMs: number
  maxWaitMs: number
}

export function taskTools(table: TaskTable, options: TaskToolOptions): ToolDefinition[] {
  return [taskOutputTool(table, options), taskStopTool(table), bashOutputTool(table, options), killShellTool(table)] as ToolDefinition[]
}

function taskOutputTool(table: TaskTable, options: TaskToolOptions) {
  return defineTool({
    name: 'TaskOutput',
    description: [
      'Gets the output and status of a background task: a Bash command run with run_in_background (or moved to the background at its timeout), or an agent run in the background (its output is its final result once it ends).',
      '- `block` (default true) waits until the task ends or `timeout` ms pass; `block: false` answers at once.',
      '- You are told when a background task ends, so you rarely need to wait for one. Its output file can also be read with Read.'
    ].join('\n'),
    inputSchema: z.object({
      task_id: z.string().min(1).describe('The ID of the task to get output from.'),
      block: z.boolean().default(true).describe('Whether to wait for the task to end.'),
      timeout: z.number().int().min(0).max(options.maxWaitMs).default(options.defaultWaitMs).describe(`How long to wait, in ms (at most ${options.maxWaitMs}).`)
    }),
    endsAtOwnDeadline: true,
    concurrent: true,
    async execute(args, exec): Promise<ToolOutput> {
      const task = table.get(exec.sessionId, args.task_id)
      if (!task) return failure(noTask(args.task_id))
      let retrieval: RetrievalStatus = 'success'
      if (task.info.status === 'running') {
        if (!args.block) retrieval = 'not_ready'
        else if (!(await endsWithin(task, args.timeout, exec.signal))) retrieval = exec.signal.aborted ? 'not_ready' : 'timeout'
      }
      await table.catchUp(task)
      const info = { ...task.info }
      const output = await wholeOutput(task, options.maxOutputChars)
      if (info.status !== 'running') task.endReported = true
      return {
        content: taskOutputText(retrieval, info, output),
        structured: {
          retrieval_status: retrieval,
          task: {
            task_id: info.id,
            task_type: info.taskType ?? 'local_bash',
            status: info.status,
            description: info.description ?? info.command,
            output,
            ...(info.agentType !== undefined ? { agentType: info.agentType } : {}),
            ...(info.exitCode !== undefined ? { exitCode: info.exitCode } : {})
          }
        }
      }
    }
  })
}

function taskStopTool(table: TaskTable) {
  return defineTool({
    name: 'TaskStop',
    description: 'Stops a running background task by its ID: a command (its whole process group: SIGTERM, then SIGKILL if it lingers) or a background agent (and everything it runs).',
    inputSchema: z.object({
      task_id: z.string().min(1).optional().describe('The ID of the background task to stop.'),
      shell_id: z.string().min(1).optional().describe('Deprecated: use task_id.')
    }),
    async execute(args, exec): Promise<ToolOutput> {
      const id = args.task_id ?? args.shell_id
      if (id === undefined) return failure('Missing required parameter: task_id')
      const task = table.get(exec.sessionId, id)
      if (!task) return failure(noTask(id))
      if (task.info.status !== 'running') return failure(taskNotRunning(task.info))
      await table.stop(task, 'stopped')
      task.endReported = true
      const message = stoppedTask(task.info)
      return { content: message, structured: { message, task_id: task.info.id, task_type: task.info.taskType ?? 'local_bash', command: task.info.command } }
    }
  })
}

function bashOutputTool(table: TaskTable, options: TaskToolOptions) {
  return defineTool({
    name: 'BashOutput',
    description: 'Older name kept for Claude Code compatibility: the output a background shell printed since the last BashOutput call, its status and exit code. `filter` keeps only lines matching a regular expression.',
    inputSchema: z.object({
      bash_id: z.string().min(1).describe('The ID of the background shell.'),
      filter: z.string().optional().describe('A regular expression: only matching lines are returned (the others are still consumed).')
    }),
    concurrent: true,
    async execute(args, exec): Promise<ToolOutput> {
      let pattern: RegExp | undefined
      if (args.filter !== undefined) {
        try {
          pattern = new RegExp(args.filter)
        } catch (error) {
          return failure(`filter: invalid regular expression ${JSON.stringify(args.filter)}: ${(error as Error).message}`)
        }
      }
      const task = shell(table, exec.sessionId, args.bash_id)
      if (!task) return failure(noShell(args.bash_id))
      await table.catchUp(task)
      const info = { ...task.info }
      let output = ''
      if (task.output) {
        const read = await task.output.readFrom(task.readUpTo)
        task.readUpTo = read.end
        output = read.text
      }
      if (pattern) output = output.split('\n').filter((line) => pattern.test(line)).join('\n')
      output = newest(output, options.maxOutputChars)
      if (info.status !== 'running') task.endReported = true
      return {
        content: bashOutputText(info, output),
        structured: { output, status: legacyStatus(info.status), ...(info.exitCode !== undefined ? { exitCode: info.exitCode } : {}) }
      }
    }
  })
}

function killShellTool(table: TaskTable) {
  return defineTool({
    name: 'KillShell',
    description: 'Older name kept for Claude Code compatibility: kills a background shell by its ID.',
    inputSchema: z.object({ shell_id: z.string().min(1).describe('The ID of the background shell to kill.') }),
    async execute(args, exec): Promise<ToolOutput> {
      const task = shell(table, exec.sessionId, args.shell_id)
      if (!task) return failure(noShell(args.shell_id))
      if (task.info.status !== 'running') return failure(shellNotRunning(task.info))
      await table.stop(task, 'stopped')
      task.endReported = true
      const message = killedShell(task.info)
      return { content: message, structured: { message, shell_id: task.info.id } }
    }
  })
}

/** The 2025 names reach shells only (a background agent is not a shell). */
function shell(table: TaskTable, sessionId: string, id: string): Task | undefined {
  const task = table.get(sessionId, id)
  return task?.info.taskType === 'local_agent' ? undefined : task
}

/** Whether the task ends within `ms` (false when the call is aborted first). */
function endsWithin(task: Task, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false)
    const done = (ended: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve(ended)
    }
    const onAbort = () => done(false)
    const timer = setTimeout(() => done(false), ms)
    signal.addEventListener('abort', onAbort, { once: true })
    void task.ended.then(() => done(true))
  })
}

/** The task's output, its newest `maxChars` characters when longer (a marker says where the rest is). */
async function wholeOutput(task: Task, maxChars: number): Promise<string> {
  // An agent's file holds its final text once it ended (empty before).
  if (task.info.taskType === 'local_agent') return agentOutput(task.info.outputPath, maxChars)
  if (!task.output) return ''
  // Four bytes at most per character: reading this far back is enough for `maxChars` characters.
  const from = Math.max(0, task.output.size - maxChars * 4)
  const { text } = await task.output.readFrom(from)
  const shown = text.length > maxChars ? text.slice(-maxChars) : text
  if (shown === text && from === 0 && !task.output.capped) return text
  return `[earlier output not shown: Read ${task.info.outputPath} for what the file keeps]\n${shown}`
}

function newest(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return `[${text.length - maxChars} earlier characters not shown]\n${text.slice(-maxChars)}`
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}
