// Background commands (claude-code-extensions.md 1(d)): provides the `backgroundTasks` service the
// Bash tool hands commands to (`run_in_background`, or a foreground command at its timeout),
// registers TaskOutput, TaskStop, BashOutput and KillShell, tells the model on its next step when a
// task ended, records each task's start and end in the session log, and ends a session's tasks
// when the session closes (the host's death watcher ends them when the host dies).
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { definePlugin, tasksFromLog, type AgentHandle, type BackgroundTaskInfo, type BackgroundTaskService, type Context, type ForegroundCommand, type ToolDefinition } from '@seam/sdk'
import { Monitors } from './monitor'
import { agentOutput } from './output-file'
import { PluginMonitors } from './plugin-monitors'
import { TaskTable, type Task } from './task-table'
import { taskTools } from './tools'
import { endNotification, lastLines } from './wording'

export const BackgroundTasksConfigSchema = z
  .object({
    /** Running tasks one session may have; Bash `run_in_background` past it is refused (and a timed-out command is killed, as without this plugin). */
    maxRunningPerSession: z.number().int().positive().default(8),
    /** A task's output file keeps its last this many MB (it is trimmed once it passes that by a quarter). */
    maxOutputMB: z.number().positive().default(8),
    /** TaskStop and a closing session: time between SIGTERM and SIGKILL of the task's process group. */
    stopGraceMs: z.number().int().min(0).default(2_000),
    /** Lines of output the end notice carries. */
    notifyTailLines: z.number().int().min(0).default(10),
    /** Characters of output a TaskOutput or BashOutput result carries at most (the newest). */
    maxOutputChars: z.number().int().min(1_000).default(30_000),
    /** TaskOutput's wait when the call gives no `timeout`, and the largest it may ask. */
    taskOutputDefaultWaitMs: z.number().int().min(0).default(30_000),
    taskOutputMaxWaitMs: z.number().int().positive().default(600_000),
    /** Monitor: events (lines or frames) one delivery carries at most per monitor; the rest are counted, and kept in its output file. */
    monitorMaxEvents: z.number().int().positive().default(50),
    /** Monitor: a line that comes while no step or prompt takes it is delivered this long after it (the lines that come meanwhile with it), opening a turn when the session is idle. */
    monitorCoalesceMs: z.number().int().min(0).default(200),
    /** A command in an ACP client's terminal: its output is fetched (`terminal/output`) this often while it runs, and always before a Read of its file or a TaskOutput. */
    terminalRefreshMs: z.number().int().min(50).default(1_000)
  })
  .strict()
  .prefault({})

export type BackgroundTasksConfig = z.output<typeof BackgroundTasksConfigSchema>

export const PLUGIN_NAME = 'background-tasks'

