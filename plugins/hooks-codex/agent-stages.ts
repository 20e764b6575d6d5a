// SessionStart, UserPromptSubmit and Stop on the agent seams (S4, S5, S7), per codex-hooks.md §5.1;
// for a subagent's turn, SubagentStart (agent/subagent-start: context for the child's first
// request) and SubagentStop instead of Stop (codex-hooks.md §3, §4).
import { aggregateOutcomes } from '../hook-protocol'
import type { AgentHandle, ContinuationDecision, PromptDecision, SessionStartSource, SubagentIdentity, TurnInfo } from '@seam/sdk'
import { errorText } from '@seam/sdk'
import type { CodexBridge } from './bridge'
import { commonInput, hookInput } from './hook-input'
import { rolloutPathOf } from './rollout'
import { contextsOf, SOURCE, type HandlerRun } from './run'
import type { SessionState } from './sessions'

const SESSION_STOPPED = 'A SessionStart hook stopped this turn (continue: false)'
const PROMPT_STOPPED = 'A UserPromptSubmit hook stopped this prompt (continue: false)'

export function registerAgentStages(bridge: CodexBridge): void {
  const { ctx } = bridge
  ctx.on('agent/session-start', (agent, source) => sessionStart(bridge, agent, source))
  ctx.on('agent/prompt-submit', (agent, content, _source, next) => promptSubmit(bridge, agent, content, next))
  // A subagent's turn ends through this seam too: Codex runs SubagentStop there, never Stop.
  ctx.on('agent/turn-continuation', (agent, turn, next) => turnContinuation(bridge, agent, turn, next))
  ctx.on('agent/subagent-start', (agent, subagent) => subagentStart(bridge, agent, subagent))
  ctx.on('agent/turn-end', (agent) => {
    if (agent.subagent) bridge.sessions.forgetSubagent(agent.subagent.agentId)
  })
}

/** SubagentStart: the child thread's first turn; its context is a developer message in the child's first request. */
async function subagentStart(bridge: CodexBridge, agent: AgentHandle, subagent: SubagentIdentity): Promise<void> {
  try {
    const state = bridge.sessions.capture(agent)
    const loaded = bridge.hooksFor(state, agent.cwd)
    const input = hookInput('SubagentStart', commonInput(state, agent.sessionId, agent.cwd, bridge.permissionMode(agent.sessionId)), {
      turn_id: agent.currentTurnId ?? null,
      agent_id: subagent.agentId,
      agent_type: subagent.agentType
    })
    const handlers = bridge.runner.matching('SubagentStart', loaded.handlers, input)
    if (handlers.length === 0) return
    const runs = await bridge.runner.run('SubagentStart', handlers, input, { state, cwd: agent.cwd })
    for (const text of contextsOf(runs)) agent.inject(text, `${SOURCE}:SubagentStart`)
  } catch (error) {
    bridge.ctx.logger.error(`Codex SubagentStart hooks failed: ${errorText(error)}`, error)
  }
}

/** Codex runs SessionStart lazily at a thread's first turn; Seam's session-start fires right before it. */
async function sessionStart(bridge: CodexBridge, agent: AgentHandle, source: SessionStartSource): Promise<void> {
  const state = bridge.sessions.capture(agent)
  // Once per thread, and again after each compaction (source `compact`).
  if (state.started && source !== 'compact') return
  state.started = true
  try {
    const loaded = bridge.hooksFor(state, agent.cwd)
    const input = hookInput('SessionStart', commonInput(state, agent.sessionId, agent.cwd, bridge.permissionMode(agent.sessionId)), { source })
    const handlers = bridge.runner.matching('SessionStart', loaded.handlers, input)
    if (handlers.length === 0) return
    const runs = await bridge.runner.run('SessionStart', handlers, input, { state, cwd: agent.cwd })
    // Developer messages before the first prompt (here: context without a turn, logged before it).
    for (const text of contextsOf(runs)) agent.inject(text, `${SOURCE}:SessionStart`)
    const outcome = aggregateOutcomes(runs.map((run) => run.outcome))
    if (!outcome.continue) state.dropTurn = { reason: outcome.stopReason ?? SESSION_STOPPED }
  } catch (error) {
    bridge.ctx.logger.error(`Codex SessionStart hooks failed: ${errorText(error)}`, error)
  }
}

