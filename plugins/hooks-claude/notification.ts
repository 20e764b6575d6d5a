// Notification <- the session log (`session/appended`), at the moments Claude Code notifies
// (claude-code-hooks.md §6 table: input `message`, `title`, `notification_type`, matcher on
// `notification_type`):
// - `permission_prompt` when an approval is waiting for the user (`approval/asked`);
// - `idle_prompt` when a turn has ended and the user has not sent anything for
//   `idlePromptSeconds` (Claude Code: 60 s); a new turn or the session's end cancels the wait.
// The spec does not record Claude Code's wording, so the texts are Seam's own. Non-blocking: the
// hooks run in the background and nothing waits for them; their runs and failures are recorded
// like any hook's (hook/invoked, hook/result, notices).
import type { AgentHandle, Context, SessionEvent } from '@seam/sdk'
import { occurrence, showSystemMessages, type Bridge } from './bridge'

export const NOTIFICATION_TITLE = 'Seam'

export function permissionPromptMessage(tool: string): string {
  return `Seam needs your permission to use ${tool}`
}

export const IDLE_PROMPT_MESSAGE = 'Seam is waiting for your input'

export function watchNotifications(ctx: Context, bridge: Bridge): void {
  const idle = new Map<string, ReturnType<typeof setTimeout>>()
  const clearIdle = (sessionId: string): void => {
    const timer = idle.get(sessionId)
    if (timer !== undefined) clearTimeout(timer)
    idle.delete(sessionId)
  }
  const fire = (sessionId: string, type: 'permission_prompt' | 'idle_prompt', message: string, promptId?: string): void => {
    if (!bridge.invoker.has('Notification') || bridge.disposed.aborted) return
    const entry = bridge.sessions.get(sessionId)
    const occ = occurrence(bridge, 'Notification', entry, { message, title: NOTIFICATION_TITLE, notification_type: type }, { sessionId, ...(promptId ? { promptId } : {}) })
    void bridge.invoker.run(occ).then(
      (result) => {
        if (result) showSystemMessages(result.runs, occ.sink, 'Notification')
      },
      (error: unknown) => bridge.logger.warn(`Claude Code hooks: Notification (${type}) failed: ${(error as Error).message}`)
    )
  }
  ctx.on('session/appended', (sessionId: string, event: SessionEvent) => {
    switch (event.type) {
      case 'approval/asked':
        clearIdle(sessionId)
        fire(sessionId, 'permission_prompt', permissionPromptMessage(event.tool), event.turnId)
        break
      case 'turn/start':
        clearIdle(sessionId)
        break
      case 'turn/end': {
        clearIdle(sessionId)
        const turnId = event.turnId
        const timer = setTimeout(() => {
          idle.delete(sessionId)
          fire(sessionId, 'idle_prompt', IDLE_PROMPT_MESSAGE, turnId)
        }, bridge.config.idlePromptSeconds * 1000)
        timer.unref?.()
        idle.set(sessionId, timer)
        break
      }
    }
  })
  ctx.on('agent/session-end', (agent: AgentHandle) => clearIdle(agent.sessionId))
  ctx.onDispose(() => {
    for (const timer of idle.values()) clearTimeout(timer)
    idle.clear()
  })
}
