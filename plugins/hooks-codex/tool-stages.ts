// PreToolUse and PostToolUse on the tool pipeline (S10, S14, S18), per codex-hooks.md §5.1.
// PreToolUse runs ONCE per call, in the input-rewrite stage (before sealing, so an `updatedInput`
// rewrites what history, audit and the tool all see); its verdict is cached by session and call
// id and enforced in pre-execute. PostToolUse runs in post-execute and may replace the output.
import { aggregateOutcomes } from '../hook-protocol'
import type { CallVerdict, JsonObject, SubagentIdentity, PostToolDecision, PreToolDecision, RewriteDecision, SealedCall, ToolResult, UnsealedCall } from '@seam/sdk'
import { errorText } from '@seam/sdk'
import type { CodexBridge } from './bridge'
import { commonInput, hookInput } from './hook-input'
import { contextsOf, SOURCE } from './run'
import { callKey, type PreToolEntry } from './sessions'
import { applyUpdatedInput, blockedText, postToolUseRuns, presentToolCall, presentToolResponse, type CodexToolView } from './tool-view'

const OUTPUT_WITHHELD = 'A PostToolUse hook stopped processing of this output (continue: false)'

interface CallInfo {
  name: string
  args: Readonly<JsonObject>
  callId: string
  sessionId: string
  cwd: string
  turnId?: string
  token?: string
  agent?: Readonly<SubagentIdentity>
}

/** The view of a call kept from pre- to post-execute (a Write must be shown as it was before it ran). */
type CachedEntry = PreToolEntry & { view?: CodexToolView }

export function registerToolStages(bridge: CodexBridge): void {
  const { ctx } = bridge
  ctx.on('tools/input-rewrite', (call, next) => inputRewrite(bridge, call, next))
  ctx.on('tools/pre-execute', (call, next) => preExecute(bridge, call, next))
  ctx.on('tools/post-execute', (call, result, verdict, next) => postExecute(bridge, call, result, verdict, next))
}

async function inputRewrite(bridge: CodexBridge, call: UnsealedCall, next: () => Promise<RewriteDecision>): Promise<RewriteDecision> {
  let rewrite: JsonObject | undefined
  try {
    rewrite = await runPreToolUse(bridge, call)
  } catch (error) {
    bridge.ctx.logger.error(`Codex PreToolUse hooks failed: ${errorText(error)}`, error)
  }
  if (rewrite) return { action: 'rewrite', args: rewrite, by: `${SOURCE}:PreToolUse`, reason: 'updatedInput from a Codex PreToolUse hook' }
  return next()
}

