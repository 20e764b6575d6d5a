// The background tasks of every session of this host: the running ones (their command, output
// file and process group) and the ended ones (from this run, or from the session log of a resumed
// session). It enforces the per-session cap, writes each task's output to its file, stops tasks
// (TaskStop, the UI, a closing session) and tells its owner when a task starts or ends.
import { randomInt } from 'node:crypto'
import path from 'node:path'
import type { AdoptRequest, AgentTaskRequest, BackgroundTaskInfo, BackgroundTaskStatus, RunningAgentTask, RunningCommand } from '@seam/sdk'
import { TaskOutputFile } from './output-file'

export interface TaskTableOptions {
  maxRunningPerSession: number
  maxOutputBytes: number
  stopGraceMs: number
  /** A command whose output is fetched rather than pushed (an ACP client's terminal) is fetched this often while it runs. */
  refreshIntervalMs: number
  /** The folder a session's output files go to. */
  folderOf(sessionId: string): string
  /** A task's command printed something (already handed to its output file). */
  output?(task: Task): void
  /** A task started or ended (its info is a snapshot). */
  changed(task: BackgroundTaskInfo, how: 'started' | 'ended'): void
}

/** One task: what it is, where its output goes, how to reach its process while it runs. */
export interface Task {
  info: BackgroundTaskInfo
  /** Absent for an ended task known only from the log, and for an agent (its runner writes its file). */
  output?: TaskOutputFile
  running?: RunningCommand
  /** A background agent while it runs. */
  agent?: RunningAgentTask
  /** Resolves when the task has ended and its output is in the file. */
  ended: Promise<void>
  /** BashOutput's position: output up to here was already returned. */
  readUpTo: number
  /** The model was told how it ended (TaskOutput, BashOutput or a notification), or need not be. */
  endReported: boolean
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

export class TaskTable {
  private readonly sessions = new Map<string, Map<string, Task>>()

  constructor(private readonly options: TaskTableOptions) {}

  refusal(sessionId: string): string | undefined {
    const running = this.list(sessionId).filter((task) => task.info.status === 'running').length
    if (running < this.options.maxRunningPerSession) return undefined
    return `Cannot start another background task: this session already runs ${running} (the limit is ${this.options.maxRunningPerSession}, the background-tasks plugin's maxRunningPerSession). Stop one with TaskStop first, or run the command in the foreground.`
  }

  adopt(request: AdoptRequest): BackgroundTaskInfo {
    const id = this.newId()
    const outputPath = path.join(this.options.folderOf(request.sessionId), `${id}.output`)
    const output = new TaskOutputFile(outputPath, this.options.maxOutputBytes)
    output.append(request.outputSoFar)
    const info: BackgroundTaskInfo = {
      id,
      sessionId: request.sessionId,
      command: request.command,
      ...(request.description !== undefined ? { description: request.description } : {}),
      outputPath,
      status: 'running',
      startedAt: Date.now(),
      ...(request.movedAfterTimeoutMs !== undefined ? { movedAfterTimeoutMs: request.movedAfterTimeoutMs } : {})
    }
    let markEnded!: () => void
    const task: Task = { info, output, running: request.running, ended: new Promise((resolve) => (markEnded = resolve)), readUpTo: 0, endReported: false }
    this.tasksOf(request.sessionId).set(id, task)
    const stopRefreshing = request.running.refresh ? this.keepFresh(task) : () => undefined
    request.running.attach({
      output: (text) => {
        output.append(text)
        this.options.output?.(task)
      },
      exit: (exitCode) => {
        stopRefreshing()
        task.running = undefined
        task.info = { ...task.info, status: statusOf(exitCode, task.info.endReason), exitCode, endedAt: Date.now() }
        // The end is announced once its output is in the file (a reader after the notice sees it all).
        void output
          .flushed()
          .catch(() => undefined)
          .then(() => {
            markEnded()
            this.options.changed({ ...task.info }, 'ended')
          })
      }
    })
    this.options.changed({ ...info }, 'started')
    return { ...info }
  }

  /** A background agent (the subagents plugin): listed, waited for and stopped like a command; its end is not announced to the model here. */
  adoptAgent(request: AgentTaskRequest): BackgroundTaskInfo {
    const info: BackgroundTaskInfo = {
      id: request.agentId,
      sessionId: request.sessionId,
      taskType: 'local_agent',
      command: request.description,
      description: request.description,
      agentType: request.agentType,
      outputPath: request.outputPath,
      status: 'running',
      startedAt: Date.now()
    }
    let markEnded!: () => void
    const task: Task = { info, agent: request.running, ended: new Promise((resolve) => (markEnded = resolve)), readUpTo: 0, endReported: true }
    this.tasksOf(request.sessionId).set(info.id, task)
    request.running.attach({
      end: ({ status }) => {
        task.agent = undefined
        task.info = { ...task.info, status: task.info.endReason !== undefined ? 'killed' : status, endedAt: Date.now() }
        markEnded()
        this.options.changed({ ...task.info }, 'ended')
      }
    })
    this.options.changed({ ...info }, 'started')
    return { ...info }
  }

