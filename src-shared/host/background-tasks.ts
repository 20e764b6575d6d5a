// The `backgroundTasks` service: shell commands that run on after the tool call that started them
// (Bash `run_in_background`, or a foreground command that reached its timeout). Declared here so
// the Bash tool (src-main) hands commands over to the background-tasks plugin without importing
// it; with the plugin disabled the service is absent and Bash refuses `run_in_background`.
import type { Disposable } from '../kernel/types'

/** Claude Code's task statuses: `completed` exited 0, `failed` exited non-zero, `killed` was stopped (or ended with its session or host). */
export type BackgroundTaskStatus = 'running' | 'completed' | 'failed' | 'killed'

/** Claude Code's task types: a shell command, or a subagent running in the background. */
export type BackgroundTaskType = 'local_bash' | 'local_agent'

export interface BackgroundTaskInfo {
  /** Claude Code's shape: `b` and eight base-36 characters for a command; a background agent's task id is its agent id. */
  id: string
  sessionId: string
  /** Absent: `local_bash`. */
  taskType?: BackgroundTaskType
  /** A command's command line; for an agent, its description. */
  command: string
  /** An agent's type (`general-purpose`, a custom agent's name). */
  agentType?: string
  description?: string
  /** Absolute path of the file holding stdout and stderr together. */
  outputPath: string
  status: BackgroundTaskStatus
  /** Set once ended; absent when the host died with the task running (the code was never seen). */
  exitCode?: number
  startedAt: number
  endedAt?: number
  /** The command ran in the foreground and was moved to the background when this timeout passed. */
  movedAfterTimeoutMs?: number
  /** Why it was killed: `stopped` (TaskStop, KillShell, the UI), `session-closed`, `host-exited`. */
  endReason?: 'stopped' | 'session-closed' | 'host-exited'
}

/**
 * A command already running, handed to the service: the output that follows and the exit reach
 * `sink`; `signalGroup` reaches its whole process group. Whoever hands it over stops reading it.
 */
export interface RunningCommand {
  /** Absent when the process is not on this machine (a command in an ACP client's terminal) or there is none (a WebSocket monitor). */
  readonly pid?: number
  /** Ends it: SIGTERM or SIGKILL to a local process group; a terminal or a socket ends however it can. */
  signalGroup(signal: 'SIGTERM' | 'SIGKILL'): boolean
  /** Called once by the service. `exit` comes after the last `output`. */
  attach(sink: { output(text: string): void; exit(exitCode: number): void }): void
  /**
   * For output that is fetched rather than pushed (an ACP client's `terminal/output`): brings the
   * sink up to date. The service awaits it before each read of the task's output.
   */
  refresh?(): Promise<void>
}

export interface AdoptRequest {
  sessionId: string
  command: string
  description?: string
  /** Output the command printed before it was handed over (stdout and stderr in arrival order). */
  outputSoFar: string
  running: RunningCommand
  movedAfterTimeoutMs?: number
}

/**
 * A background subagent handed to the service (the subagents plugin): it stops when asked (its
 * child turn and everything under it) and says once how it ended. Its output file is its own.
 */
export interface RunningAgentTask {
  stop(): void
  /** Called once by the service; `end` comes once, with the agent's final text (or why it failed). */
  attach(sink: { end(outcome: { status: 'completed' | 'failed' | 'killed'; result: string }): void }): void
}

export interface AgentTaskRequest {
  sessionId: string
  /** The task's id (Claude Code's task id of a background agent). */
  agentId: string
  agentType: string
  description: string
  /** Where the agent's final text goes (written by the agent's runner). */
  outputPath: string
  running: RunningAgentTask
}

/**
 * A foreground command the user may move to the background by hand (Claude Code's Ctrl+B) while
 * it runs: the Bash call registers it for as long as it runs.
 */
export interface ForegroundCommand {
  sessionId: string
  /** The tool call's token (`SealedCall.token`, the `tool/call` event's `token`). */
  token: string
  command: string
  /** Moves it now: the task it runs on as (the tool call answers at once), or why it cannot move. */
  moveToBackground(): BackgroundTaskInfo | { refused: string }
}

export interface BackgroundTaskService {
  /** Why a new task cannot start in this session now (the running-task cap), or undefined. */
  refusal(sessionId: string): string | undefined
  /** Takes over a running command; its output goes to the task's output file. */
  adopt(request: AdoptRequest): BackgroundTaskInfo
  /**
   * Lists a background agent as a task (`local_agent`): `/tasks`, TaskOutput and TaskStop reach it.
   * The service does not notify the model of its end (its runner does, with the agent's result).
   */
  adoptAgent(request: AgentTaskRequest): BackgroundTaskInfo
  /** The session's tasks, running and ended (ended ones from the session log too), oldest first. */
  list(sessionId: string): readonly BackgroundTaskInfo[]
  /** The last `maxChars` characters of a task's output file ('' when it has none). */
  tail(sessionId: string, taskId: string, maxChars: number): Promise<string>
  /** Stops a running task (a command: SIGTERM to its group, SIGKILL after the grace; an agent: its child turn is cancelled) and resolves once it ended. */
  stop(sessionId: string, taskId: string): Promise<BackgroundTaskInfo>
  /** The notice the model gets on its next step after the task ended (`<task-notification>`, with its output's last lines). */
  notice(sessionId: string, taskId: string): Promise<string>
  /** A running foreground command the user may move to the background; disposing unregisters it (the call ended). */
  trackForeground(command: ForegroundCommand): Disposable
  /**
   * The user moves the session's running foreground command to the background (the one of the
   * call `token`, or every one running): its output so far goes to the task's output file, it runs
   * on as a task, and its tool call answers at once. Returns the tasks made (none when nothing
   * ran); throws when one could not move (the running-task cap), saying why.
   */
  moveToBackground(sessionId: string, token?: string): BackgroundTaskInfo[]
  /** Called when a task starts or ends. */
  onChange(listener: (task: BackgroundTaskInfo) => void): Disposable
}

declare module '../kernel/types' {
  interface Services {
    backgroundTasks: BackgroundTaskService
  }
}
