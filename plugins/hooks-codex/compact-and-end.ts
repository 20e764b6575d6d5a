// PreCompact and PostCompact around Seam's compaction, and SessionEnd when a session ends
// (codex-hooks.md §3, §4, §5.1). PreCompact's `continue: false` cancels the compaction; its exit 2
// is a failure and the compaction goes on; `systemMessage` is a warning (the runner shows it).
// SessionEnd's input has `reason: "other"` and neither `model` nor `permission_mode`, and nothing
// it prints has an effect.
import { aggregateOutcomes } from '../hook-protocol'
import type { AgentHandle, CompactionDecision, CompactionRequest, CompactionTrigger, Next } from '@seam/sdk'
import { errorText } from '@seam/sdk'
import type { CodexBridge } from './bridge'
import { commonInput, hookInput } from './hook-input'
import { codexRolloutPath } from './rollout'
import { SOURCE } from './run'

const COMPACTION_STOPPED = 'A PreCompact hook stopped the compaction (continue: false)'

export function registerCompactionAndEnd(bridge: CodexBridge): void {
  const { ctx } = bridge
  ctx.on('compaction/prepare', (agent, request, next) => preCompact(bridge, agent, request, next))
  ctx.on('compaction/done', (agent, trigger) => postCompact(bridge, agent, trigger))
  ctx.on('agent/session-end', async (agent) => {
    try {
      await sessionEnd(bridge, agent)
    } finally {
      bridge.sessions.forget(agent.sessionId)
    }
  })
}

async function preCompact(bridge: CodexBridge, agent: AgentHandle, request: CompactionRequest, next: Next<Promise<CompactionDecision>>): Promise<CompactionDecision> {
  try {
    const state = bridge.sessions.capture(agent)
    const loaded = bridge.hooksFor(state, agent.cwd)
    const input = hookInput('PreCompact', commonInput(state, agent.sessionId, agent.cwd, bridge.permissionMode(agent.sessionId)), { turn_id: agent.currentTurnId ?? null, trigger: request.trigger })
    const handlers = bridge.runner.matching('PreCompact', loaded.handlers, input)
    if (handlers.length > 0) {
      const outcome = aggregateOutcomes((await bridge.runner.run('PreCompact', handlers, input, { state, cwd: agent.cwd })).map((run) => run.outcome))
      if (!outcome.continue) return { action: 'cancel', reason: outcome.stopReason ?? COMPACTION_STOPPED, by: `${SOURCE}:PreCompact` }
    }
  } catch (error) {
    bridge.ctx.logger.error(`Codex PreCompact hooks failed: ${errorText(error)}`, error)
  }
  return next()
}

async function postCompact(bridge: CodexBridge, agent: AgentHandle, trigger: CompactionTrigger): Promise<void> {
  try {
    const state = bridge.sessions.capture(agent)
    const loaded = bridge.hooksFor(state, agent.cwd)
    const input = hookInput('PostCompact', commonInput(state, agent.sessionId, agent.cwd, bridge.permissionMode(agent.sessionId)), { turn_id: agent.currentTurnId ?? null, trigger })
    const handlers = bridge.runner.matching('PostCompact', loaded.handlers, input)
    if (handlers.length > 0) await bridge.runner.run('PostCompact', handlers, input, { state, cwd: agent.cwd })
  } catch (error) {
    bridge.ctx.logger.error(`Codex PostCompact hooks failed: ${errorText(error)}`, error)
  }
}

async function sessionEnd(bridge: CodexBridge, agent: AgentHandle): Promise<void> {
  try {
    const state = bridge.sessions.capture(agent)
    const loaded = bridge.hooksFor(state, agent.cwd)
    const input = { session_id: agent.sessionId, transcript_path: codexRolloutPath(state.agent), cwd: agent.cwd, hook_event_name: 'SessionEnd', reason: 'other' }
    const handlers = bridge.runner.matching('SessionEnd', loaded.handlers, input)
    if (handlers.length > 0) await bridge.runner.run('SessionEnd', handlers, input, { state, cwd: agent.cwd })
  } catch (error) {
    bridge.ctx.logger.error(`Codex SessionEnd hooks failed: ${errorText(error)}`, error)
  }
}
