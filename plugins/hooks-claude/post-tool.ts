// PostToolUse / PostToolUseFailure -> tools/post-execute (S14, S17). As in Claude Code the tool
// result itself is kept; blocking errors (exit 2, `decision: "block"`) and additionalContext
// reach the model as one context message after the step's results, contexts first, each worded
// as the spec records. `updatedMCPToolOutput` replaces an MCP tool's (`mcp__…`) output.
import type { CallVerdict, PostToolDecision, SealedCall, ToolResult } from '@seam/sdk'
import type { Next } from '@seam/sdk'
import { deliverAsync, entryOf, mcpServerField, occurrence, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import { sinkFor } from './sessions'
import { ToolCallStates } from './tool-calls'
import { claudeToolResponse } from './tool-response'
import { postToolBlocking, postToolContext } from './wording'

export function onPostExecute(bridge: Bridge, calls: ToolCallStates) {
  return async (call: SealedCall, result: Readonly<ToolResult>, verdict: Readonly<CallVerdict>, next: Next<Promise<PostToolDecision>>): Promise<PostToolDecision> => {
    const state = calls.take(ToolCallStates.key(call.sessionId, call.callId))
    // A call whose rewrite failed validation never reached pre-execute: its PreToolUse records go out now.
    state?.pre?.sink.seal(call.token)
    const context = state ? [...state.context] : []
    const event = result.isError ? 'PostToolUseFailure' : 'PostToolUse'
    // A call that never ran (denied by a hook, a policy, the user, or invalid) gets no post hooks;
    // one the permission policy itself refused gets PermissionDenied.
    if (verdict.outcome !== 'allowed' || !bridge.invoker.has(event)) {
      if (deniedByPolicy(verdict)) await permissionDenied(bridge, call, verdict.reason ?? 'denied by the permission policy')
      return merge(await next(), undefined, context)
    }

    const entry = entryOf(bridge, call)
    // Claude Code's key order: tool_response before tool_use_id, error after it; an MCP tool's mcp_server right after tool_use_id.
    const fields: Record<string, unknown> = { tool_name: call.name, tool_input: call.args }
    if (result.isError) {
      Object.assign(fields, { tool_use_id: call.callId, ...mcpServerField(bridge, call.name, call.sessionId) })
      fields.error = result.content
      fields.is_interrupt = result.code === 'CANCELLED'
    } else {
      fields.tool_response = mcpContent(call.name, result.structured) ?? claudeToolResponse(call.name, result)
      Object.assign(fields, { tool_use_id: call.callId, ...mcpServerField(bridge, call.name, call.sessionId) })
    }
    if (state) fields.duration_ms = Math.max(0, Math.round(performance.now() - state.startedAt))
    const sink = sinkFor(entry, bridge.logger)
    const occ = occurrence(bridge, event, entry, fields, {
      sessionId: call.sessionId,
      // The session's directory now: after `cd sub` the call's own post hooks already run in sub (§3).
      cwd: entry?.agent.cwd ?? call.cwd,
      sink,
      tool: { name: call.name, input: call.args as Record<string, unknown> },
      toolCallToken: call.token,
      onAsyncDone: (run) => deliverAsync(entry, run, event)
    })
    const run = await bridge.invoker.run(occ)
    const inner = await next()
    if (!run) return merge(inner, undefined, context)

    showSystemMessages(run.runs, sink, event)
    const stop = stopRequest(run.runs)
    if (stop) entry?.agent.stop(stop.reason, `hook:${event}`)
    const contexts: string[] = []
    const errors: string[] = []
    for (const hook of run.runs) {
      if (hook.outcome.additionalContext) contexts.push(postToolContext(event, call.name, hook.outcome.additionalContext))
      if (hook.outcome.kind === 'block') errors.push(postToolBlocking(event, call.name, hook.handler.label, blockText(hook, 'blocked by hook')))
    }
    const message = [...contexts, ...errors]
    if (message.length > 0) context.push(message.join('\n\n'))
    const replaced = call.name.startsWith('mcp__') && run.aggregated.updatedToolOutput !== undefined ? outputText(run.aggregated.updatedToolOutput) : undefined
    return merge(inner, replaced, context)
  }
}

/**
 * PermissionDenied (claude-code-hooks.md §6.0: input `tool_name`, `tool_input`, `tool_use_id`,
 * `reason`; documented for auto-mode denials, never fired in -p): Seam fires it when the
 * permission policy refused the call at pre-execute: a deny rule, `dontAsk` (not pre-approved),
 * `plan` (read-only). Not for a hook's, a guard's or the user's deny. Its answer (`retry`) is
 * recorded, not acted on.
 */
function deniedByPolicy(verdict: Readonly<CallVerdict>): boolean {
  return verdict.outcome === 'denied' && verdict.stage === 'pre-execute' && verdict.by === 'permission-policy'
}

async function permissionDenied(bridge: Bridge, call: SealedCall, reason: string): Promise<void> {
  if (!bridge.invoker.has('PermissionDenied')) return
  const entry = entryOf(bridge, call)
  const sink = sinkFor(entry, bridge.logger)
  const input = call.args as Record<string, unknown>
  const occ = occurrence(bridge, 'PermissionDenied', entry, { tool_name: call.name, tool_input: input, tool_use_id: call.callId, reason }, {
    sessionId: call.sessionId,
    cwd: entry?.agent.cwd ?? call.cwd,
    sink,
    tool: { name: call.name, input },
    toolCallToken: call.token,
    onAsyncDone: (run) => deliverAsync(entry, run, 'PermissionDenied')
  })
  const run = await bridge.invoker.run(occ)
  if (run) showSystemMessages(run.runs, sink, 'PermissionDenied')
}

/** Claude Code hands PostToolUse an MCP tool's content array as `tool_response` (the mcp plugin keeps it as `structured.content`). */
function mcpContent(name: string, structured: ToolResult['structured']): unknown {
  if (!name.startsWith('mcp__') || structured === null || typeof structured !== 'object' || Array.isArray(structured)) return undefined
  return Array.isArray(structured.content) ? structured.content : undefined
}

function merge(inner: PostToolDecision, content: string | undefined, context: readonly string[]): PostToolDecision {
  if (content === undefined && context.length === 0) return inner
  const merged: PostToolDecision = { ...inner }
  if (content !== undefined) merged.content = content
  const all = [...(inner.additionalContext ?? []), ...context]
  if (all.length > 0) merged.additionalContext = all
  return merged
}

/** An MCP output as text: a string as is, text blocks joined, anything else as JSON. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output
  if (Array.isArray(output) && output.every((block) => typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text')) {
    return output.map((block) => String((block as { text?: unknown }).text ?? '')).join('\n')
  }
  return JSON.stringify(output)
}
