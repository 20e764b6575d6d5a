// Built-in commands typed as a message (`/compact [instructions]`): they act on the session
// instead of going to the model. The desktop composer (chat/send) and `seam run "/compact ..."`
// share this.
import { errorText } from '../../src-shared/kernel'
import type { Agent } from './agent'

export interface SlashCommand {
  name: string
  args: string
}

/** `/name args` when `content` is one of the commands Seam runs itself, else undefined (it goes to the model). */
export function builtinCommand(content: string): SlashCommand | undefined {
  const match = /^\/(compact)(?:\s+([\s\S]*))?$/.exec(content.trim())
  if (!match) return undefined
  return { name: match[1], args: (match[2] ?? '').trim() }
}

/** Runs a built-in command to its end; a failure becomes an error notice in the session (and is returned). */
export async function runBuiltinCommand(agent: Agent, command: SlashCommand): Promise<{ ok: boolean; message: string }> {
  try {
    const outcome = await agent.compact(command.args || undefined)
    const message = outcome.compacted ? `Compacted: ${outcome.event.replacedMessages} messages replaced by a summary` : `Not compacted: ${outcome.reason}`
    agent.handle.notify('info', message, 'compaction')
    return { ok: outcome.compacted, message }
  } catch (error) {
    const message = `Compaction failed: ${errorText(error)}`
    agent.handle.notify('error', message, 'compaction')
    return { ok: false, message }
  }
}
