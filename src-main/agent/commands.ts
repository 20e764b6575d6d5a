// `/compact [instructions]` on an agent (src-main/commands/dispatch.ts routes the composer's and
// `seam run`'s slash commands here; `seam compact ID` too).
import { errorText } from '../../src-shared/kernel'
import type { Agent } from './agent'

/** Runs a manual compaction to its end; the outcome becomes a notice in the session (and is returned). */
export async function runCompact(agent: Agent, instructions: string): Promise<{ ok: boolean; message: string }> {
  try {
    const outcome = await agent.compact(instructions || undefined)
    // Nothing to summarise: Claude Code's own words (a failed command, so `seam run` exits 1).
    const message = outcome.compacted ? `Compacted: ${outcome.event.replacedMessages} messages replaced by a summary` : outcome.why === 'empty' ? outcome.reason : `Not compacted: ${outcome.reason}`
    agent.handle.notify('info', message, 'compaction')
    return { ok: outcome.compacted, message }
  } catch (error) {
    const message = `Compaction failed: ${errorText(error)}`
    agent.handle.notify('error', message, 'compaction')
    return { ok: false, message }
  }
}
