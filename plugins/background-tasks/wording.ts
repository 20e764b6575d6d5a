// What the model reads from these tools, worded as Claude Code words it (claude-code-extensions.md
// 1(d)): the notice of an ended task, TaskOutput's and BashOutput's tagged results, the errors.
import type { BackgroundTaskInfo } from '@seam/sdk'

export const noTask = (id: string): string => `No task found with ID: ${id}`
export const noShell = (id: string): string => `No shell found with ID: ${id}`
export const taskNotRunning = (task: BackgroundTaskInfo): string => `Task ${task.id} is not running (status: ${task.status})`
export const shellNotRunning = (task: BackgroundTaskInfo): string =>
  `Shell ${task.id} is not running, so cannot be killed (status: ${legacyStatus(task.status)})`
export const stoppedTask = (task: BackgroundTaskInfo): string => `Successfully stopped task: ${task.id} (${task.command})`
export const killedShell = (task: BackgroundTaskInfo): string => `Successfully killed shell: ${task.id} (${task.command})`

/** The 2025 BashOutput statuses: a stopped shell reads as `failed`. */
export function legacyStatus(status: BackgroundTaskInfo['status']): 'running' | 'completed' | 'failed' {
  return status === 'running' ? 'running' : status === 'completed' ? 'completed' : 'failed'
}

/** Claude Code's one-line summary of how a background command ended. */
export function endSummary(task: BackgroundTaskInfo): string {
  // A background agent has no exit code; its summary is the subagents plugin's (Agent "x" completed).
  if (task.taskType === 'local_agent') return `Agent "${task.description ?? task.command}" ${task.status === 'killed' ? 'was stopped' : task.status}`
  const what = `Background command "${task.description ?? task.command}"`
  if (task.status === 'killed') return `${what} was stopped`
  if (task.status === 'failed') return `${what} failed with exit code ${task.exitCode ?? 'unknown'}`
  return `${what} completed (exit code ${task.exitCode ?? 0})`
}

/**
 * The notice the model gets on its next step after a task ended: Claude Code's
 * `<task-notification>`, plus the output's last lines (Seam's addition, README: the model sees a
 * failure without a Read).
 */
export function endNotification(task: BackgroundTaskInfo, lastLines: string): string {
  const lines = [
    '<task-notification>',
    `<task-id>${task.id}</task-id>`,
    `<output-file>${escapeXml(task.outputPath)}</output-file>`,
    `<status>${task.status}</status>`,
    `<summary>${escapeXml(endSummary(task))}</summary>`
  ]
  if (lastLines !== '') lines.push('<output-tail>', escapeXml(lastLines), '</output-tail>')
  lines.push('</task-notification>')
  return lines.join('\n')
}

export type RetrievalStatus = 'success' | 'timeout' | 'not_ready'

/** TaskOutput's text: Claude Code's tagged sections. */
export function taskOutputText(retrieval: RetrievalStatus, task: BackgroundTaskInfo, output: string): string {
  const sections = [`<retrieval_status>${retrieval}</retrieval_status>`, `<task_id>${task.id}</task_id>`, `<task_type>${task.taskType ?? 'local_bash'}</task_type>`, `<status>${task.status}</status>`]
  if (task.exitCode !== undefined) sections.push(`<exit_code>${task.exitCode}</exit_code>`)
  if (output !== '') sections.push(`<output>\n${output.replace(/\n$/, '')}\n</output>`)
  return sections.join('\n\n')
}

/** BashOutput's text (2025 shape): the status, the exit code once ended, the new output. */
export function bashOutputText(task: BackgroundTaskInfo, output: string): string {
  const sections = [`<status>${legacyStatus(task.status)}</status>`]
  if (task.exitCode !== undefined) sections.push(`<exit_code>${task.exitCode}</exit_code>`)
  if (output !== '') sections.push(`<stdout>\n${output.replace(/\n$/, '')}\n</stdout>`)
  sections.push(`<timestamp>${new Date().toISOString()}</timestamp>`)
  return sections.join('\n\n')
}

/** The last `count` lines of `text` (a trailing newline does not count as a line). */
export function lastLines(text: string, count: number): string {
  const lines = text.replace(/\n$/, '').split('\n')
  return lines.slice(-count).join('\n')
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
