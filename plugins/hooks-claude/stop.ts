// Stop -> agent/turn-continuation (S7). A block keeps the turn going: its feedback is the
// continuation reason, which the loop hands to the model as a user-side <system-reminder>
// (`Stop hook feedback:\n[<cmd>]: <stderr>`); a `decision: "block"` also adds the system text
// `Stop hook blocking error from command: …`, right after the feedback as Claude Code records it.
// `stop_hook_active` is true on every re-entry. The `stopBlockCap`-th consecutive block of a turn
// (9, as Claude Code) is overridden: the turn ends, with a notice. `continue: false` ends the
// turn normally (claude-code-hooks.md §3, §6 Stop).
import type { AgentHandle, ContinuationDecision, TurnInfo } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { deliverAsync, occurrence, seeAgent, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import { subagentTranscriptPath } from './transcript'
import { stopBlockingError, stopFeedback } from './wording'

export function onTurnContinuation(bridge: Bridge) {
  return async (agent: AgentHandle, turn: TurnInfo, next: Next<Promise<ContinuationDecision>>): Promise<ContinuationDecision> => {
    const entry = seeAgent(bridge, agent)
    const event = entry.subagent ? 'SubagentStop' : 'Stop'
    const BY = `hook:${event}`
    if (!bridge.invoker.has(event)) return next()
    const counter = entry.stopBlocks
    if (counter.turnId !== turn.turnId) {
      counter.turnId = turn.turnId
      counter.count = 0
    }
    const sub = entry.subagent
    const fields = sub
      ? {
          stop_hook_active: turn.continuations > 0,
          agent_id: sub.identity.agentId,
          agent_type: sub.identity.agentType,
          agent_transcript_path: subagentTranscriptPath(sub.parent.agent, sub.identity.agentId),
          last_assistant_message: turn.lastAssistantText,
          background_tasks: [],
          session_crons: []
        }
      : { stop_hook_active: turn.continuations > 0, last_assistant_message: turn.lastAssistantText, background_tasks: [], session_crons: [] }
    const occ = occurrence(bridge, event, entry, fields, { onAsyncDone: (run) => deliverAsync(entry, run, event) })
    const run = await bridge.invoker.run(occ)
    const inner = await next()
    if (!run) return inner
    showSystemMessages(run.runs, occ.sink, event)

    const blockers = run.runs.filter((hook) => hook.outcome.kind === 'block')
    if (stopRequest(run.runs) || blockers.length === 0) {
      counter.count = 0
      return stopRequest(run.runs) ? { action: 'stop' } : inner
    }
    const cap = bridge.config.stopBlockCap
    counter.count++
    if (counter.count >= cap) {
      occ.sink.notify('warn', `${event} hooks blocked the end of this turn ${counter.count} times in a row; the turn ends anyway (stopBlockCap: ${cap})`, BY)
      counter.count = 0
      return inner
    }
    const errors = blockers.flatMap((hook) => (hook.blockedBy === 'answer' ? [stopBlockingError(hook.handler.label, hook.outcome.reason ?? 'blocked by hook', event)] : []))
    const feedback = stopFeedback(blockers.map((hook) => blockText(hook, 'blocked by hook')))
    const reason = inner.action === 'continue' && inner.reason ? `${inner.reason}\n\n${feedback}` : feedback
    const context = [...(inner.action === 'continue' ? (inner.additionalContext ?? []) : []), ...errors]
    return context.length > 0 ? { action: 'continue', reason, by: BY, additionalContext: context } : { action: 'continue', reason, by: BY }
  }
}
