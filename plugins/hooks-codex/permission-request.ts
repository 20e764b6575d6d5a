// PermissionRequest -> tools/permission-request (codex-hooks.md §4, §5 PermissionRequest).
// Fires after PreToolUse, only when the call would ask for approval (the permission policy answered
// "ask" and no session grant covers it). Input: the common fields, `turn_id`, `tool_name`,
// `tool_input` as PreToolUse shows them (Bash also carries the model's `description`); no
// `tool_use_id`.
//
//   decision.behavior "allow"   -> approved without asking anyone; the call runs
//   decision.behavior "deny"    -> refused with `message` (or Codex's "PermissionRequest hook denied approval")
//   exit 2 + stderr             -> a deny with the stderr as the message
//   no decision, a failure, `updatedInput` / `updatedPermissions` / `interrupt: true`
//                               -> falls through: the user is asked (headless: refused)
// Several hooks: a deny wins over an allow (aggregateOutcomes), as with PreToolUse.
import { aggregateOutcomes } from '../hook-protocol'
import type { Next, PermissionAsk, PermissionRequestDecision } from '@seam/sdk'
import type { CodexBridge } from './bridge'
import { commonInput, hookInput } from './hook-input'
import { SOURCE } from './run'
import { presentToolCall } from './tool-view'

const EVENT = 'PermissionRequest'
const BY = `${SOURCE}:${EVENT}`

export function registerPermissionRequest(bridge: CodexBridge): void {
  bridge.ctx.on('tools/permission-request', (ask, next) => permissionRequest(bridge, ask, next))
}

async function permissionRequest(bridge: CodexBridge, ask: PermissionAsk, next: Next<Promise<PermissionRequestDecision>>): Promise<PermissionRequestDecision> {
  const { call } = ask
  const state = bridge.sessions.get(call.sessionId, call.agent)
  const loaded = bridge.hooksFor(state, call.cwd)
  const view = presentToolCall(call.name, call.args, call.cwd)
  const toolInput = view.kind === 'bash' && typeof call.args.description === 'string' ? { ...view.toolInput, description: call.args.description } : view.toolInput
  const input = hookInput(EVENT, commonInput(state, call.sessionId, call.cwd, bridge.permissionMode(call.sessionId)), {
    turn_id: call.turnId ?? state?.agent.currentTurnId ?? null,
    tool_name: view.toolName,
    tool_input: toolInput
  })
  const handlers = bridge.runner.matching(EVENT, loaded.handlers, input)
  if (handlers.length === 0) return next()
  const runs = await bridge.runner.run(EVENT, handlers, input, { state, cwd: call.cwd, toolCallToken: call.token })
  const outcome = aggregateOutcomes(runs.map((run) => run.outcome))
  if (outcome.blocked) return { action: 'deny', by: BY, reason: outcome.reason ?? 'PermissionRequest hook denied approval' }
  if (outcome.decision === 'allow') return { action: 'allow', by: BY, reason: 'approved by a Codex PermissionRequest hook' }
  return next()
}
