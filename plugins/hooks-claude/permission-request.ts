// PermissionRequest -> tools/permission-request (claude-code-hooks.md §6 PermissionRequest, §5.2).
// Fires when the permission policy's answer is "ask" and no session grant covers the call, before
// the user is asked. Input: `tool_name`, `tool_input`, `permission_suggestions` (the rules "always
// allow" would save, as Claude Code's addRules entry for localSettings); no `tool_use_id`.
//
//   decision.behavior "allow"  -> the call runs; `updatedInput` replaces its input (schema-checked,
//                                 the model reads Claude Code's words when it fails);
//                                 `updatedPermissions` applied where they say (session or settings file)
//   decision.behavior "deny"   -> refused with `message`; `interrupt: true` also ends the turn
//   exit 2                     -> a deny with the stderr
//   no decision, a failure     -> the user is asked (headless without an answerer: refused)
//
// A malformed `updatedPermissions` makes the answer a failure naming the field (a notice), so
// nothing is written and the user is asked. Hooks combine as deny > allow, configuration order.
import type { JsonObject, Next, PermissionAsk, PermissionRequestDecision } from '@seam/sdk'
import { parsePermissionRule, permissionSuggestions, type RuleValue } from '../hook-protocol/index'
import { deliverAsync, entryOf, occurrence, showSystemMessages, stopRequest, type Bridge } from './bridge'
import { blockText } from './invoke'
import { sinkFor } from './sessions'

const EVENT = 'PermissionRequest'
const BY = 'hook:PermissionRequest'

export function onPermissionRequest(bridge: Bridge) {
  return async (ask: PermissionAsk, next: Next<Promise<PermissionRequestDecision>>): Promise<PermissionRequestDecision> => {
    if (!bridge.invoker.has(EVENT)) return next()
    const { call } = ask
    const entry = entryOf(bridge, call)
    const sink = sinkFor(entry, bridge.logger)
    const input = call.args as Record<string, unknown>
    const fields = { tool_name: call.name, tool_input: input, permission_suggestions: permissionSuggestions(ask.suggestions.map(ruleValue)) }
    const occ = occurrence(bridge, EVENT, entry, fields, {
      sessionId: call.sessionId,
      cwd: entry?.agent.cwd ?? call.cwd,
      sink,
      tool: { name: call.name, input },
      toolCallToken: call.token,
      onAsyncDone: (run) => deliverAsync(entry, run, EVENT)
    })
    const result = await bridge.invoker.run(occ)
    if (!result) return next()
    const { runs, aggregated } = result
    showSystemMessages(runs, sink, EVENT)
    const stop = stopRequest(runs)
    if (stop) entry?.agent.stop(stop.reason, BY)

    if (aggregated.blocked || aggregated.decision === 'deny') {
      const denier = runs.find((run) => run.outcome.kind === 'block' || run.outcome.decision === 'deny')
      const reason = denier ? blockText(denier, `denied by the PermissionRequest hook [${denier.handler.label}]`) : 'denied by a PermissionRequest hook'
      // `interrupt: true`: the turn ends after this call (Claude Code stops the agent).
      if (aggregated.interrupt) entry?.agent.stop(`interrupted by a PermissionRequest hook: ${reason}`, BY)
      return { action: 'deny', by: BY, reason }
    }
    if (aggregated.decision !== 'allow') return next()
    const allower = runs.find((run) => run.outcome.decision === 'allow')
    const updates = allower?.outcome.updatedPermissions
    return {
      action: 'allow',
      by: BY,
      reason: `allowed by the PermissionRequest hook [${allower?.handler.label ?? '?'}]`,
      ...(aggregated.updatedInput !== undefined
        ? { updatedArgs: aggregated.updatedInput as JsonObject, invalidText: `PermissionRequest hook for ${call.name} returned updatedInput that failed schema validation` }
        : {}),
      ...(updates !== undefined && updates.length > 0 ? { updatedPermissions: updates.map((update) => structuredClone(update)) } : {})
    }
  }
}

/** `Bash(npm test:*)` as Claude Code's `{toolName, ruleContent}`. */
function ruleValue(rule: string): RuleValue {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok) return { toolName: rule }
  return parsed.specifier === undefined ? { toolName: parsed.tool } : { toolName: parsed.tool, ruleContent: parsed.specifier }
}
