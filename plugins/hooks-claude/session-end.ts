// SessionEnd -> agent/session-end. Its hooks get `reason: "clear"` when `/clear` replaced the
// session, else `"other"` (what Claude Code sends in print mode), and their own budget: 1.5 s unless the
// handler sets `timeout`, at most 60 s. Then the session's state is released: async hooks still
// running are cancelled and its CLAUDE_ENV_FILE is removed.
import type { AgentHandle } from '@seam/sdk'
import { occurrence, seeSession, showSystemMessages, type Bridge } from './bridge'
import { release } from './sessions'

export function onSessionEnd(bridge: Bridge) {
  return async (agent: AgentHandle, reason: 'closed' | 'deleted' | 'shutdown' | 'clear'): Promise<void> => {
    const entry = seeSession(bridge, agent)
    try {
      if (!bridge.invoker.has('SessionEnd')) return
      const occ = occurrence(bridge, 'SessionEnd', entry, { reason: reason === 'clear' ? 'clear' : 'other' })
      const run = await bridge.invoker.run(occ)
      if (run) showSystemMessages(run.runs, occ.sink, 'SessionEnd')
    } finally {
      // A deleted session takes its transcript with it; otherwise it stays, as Claude Code's do.
      if (reason === 'deleted') entry.transcript?.remove()
      release(bridge.sessions, agent.sessionId)
    }
  }
}
