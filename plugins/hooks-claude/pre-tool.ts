// PreToolUse -> tools/input-rewrite + tools/pre-execute (S10, S18). The hooks run once per call,
// before sealing; their `updatedInput` is a rewrite the registry schema-checks, and their
// decision is returned at pre-execute: deny (the model reads `PreToolUse:<Tool> hook error: …`),
// ask, or allow, combined with the rest of the chain as deny > ask > allow. A hook's allow is
// marked `answersAsk`: it answers the permission policy's default ask, as a Claude Code allow
// skips the permission prompt, but never an explicit deny or ask rule (claude-code-hooks.md §5.1, §7).
import type { JsonObject, PreToolDecision, RewriteDecision, SealedCall, UnsealedCall } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { deliverAsync, entryOf, mcpServerField, occurrence, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import { CallSink, sinkFor } from './sessions'
import { ToolCallStates, type CallState } from './tool-calls'
import { preToolContext, preToolDenied, updatedInputInvalid } from './wording'

const BY = 'hook:PreToolUse'

type CallView = Pick<UnsealedCall, 'name' | 'callId' | 'sessionId' | 'cwd' | 'agent'> & { args: Readonly<JsonObject> }

/** Starts the PreToolUse hooks of a call (once) and remembers the run. */
function startPreToolUse(bridge: Bridge, state: CallState, call: CallView): void {
  const entry = entryOf(bridge, call)
  const sink = new CallSink(sinkFor(entry, bridge.logger))
  const input = call.args as Record<string, unknown>
  const occ = occurrence(bridge, 'PreToolUse', entry, { tool_name: call.name, tool_input: input, tool_use_id: call.callId, ...mcpServerField(bridge, call.name, call.sessionId) }, {
    sessionId: call.sessionId,
    cwd: call.cwd,
    sink,
    tool: { name: call.name, input },
    onAsyncDone: (run) => deliverAsync(entry, run, 'PreToolUse')
  })
  state.pre = { run: bridge.invoker.run(occ), sink }
}

export function onInputRewrite(bridge: Bridge, calls: ToolCallStates) {
  return async (call: UnsealedCall, next: Next<Promise<RewriteDecision>>): Promise<RewriteDecision> => {
    const state = calls.open(ToolCallStates.key(call.sessionId, call.callId))
    if (!bridge.invoker.has('PreToolUse')) return next()
    startPreToolUse(bridge, state, call)
    const result = await state.pre?.run
    const aggregated = result?.aggregated
    if (aggregated?.updatedInput !== undefined && !aggregated.blocked && aggregated.decision !== 'deny') {
      // Replaces the whole input (S18); the registry validates it against the tool's schema and,
      // when it fails, the model reads Claude Code's words (§5.1 updatedInput).
      return { action: 'rewrite', args: aggregated.updatedInput as JsonObject, by: BY, invalidText: updatedInputInvalid(call.name) }
    }
    return next()
  }
}

/**
 * `permissionDecision: "defer"` (§5.1): the call waits for someone to decide. With someone to ask
 * (desktop, web) it goes to the approval seam; headless, as in Claude Code's print mode, the tool
 * does not run and the turn ends with the deferred reason (a notice in the log and in --json).
 * A deny from the rest of the chain still wins.
 */
function deferred(bridge: Bridge, call: SealedCall, inner: PreToolDecision, reason: string | undefined): PreToolDecision {
  if (inner.action === 'deny') return inner
  const why = reason ?? 'a PreToolUse hook deferred this call'
  if (bridge.config.deferAction === 'ask') return { action: 'ask', reason: why, by: BY }
  const text = `tool_deferred: ${call.name} was deferred by a PreToolUse hook: ${why}`
  entryOf(bridge, call)?.agent.stop(text, BY)
  return { action: 'deny', reason: text, by: BY }
}

export function onPreExecute(bridge: Bridge, calls: ToolCallStates) {
  return async (call: SealedCall, next: Next<Promise<PreToolDecision>>): Promise<PreToolDecision> => {
    const key = ToolCallStates.key(call.sessionId, call.callId)
    let state = calls.get(key)
    if (!state?.pre) {
      // The rewrite stage did not run the hooks (no handlers then, or a call that skipped it): run them now.
      if (!bridge.invoker.has('PreToolUse')) return next()
      state ??= calls.open(key)
      startPreToolUse(bridge, state, { ...call, args: call.originalArgs ?? call.args })
    }
    const pre = state.pre
    if (!pre) return next()
    pre.sink.seal(call.token)
    const result = await pre.run
    if (!result) return next()
    const { runs, aggregated } = result

    showSystemMessages(runs, pre.sink, 'PreToolUse')
    for (const run of runs) if (run.outcome.additionalContext) state.context.push(preToolContext(call.name, run.outcome.additionalContext))
    const stop = stopRequest(runs)
    // The tool still runs; the loop stops after this step (claude-code-hooks.md §5).
    if (stop) entryOf(bridge, call)?.agent.stop(stop.reason, BY)

    if (aggregated.blocked || aggregated.decision === 'deny') {
      const denier = runs.find((run) => run.outcome.kind === 'block' || run.outcome.decision === 'deny')
      const text = denier ? blockText(denier, 'denied by a PreToolUse hook') : 'denied by a PreToolUse hook'
      return { action: 'deny', reason: text, by: BY, modelText: preToolDenied(call.name, text) }
    }
    if (aggregated.decision === undefined) return next()
    const inner = await next()
    if (aggregated.decision === 'defer') return deferred(bridge, call, inner, aggregated.reason)
    if (aggregated.decision === 'ask') {
      if (inner.action === 'deny') return inner
      const asker = runs.find((run) => run.outcome.decision === 'ask')
      return { action: 'ask', reason: aggregated.reason ?? `the PreToolUse hook [${asker?.handler.label ?? '?'}] asks for approval`, by: BY }
    }
    // allow: only when the rest of the chain allows too. It answers the permission policy's
    // default ask (Claude Code's allow skips the permission prompt), never a rule (§5.1).
    if (inner.action !== 'allow') return inner
    const allower = runs.find((run) => run.outcome.decision === 'allow')
    const who = `allowed by the PreToolUse hook [${allower?.handler.label ?? '?'}]`
    return { action: 'allow', reason: aggregated.reason !== undefined ? `${who}: ${aggregated.reason}` : who, by: BY, answersAsk: true }
  }
}
