// UserPromptSubmit -> agent/prompt-submit (S5). Runs for every dequeued message (steering
// included); the matcher is ignored. A block from anywhere wins; context from plain stdout and
// additionalContext joins the rest of the chain's (claude-code-hooks.md §6 UserPromptSubmit).
import type { AgentHandle, PromptDecision, PromptSource } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { deliverAsync, occurrence, seeSession, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import type { HooksSnapshot } from './sources'
import { showLoadNotices } from './trust'
import { promptBlocked, promptContext, promptSuccess, stoppedByHook } from './wording'

const BY = 'hook:UserPromptSubmit'

export function onPromptSubmit(bridge: Bridge, snapshot: () => HooksSnapshot) {
  return async (agent: AgentHandle, content: string, _source: PromptSource, next: Next<Promise<PromptDecision>>): Promise<PromptDecision> => {
    const entry = seeSession(bridge, agent)
    showLoadNotices(entry, snapshot())
    if (!bridge.invoker.has('UserPromptSubmit')) return next()
    const occ = occurrence(bridge, 'UserPromptSubmit', entry, { prompt: content }, { onAsyncDone: (run) => deliverAsync(entry, run, 'UserPromptSubmit') })
    const [inner, result] = await Promise.all([next(), bridge.invoker.run(occ)])
    if (!result) return inner
    showSystemMessages(result.runs, occ.sink, 'UserPromptSubmit')

    const stop = stopRequest(result.runs)
    if (stop) return { action: 'block', reason: stoppedByHook(stop.reason), by: BY }
    const blocker = result.runs.find((run) => run.outcome.kind === 'block')
    if (blocker) return { action: 'block', reason: promptBlocked(blockText(blocker, 'blocked by hook'), content), by: BY }
    if (inner.action === 'block') return inner

    const texts: string[] = []
    for (const run of result.runs) {
      if (run.outcome.plainStdoutContext) texts.push(promptSuccess(run.outcome.plainStdoutContext))
      if (run.outcome.additionalContext) texts.push(promptContext(run.outcome.additionalContext))
    }
    if (texts.length === 0) return inner
    return { ...inner, additionalContext: [...(inner.additionalContext ?? []), texts.join('\n\n')] }
  }
}