async function preExecute(bridge: CodexBridge, call: SealedCall, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> {
  const key = callKey(call.sessionId, call.callId)
  let entry: CachedEntry | undefined = bridge.sessions.preTool.get(key)
  try {
    // Normally PreToolUse already ran in the rewrite stage; run it here only if it did not.
    if (!entry) {
      await runPreToolUse(bridge, call)
      entry = bridge.sessions.preTool.get(key)
    }
    // PostToolUse sees the input after any rewrite, as it was before the tool ran.
    if (entry && (call.rewrittenBy !== undefined || !entry.view)) entry.view = presentToolCall(call.name, call.args, call.cwd)
  } catch (error) {
    bridge.ctx.logger.error(`Codex PreToolUse hooks failed: ${errorText(error)}`, error)
  }
  if (entry?.deny) return { action: 'deny', reason: entry.deny.reason, by: `${SOURCE}:PreToolUse`, modelText: entry.deny.modelText }
  return next()
}

/** Runs PreToolUse for a call, caches the verdict, and returns the rewritten arguments if any. */
async function runPreToolUse(bridge: CodexBridge, call: CallInfo): Promise<JsonObject | undefined> {
  const state = bridge.sessions.get(call.sessionId, call.agent)
  const view = presentToolCall(call.name, call.args, call.cwd)
  const entry: CachedEntry = { context: [], view }
  bridge.sessions.preTool.set(callKey(call.sessionId, call.callId), entry)
  const loaded = bridge.hooksFor(state, call.cwd)
  const input = hookInput('PreToolUse', commonInput(state, call.sessionId, call.cwd, bridge.permissionMode(call.sessionId)), {
    turn_id: call.turnId ?? state?.agent.currentTurnId ?? null,
    tool_name: view.toolName,
    tool_input: view.toolInput,
    tool_use_id: call.callId
  })
  const handlers = bridge.runner.matching('PreToolUse', loaded.handlers, input)
  if (handlers.length === 0) return undefined
  const target = { state, cwd: call.cwd, ...(call.token ? { toolCallToken: call.token } : {}) }
  const runs = await bridge.runner.run('PreToolUse', handlers, input, target)
  entry.context = contextsOf(runs)
  const outcome = aggregateOutcomes(runs.map((run) => run.outcome))
  if (outcome.blocked) {
    const reason = outcome.reason ?? 'blocked'
    entry.deny = { reason, modelText: blockedText(view, reason) }
    return undefined
  }
  if (!outcome.updatedInput) return undefined
  const applied = applyUpdatedInput(call.name, call.args, view, outcome.updatedInput, call.cwd)
  if (applied.ok) return applied.args
  // The hook asked for different input and Seam cannot express it: do not run the original instead.
  const reason = `Seam could not apply the PreToolUse hook's updatedInput to ${call.name}: ${applied.error}`
  entry.deny = { reason, modelText: `Tool call blocked: ${reason}` }
  bridge.runner.notify(target, 'warn', `Codex PreToolUse hook: ${reason}; the call was not run`)
  return undefined
}

async function postExecute(
  bridge: CodexBridge,
  call: SealedCall,
  result: Readonly<ToolResult>,
  verdict: Readonly<CallVerdict>,
  next: () => Promise<PostToolDecision>
): Promise<PostToolDecision> {
  const key = callKey(call.sessionId, call.callId)
  const entry: CachedEntry | undefined = bridge.sessions.preTool.get(key)
  bridge.sessions.preTool.delete(key)
  const contexts = [...(entry?.context ?? [])]
  let replaced: string | undefined
  try {
    const view = entry?.view ?? presentToolCall(call.name, call.args, call.cwd)
    // PostToolUse follows a call that ran (a denied call has no result to show it).
    if (verdict.outcome === 'allowed' && postToolUseRuns(view, result)) {
      const state = bridge.sessions.get(call.sessionId, call.agent)
      const loaded = bridge.hooksFor(state, call.cwd)
      const input = hookInput('PostToolUse', commonInput(state, call.sessionId, call.cwd, bridge.permissionMode(call.sessionId)), {
        turn_id: call.turnId ?? state?.agent.currentTurnId ?? null,
        tool_name: view.toolName,
        tool_input: view.toolInput,
        tool_response: presentToolResponse(view, result),
        tool_use_id: call.callId
      })
      const handlers = bridge.runner.matching('PostToolUse', loaded.handlers, input)
      if (handlers.length > 0) {
        const runs = await bridge.runner.run('PostToolUse', handlers, input, { state, cwd: call.cwd, toolCallToken: call.token })
        contexts.push(...contextsOf(runs))
        const outcome = aggregateOutcomes(runs.map((run) => run.outcome))
        // The tool already ran: the output the model sees is replaced by the reason.
        if (outcome.blocked) replaced = outcome.reason ?? 'blocked'
        else if (!outcome.continue) replaced = outcome.stopReason ?? OUTPUT_WITHHELD
      }
    }
  } catch (error) {
    bridge.ctx.logger.error(`Codex PostToolUse hooks failed: ${errorText(error)}`, error)
  }
  const inner = await next()
  const decision: PostToolDecision = replaced !== undefined ? { action: 'block', feedback: replaced, content: '' } : inner
  const context = [...contexts, ...(inner.additionalContext ?? [])]
  return context.length > 0 ? { ...decision, additionalContext: context } : decision
}
