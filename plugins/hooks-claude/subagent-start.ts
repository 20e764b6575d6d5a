// SubagentStart -> agent/subagent-start (cannot block the spawn). Its input is the common fields
// plus `agent_id` and `agent_type`, matched on `agent_type`; `additionalContext` goes into the
// subagent's own conversation, before its first request (claude-code-extensions.md 1(a),
// claude-code-hooks.md §6 SubagentStart / SubagentStop). The subagent's entry is made here, so its
// tool calls' hooks carry agent_id/agent_type and record into its own log.
import type { AgentHandle, SubagentIdentity } from '@seam/sdk'
import { deliverAsync, occurrence, seeAgent, showSystemMessages, type Bridge } from './bridge'
import { releaseSubagent } from './sessions'
import { subagentStartContext } from './wording'

const EVENT = 'SubagentStart'

export function onSubagentStart(bridge: Bridge) {
  return async (agent: AgentHandle, subagent: SubagentIdentity): Promise<void> => {
    const entry = seeAgent(bridge, agent)
    if (!bridge.invoker.has(EVENT)) return
    const occ = occurrence(bridge, EVENT, entry, { agent_id: subagent.agentId, agent_type: subagent.agentType }, { onAsyncDone: (run) => deliverAsync(entry, run, EVENT) })
    const result = await bridge.invoker.run(occ)
    if (!result) return
    showSystemMessages(result.runs, occ.sink, EVENT)
    const texts = result.runs.flatMap((run) => (run.outcome.additionalContext ? [subagentStartContext(run.outcome.additionalContext)] : []))
    if (texts.length > 0) agent.inject(texts.join('\n\n'), `hook:${EVENT}`)
  }
}

/** A subagent's turn ended: its entry goes (async hooks it started end with it). */
export function onSubagentEnd(bridge: Bridge) {
  return (agent: AgentHandle): void => {
    if (agent.subagent) releaseSubagent(bridge.subagents, agent.subagent.agentId)
  }
}
