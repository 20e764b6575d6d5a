// UserPromptExpansion -> agent/prompt-expansion: fired for a custom slash command after
// UserPromptSubmit let its typed text through (claude-code-hooks.md §6 UserPromptExpansion).
// Input: `expansion_type: "slash_command"`, `command_name`, `command_args`, `command_source`
// (`projectSettings` / `userSettings`; a Codex prompt is `codexPrompts`, which Claude Code has no
// word for), `prompt` (the unexpanded text). Answers are handled as UserPromptSubmit's are: a
// block keeps the command from the model, `additionalContext` follows its expansion.
import type { AgentHandle, PromptDecision, PromptExpansionInfo } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { occurrence, seeSession, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import { expansionBlocked, expansionContext, stoppedByHook } from './wording'

const BY = 'hook:UserPromptExpansion'

const COMMAND_SOURCE: Record<PromptExpansionInfo['commandSource'], string> = {
  project: 'projectSettings',
  user: 'userSettings',
  codex: 'codexPrompts',
  // Not recorded by the spec: Claude Code's value for a plugin's command is taken to be `plugin`.
  plugin: 'plugin'
}

export function onPromptExpansion(bridge: Bridge) {
  return async (agent: AgentHandle, info: PromptExpansionInfo, next: Next<Promise<PromptDecision>>): Promise<PromptDecision> => {
    if (!bridge.invoker.has('UserPromptExpansion')) return next()
    const entry = seeSession(bridge, agent)
    const occ = occurrence(bridge, 'UserPromptExpansion', entry, {
      expansion_type: info.expansionType,
      command_name: info.commandName,
      command_args: info.commandArgs,
      command_source: COMMAND_SOURCE[info.commandSource],
      prompt: info.prompt
    })
    const [inner, result] = await Promise.all([next(), bridge.invoker.run(occ)])
    if (!result) return inner
    showSystemMessages(result.runs, occ.sink, 'UserPromptExpansion')
    const stop = stopRequest(result.runs)
    if (stop) return { action: 'block', reason: stoppedByHook(stop.reason), by: BY }
    const blocker = result.runs.find((run) => run.outcome.kind === 'block')
    if (blocker) return { action: 'block', reason: expansionBlocked(blockText(blocker, 'blocked by hook'), info.prompt), by: BY }
    if (inner.action === 'block') return inner
    const texts = result.runs.flatMap((run) => (run.outcome.additionalContext ? [expansionContext(run.outcome.additionalContext)] : []))
    if (texts.length === 0) return inner
    return { ...inner, additionalContext: [...(inner.additionalContext ?? []), texts.join('\n\n')] }
  }
}