export default definePlugin({
  name: PLUGIN_NAME,
  schema: BackgroundTasksConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const agents = new Map<string, AgentHandle>()
    /** Ended tasks whose end the model has not heard of yet, per session. */
    const unreported = new Map<string, Task[]>()
    const listeners = new Set<(task: BackgroundTaskInfo) => void>()
    /** Running foreground commands the user may move to the background (Ctrl+B), registered by their Bash calls. */
    const foreground = new Set<ForegroundCommand>()

    const table: TaskTable = new TaskTable({
      maxRunningPerSession: config.maxRunningPerSession,
      maxOutputBytes: Math.round(config.maxOutputMB * 1024 * 1024),
      stopGraceMs: config.stopGraceMs,
      refreshIntervalMs: config.terminalRefreshMs,
      folderOf: (sessionId) => outputFolder(ctx, agents.get(sessionId), sessionId),
      output: (task) => monitors.arrived(task.info.sessionId, task.info.id),
      changed(task, how) {
        const agent = agents.get(task.sessionId)
        // A background agent's start and end are in the log already (subagent/start, subagent/end), and its runner tells the model.
        if (task.taskType === 'local_agent') return tell(task)
        try {
          if (how === 'started') {
            agent?.record({
              type: 'task/started',
              taskId: task.id,
              command: task.command,
              ...(task.description !== undefined ? { description: task.description } : {}),
              outputPath: task.outputPath,
              ...(task.movedAfterTimeoutMs !== undefined ? { movedAfterTimeoutMs: task.movedAfterTimeoutMs } : {})
            })
          } else {
            agent?.record({
              type: 'task/ended',
              taskId: task.id,
              status: task.status === 'running' ? 'killed' : task.status,
              ...(task.exitCode !== undefined ? { exitCode: task.exitCode } : {}),
              ...(task.endReason !== undefined ? { endReason: task.endReason } : {})
            })
            const ended = table.get(task.sessionId, task.id)
            if (ended && task.endReason !== 'session-closed') unreported.set(task.sessionId, [...(unreported.get(task.sessionId) ?? []), ended])
          }
        } catch (error) {
          // The session's log is closed (the task outlived it by a moment): nothing left to record into.
          ctx.logger.warn(`background task ${task.id}: ${(error as Error).message}`)
        }
        tell(task)
      }
    })
    const tell = (task: BackgroundTaskInfo): void => {
      for (const listener of listeners) {
        try {
          listener(task)
        } catch (error) {
          ctx.logger.warn(`background task listener failed: ${(error as Error).message}`)
        }
      }
    }

    /** The notices of tasks that ended and were not reported otherwise (TaskOutput, BashOutput, TaskStop). */
    const takeNotices = async (sessionId: string): Promise<string[]> => {
      const tasks = (unreported.get(sessionId) ?? []).filter((task) => !task.endReported)
      unreported.delete(sessionId)
      for (const task of tasks) task.endReported = true
      return Promise.all(tasks.map(noticeOf))
    }
    const noticeOf = async (task: Task): Promise<string> => {
      const tail = config.notifyTailLines > 0 && task.output ? lastLines(await task.output.tail(8_192).catch(() => ''), config.notifyTailLines) : ''
      return endNotification(task.info, tail)
    }

    const service: BackgroundTaskService = {
      refusal: (sessionId) => table.refusal(sessionId),
      adopt: (request) => table.adopt(request),
      adoptAgent: (request) => table.adoptAgent(request),
      list: (sessionId) => table.list(sessionId).map((task) => ({ ...task.info })),
      async tail(sessionId, taskId, maxChars) {
        const task = table.get(sessionId, taskId)
        if (!task) throw new Error(`No task found with ID: ${taskId}`)
        if (task.info.taskType === 'local_agent') return agentOutput(task.info.outputPath, maxChars)
        await table.catchUp(task)
        return task.output ? task.output.tail(maxChars) : ''
      },
      async notice(sessionId, taskId) {
        const task = table.get(sessionId, taskId)
        if (!task) throw new Error(`No task found with ID: ${taskId}`)
        return noticeOf(task)
      },
      async stop(sessionId, taskId) {
        const task = table.get(sessionId, taskId)
        if (!task) throw new Error(`No task found with ID: ${taskId}`)
        if (task.info.status !== 'running') throw new Error(`Task ${taskId} is not running (status: ${task.info.status})`)
        await table.stop(task, 'stopped')
        return { ...task.info }
      },
      trackForeground(command) {
        foreground.add(command)
        return () => foreground.delete(command)
      },
      moveToBackground(sessionId, token) {
        const moved: BackgroundTaskInfo[] = []
        for (const command of [...foreground]) {
          if (command.sessionId !== sessionId || (token !== undefined && command.token !== token)) continue
          const outcome = command.moveToBackground()
          if ('refused' in outcome) throw new Error(outcome.refused)
          foreground.delete(command)
          moved.push({ ...outcome })
        }
        return moved
      },
      onChange(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      }
    }
    const monitors: Monitors = new Monitors(table, {
      bash: () => ctx.tools.get('Bash'),
      maxEventsPerDelivery: config.monitorMaxEvents,
      coalesceMs: config.monitorCoalesceMs,
      deliver: (sessionId, text) => agents.get(sessionId)?.deliver(text, 'monitor')
    })
    /** What the model is told before its next step: the monitors' new lines, then the notices of ended tasks. */
    const pendingContext = async (sessionId: string): Promise<string[]> => [
      ...(monitors.watches(sessionId) ? await monitors.take(sessionId) : []),
      ...(unreported.has(sessionId) ? await takeNotices(sessionId) : [])
    ]
    const hasPendingContext = (sessionId: string): boolean => unreported.has(sessionId) || monitors.watches(sessionId)

    // Claude Code plugins' monitors (plugin-monitors.ts): at session start, or when their skill is invoked.
    const pluginMonitors = new PluginMonitors({ monitors, plugins: () => ctx.maybe('claudePlugins'), running: (sessionId, taskId) => table.get(sessionId, taskId)?.info.status === 'running' })

    ctx.provide('backgroundTasks', service)
    ctx.tools.register(monitors.tool() as ToolDefinition)
    for (const tool of taskTools(table, { maxOutputChars: config.maxOutputChars, defaultWaitMs: config.taskOutputDefaultWaitMs, maxWaitMs: config.taskOutputMaxWaitMs })) {
      ctx.tools.register(tool)
    }

    // A Read of a fetched-output task's file (an ACP client's terminal) first brings the file up to date.
    ctx.on('tools/execute', async (call, _control, next) => {
      const file = call.name === 'Read' ? call.args.file_path : undefined
      if (typeof file === 'string') {
        const task = table.byOutputPath(call.sessionId, path.resolve(call.cwd, file))
        if (task?.running?.refresh) await table.catchUp(task)
      }
      return next()
    })

    ctx.on('agent/session-start', async (agent) => {
      agents.set(agent.sessionId, agent)
      // A resumed session: its ended tasks (commands and background agents) are listed again; one
      // the log shows running was cut short by the host's end. An agent's end is only ever its
      // `subagent/end`, so a cut-short agent is read so again on each resume rather than recorded.
      for (const restored of tasksFromLog(agent.sessionId, agent.events)) {
        if (table.get(agent.sessionId, restored.info.id)) continue
        if (restored.dangling && restored.info.taskType !== 'local_agent') {
          agent.record({ type: 'task/ended', taskId: restored.info.id, status: 'killed', endReason: 'host-exited' })
        }
        table.restore(restored.info)
      }
      await pluginMonitors.sessionStarted(agent)
    })

    ctx.on('session/appended', (sessionId, event) => {
      const agent = agents.get(sessionId)
      if (agent && (event.type === 'skill/loaded' || (event.type === 'user/message' && event.command !== undefined))) {
        pluginMonitors.appended(agent, event).catch((error: unknown) => ctx.logger.warn(`plugin monitors: ${(error as Error).message}`))
      }
    })

    ctx.on('agent/tool-batch', async (agent, _results, next) => {
      const decision = await next()
      if (decision.action !== 'continue' || !hasPendingContext(agent.sessionId)) return decision
      const notices = await pendingContext(agent.sessionId)
      return notices.length === 0 ? decision : { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...notices] }
    })

    ctx.on('agent/prompt-submit', async (agent, _content, _source, next) => {
      const decision = await next()
      if (decision.action !== 'allow' || !hasPendingContext(agent.sessionId)) return decision
      const notices = await pendingContext(agent.sessionId)
      return notices.length === 0 ? decision : { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...notices] }
    })

    ctx.on('agent/session-end', async (agent, reason) => {
      const running = table.list(agent.sessionId).filter((task) => task.running !== undefined || task.agent !== undefined)
      await Promise.all(running.map((task) => table.stop(task, 'session-closed')))
      await table.forget(agent.sessionId)
      unreported.delete(agent.sessionId)
      monitors.forget(agent.sessionId)
      pluginMonitors.forget(agent.sessionId)
      agents.delete(agent.sessionId)
      if (reason === 'deleted') await rm(outputFolder(ctx, agent, agent.sessionId), { recursive: true, force: true })
    })

    // The plugin going away (disabled, reloaded, the host stopping): no task outlives it.
    ctx.onDispose(() => table.killAll())
  }
})

/** `<sessions>/<id>.tasks/` beside the session's log; without a log, under Seam's home (or the temp folder in a bare test kernel). */
function outputFolder(ctx: Context, agent: AgentHandle | undefined, sessionId: string): string {
  if (agent) return agent.transcriptPath.replace(/\.jsonl$/, '') + '.tasks'
  const home = ctx.maybe('workspace')?.seamHome
  return path.join(home ?? path.join(tmpdir(), `seam-tasks-${process.getuid?.() ?? 'user'}`), 'tasks', sessionId)
}