async function promptSubmit(bridge: CodexBridge, agent: AgentHandle, content: string, next: () => Promise<PromptDecision>): Promise<PromptDecision> {
  let decision: PromptDecision | undefined
  let contexts: string[] = []
  try {
    const state = bridge.sessions.capture(agent)
    state.started = true // a bridge that joins a running session does not run SessionStart late
    const dropped = droppedBySessionStart(state, agent)
    if (dropped) return { action: 'block', reason: dropped, by: `${SOURCE}:SessionStart` }
    const loaded = bridge.hooksFor(state, agent.cwd)
    const input = hookInput('UserPromptSubmit', commonInput(state, agent.sessionId, agent.cwd, bridge.permissionMode(agent.sessionId)), { turn_id: agent.currentTurnId ?? null, prompt: content })
    const handlers = bridge.runner.matching('UserPromptSubmit', loaded.handlers, input)
    if (handlers.length > 0) {
      const runs = await bridge.runner.run('UserPromptSubmit', handlers, input, { state, cwd: agent.cwd })
      contexts = contextsOf(runs)
      const outcome = aggregateOutcomes(runs.map((run) => run.outcome))
      if (outcome.blocked || !outcome.continue) {
        // The prompt is dropped, but context returned alongside the block is kept for a later request.
        for (const text of contexts) agent.inject(text, `${SOURCE}:UserPromptSubmit`)
        decision = { action: 'block', reason: outcome.blocked ? (outcome.reason ?? 'blocked') : (outcome.stopReason ?? PROMPT_STOPPED), by: `${SOURCE}:UserPromptSubmit` }
      }
    }
  } catch (error) {
    bridge.ctx.logger.error(`Codex UserPromptSubmit hooks failed: ${errorText(error)}`, error)
  }
  if (decision) return decision
  const inner = await next()
  if (inner.action === 'block' || contexts.length === 0) return inner
  return { ...inner, additionalContext: [...contexts, ...(inner.additionalContext ?? [])] }
}

/** SessionStart `continue: false` drops the turn that triggered it; later turns run normally. */
function droppedBySessionStart(state: SessionState, agent: AgentHandle): string | undefined {
  const drop = state.dropTurn
  if (!drop) return undefined
  const turnId = agent.currentTurnId
  drop.turnId ??= turnId
  if (drop.turnId === turnId) return drop.reason
  state.dropTurn = undefined
  return undefined
}

async function turnContinuation(bridge: CodexBridge, agent: AgentHandle, turn: TurnInfo, next: () => Promise<ContinuationDecision>): Promise<ContinuationDecision> {
  let decision: ContinuationDecision | undefined
  const event = agent.subagent ? 'SubagentStop' : 'Stop'
  try {
    const state = bridge.sessions.capture(agent)
    if (state.stop.turnId !== turn.turnId) state.stop = { turnId: turn.turnId, active: false, blocks: 0 }
    const loaded = bridge.hooksFor(state, agent.cwd)
    const common = commonInput(state, agent.sessionId, agent.cwd, bridge.permissionMode(agent.sessionId))
    const input = state.subagent
      ? hookInput(event, common, {
          turn_id: turn.turnId,
          agent_id: state.subagent.identity.agentId,
          agent_type: state.subagent.identity.agentType,
          agent_transcript_path: rolloutPathOf(state),
          last_assistant_message: turn.lastAssistantText,
          stop_hook_active: state.stop.active
        })
      : hookInput(event, common, { turn_id: turn.turnId, stop_hook_active: state.stop.active, last_assistant_message: turn.lastAssistantText })
    const handlers = bridge.runner.matching(event, loaded.handlers, input)
    if (handlers.length > 0) {
      const runs = await bridge.runner.run(event, handlers, input, { state, cwd: agent.cwd })
      decision = stopDecision(bridge, state, runs, event)
    }
  } catch (error) {
    bridge.ctx.logger.error(`Codex ${event} hooks failed: ${errorText(error)}`, error)
  }
  // Inner listeners (another bridge's Stop hooks) still run; a stop from here is final.
  const inner = await next()
  if (!decision) return inner
  if (decision.action === 'stop') return decision
  return inner.action === 'continue' && inner.reason ? { ...decision, reason: `${decision.reason ?? ''}\n\n${inner.reason}` } : decision
}

function stopDecision(bridge: CodexBridge, state: SessionState, runs: HandlerRun[], event: 'Stop' | 'SubagentStop'): ContinuationDecision | undefined {
  const outcome = aggregateOutcomes(runs.map((run) => run.outcome))
  const blocker = runs.find((run) => run.outcome.kind === 'block')
  if (outcome.blocked && blocker) {
    const cap = bridge.config.stopBlockCap
    if (state.stop.blocks >= cap) {
      bridge.runner.notify(
        { state, cwd: state.agent.cwd },
        'warn',
        `Codex ${event} hook blocked the end of this turn ${cap} times in a row; Seam ends the turn anyway (stopBlockCap = ${cap}). Last reason: ${outcome.reason ?? ''}`
      )
      state.stop.blocks = 0
      return undefined
    }
    state.stop.blocks++
    state.stop.active = true
    const { handler } = blocker
    // Codex continues the same turn with this user message (codex-hooks.md §5.1, Stop); for
    // SubagentStop the run id is named after its event the same way (`subagent_stop:…`, not observed).
    const runId = event === 'Stop' ? 'stop' : 'subagent_stop'
    return { action: 'continue', reason: `<hook_prompt hook_run_id="${runId}:${handler.order}:${handler.sourceFile}">${outcome.reason ?? ''}</hook_prompt>`, by: `${SOURCE}:${event}` }
  }
  state.stop.blocks = 0
  return outcome.continue ? undefined : { action: 'stop' }
}