  /** An ended task known from a session's log (a resumed session). */
  restore(info: BackgroundTaskInfo): void {
    const tasks = this.tasksOf(info.sessionId)
    if (tasks.has(info.id)) return
    tasks.set(info.id, { info, ended: Promise.resolve(), readUpTo: 0, endReported: true })
  }

  get(sessionId: string, taskId: string): Task | undefined {
    return this.sessions.get(sessionId)?.get(taskId)
  }

  list(sessionId: string): Task[] {
    return [...(this.sessions.get(sessionId)?.values() ?? [])]
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()]
  }

  /** Brings the task's output file up to date when its output is fetched rather than pushed (an ACP client's terminal). */
  async catchUp(task: Task): Promise<void> {
    const refresh = task.running?.refresh
    if (!refresh) return
    try {
      await refresh.call(task.running)
    } catch {
      // The terminal is gone (the client released or lost it): what the file holds is all there is.
    }
  }

  /**
   * Fetches a fetched-output command's output at a modest pace while it runs, so its file (read by
   * Read, or a person) is never far behind. One fetch at a time: the next is timed from the end of
   * the last, so a slow client is never asked twice at once. Returns the stop.
   */
  private keepFresh(task: Task): () => void {
    let timer: NodeJS.Timeout | undefined
    let stopped = false
    const schedule = (): void => {
      timer = setTimeout(() => {
        void this.catchUp(task).then(() => {
          if (!stopped && task.running) schedule()
        })
      }, this.options.refreshIntervalMs)
      timer.unref()
    }
    schedule()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }

  /** The session's task whose output file is `file` (an absolute path). */
  byOutputPath(sessionId: string, file: string): Task | undefined {
    return this.list(sessionId).find((task) => task.info.outputPath === file)
  }

  /** SIGTERM to the task's group, SIGKILL after the grace; resolves when it ended. */
  async stop(task: Task, reason: NonNullable<BackgroundTaskInfo['endReason']>): Promise<void> {
    if (task.agent) {
      if (task.info.endReason === undefined) task.info = { ...task.info, endReason: reason }
      task.agent.stop()
      return task.ended
    }
    const running = task.running
    if (!running) return task.ended
    if (task.info.endReason === undefined) task.info = { ...task.info, endReason: reason }
    running.signalGroup('SIGTERM')
    const kill = setTimeout(() => running.signalGroup('SIGKILL'), this.options.stopGraceMs)
    try {
      await task.ended
    } finally {
      clearTimeout(kill)
    }
  }

  /** Synchronous, for a host going away: every running group gets SIGKILL now. */
  killAll(): void {
    for (const tasks of this.sessions.values()) {
      for (const task of tasks.values()) {
        if (task.agent) {
          if (task.info.endReason === undefined) task.info = { ...task.info, endReason: 'session-closed' }
          task.agent.stop()
        }
        if (!task.running) continue
        if (task.info.endReason === undefined) task.info = { ...task.info, endReason: 'session-closed' }
        task.running.signalGroup('SIGKILL')
      }
    }
  }

  /** Forgets a session's tasks (after they ended), closing their files. */
  async forget(sessionId: string): Promise<void> {
    const tasks = this.sessions.get(sessionId)
    this.sessions.delete(sessionId)
    await Promise.all([...(tasks?.values() ?? [])].map((task) => task.output?.close()))
  }

  private tasksOf(sessionId: string): Map<string, Task> {
    let tasks = this.sessions.get(sessionId)
    if (!tasks) this.sessions.set(sessionId, (tasks = new Map()))
    return tasks
  }

  /** `b` and eight base-36 characters, as Claude Code's ids look (`bt2kelt7i`). */
  private newId(): string {
    for (;;) {
      let id = 'b'
      for (let i = 0; i < 8; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)]
      if (![...this.sessions.values()].some((tasks) => tasks.has(id))) return id
    }
  }
}

export function statusOf(exitCode: number, endReason: BackgroundTaskInfo['endReason']): BackgroundTaskStatus {
  if (endReason !== undefined) return 'killed'
  return exitCode === 0 ? 'completed' : 'failed'
}
