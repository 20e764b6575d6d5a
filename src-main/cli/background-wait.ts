// `seam run` does not end while a background agent its session started still runs (Claude Code's
// `-p` waits too): the agent's end opens a turn with its notification (AgentHandle.deliver), and
// that turn runs before the command ends. A stop signal ends the wait at once; closing the host
// then stops the agents with their session.
import type { BackgroundTaskInfo, BackgroundTaskService } from '../../src-shared/host/background-tasks'

export interface Waitable {
  whenIdle(): Promise<void>
}

const runningAgent = (sessionId: string) => (task: BackgroundTaskInfo) => task.sessionId === sessionId && task.taskType === 'local_agent' && task.status === 'running'

/**
 * Resolves when the session is idle and none of its background agents runs, or when `stop`
 * aborts: true when it had an agent to wait for (turns may have run since).
 */
export async function waitForBackgroundAgents(agent: Waitable, tasks: BackgroundTaskService | undefined, sessionId: string, stop: AbortSignal): Promise<boolean> {
  if (!tasks) return false
  const running = runningAgent(sessionId)
  let waited = false
  for (;;) {
    await agent.whenIdle()
    if (stop.aborted || !tasks.list(sessionId).some(running)) return waited
    waited = true
    // Listening starts in the same tick as the check above: no end falls between them.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        off()
        stop.removeEventListener('abort', done)
        resolve()
      }
      const off = tasks.onChange((task) => {
        if (task.sessionId === sessionId && task.taskType === 'local_agent' && task.status !== 'running') done()
      })
      stop.addEventListener('abort', done, { once: true })
    })
  }
}
