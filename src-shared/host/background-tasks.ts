// The `backgroundTasks` service: shell commands that run on after the tool call that started them
// (Bash `run_in_background`, or a foreground command that reached its timeout). Declared here so
// the Bash tool (src-main) hands commands over to the background-tasks plugin without importing
// it; with the plugin disabled the service is absent and Bash refuses `run_in_background`.
import type { Disposable } from '../kernel/types'

/** Claude Code's task statuses: `completed` exited 0, `failed` exited non-zero, `killed` was stopped (or ended with its session or host). */
export type BackgroundTaskStatus = 'running' | 'completed' | 'failed' | 'killed'

export interface BackgroundTaskInfo {
  /** Claude Code's shape: `b` and eight base-36 characters. */
  id: string
  sessionId: string
  command: string
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

export interface BackgroundTaskService {
  /** Why a new task cannot start in this session now (the running-task cap), or undefined. */
  refusal(sessionId: string): string | undefined
  /** Takes over a running command; its output goes to the task's output file. */
  adopt(request: AdoptRequest): BackgroundTaskInfo
  /** The session's tasks, running and ended (ended ones from the session log too), oldest first. */
  list(sessionId: string): readonly BackgroundTaskInfo[]
  /** The last `maxChars` characters of a task's output file ('' when it has none). */
  tail(sessionId: string, taskId: string, maxChars: number): Promise<string>
  /** Stops a running task (SIGTERM to its group, SIGKILL after the grace) and resolves once it ended. */
  stop(sessionId: string, taskId: string): Promise<BackgroundTaskInfo>
  /** The notice the model gets on its next step after the task ended (`<task-notification>`, with its output's last lines). */
  notice(sessionId: string, taskId: string): Promise<string>
  /** Called when a task starts or ends. */
  onChange(listener: (task: BackgroundTaskInfo) => void): Disposable
}

declare module '../kernel/types' {
  interface Services {
    backgroundTasks: BackgroundTaskService
  }
}
