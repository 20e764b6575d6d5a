// PostToolBatch -> agent/tool-batch: once per step, after all of its results. A block (exit 2 or
// `decision: "block"`) or `continue: false` stops the loop; additionalContext reaches the model
// as `PostToolBatch hook additional context: …` (claude-code-hooks.md §6 PostToolBatch).
import type { AgentHandle, ToolBatchDecision } from '@seam/sdk'
import type { ToolExecutionResult } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { deliverAsync, occurrence, seeAgent, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import { batchContext, stoppedContinuation } from './wording'

const BY = 'hook:PostToolBatch'

export function onToolBatch(bridge: Bridge) {
  return async (agent: AgentHandle, results: readonly ToolExecutionResult[], next: Next<Promise<ToolBatchDecision>>): Promise<ToolBatchDecision> => {
    const entry = seeAgent(bridge, agent)
    if (!bridge.invoker.has('PostToolBatch')) return next()
    const toolCalls = results.map((item) => ({
      tool_name: item.call.name,
      tool_input: item.call.args,
      tool_use_id: item.call.callId,
      // The text the model receives, not the structured object.
      tool_response: item.result.content
    }))
    const occ = occurrence(bridge, 'PostToolBatch', entry, { tool_calls: toolCalls }, { onAsyncDone: (run) => deliverAsync(entry, run, 'PostToolBatch') })
    const run = await bridge.invoker.run(occ)
    const inner = await next()
    if (!run) return inner
    showSystemMessages(run.runs, occ.sink, 'PostToolBatch')

    const blockers = run.runs.filter((hook) => hook.outcome.kind === 'block')
    if (blockers.length > 0) {
      return { action: 'stop', reason: stoppedContinuation('PostToolBatch', blockers.map((hook) => blockText(hook, 'blocked by hook')).join('\n')), by: BY }
    }
    const stop = stopRequest(run.runs)
    if (stop) return { action: 'stop', reason: stoppedContinuation('PostToolBatch', stop.reason), by: BY }
    if (inner.action === 'stop') return inner
    const texts = run.runs.flatMap((hook) => (hook.outcome.additionalContext ? [batchContext(hook.outcome.additionalContext)] : []))
    if (texts.length === 0) return inner
    return { action: 'continue', additionalContext: [...(inner.additionalContext ?? []), texts.join('\n\n')] }
  }
}
