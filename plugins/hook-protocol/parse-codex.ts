// Interprets one Codex hook's result (codex-hooks.md §5, §5.1, §7). Everything fails open: only
// exit 2 with a non-empty stderr, a well-formed block/deny with a non-empty reason, or
// `continue: false` where the event supports it changes anything. An `error` outcome never
// carries effect fields.
import type { z } from 'zod'
import { CODEX_BLOCKING_EVENTS, type CodexHookEvent } from './events'
import {
  CodexPermissionRequestOutput,
  CodexPostToolUseOutput,
  CodexPreToolUseOutput,
  CodexStartOutput,
  CodexStopOutput,
  CodexUniversalOutput,
  CodexUserPromptSubmitOutput
} from './codex-output-schema'
import { answerOf, describeIssues, nonEmpty } from './execution'
import { failed, type HookExecution, type HookOutcome } from './outcome'

/** Plain stdout of exit 0 becomes context here; for Stop/SubagentStop it is invalid; elsewhere ignored. */
const PLAIN_STDOUT_CONTEXT_EVENTS: ReadonlySet<CodexHookEvent> = new Set<CodexHookEvent>(['UserPromptSubmit', 'SessionStart'])
const JSON_ONLY_EVENTS: ReadonlySet<CodexHookEvent> = new Set<CodexHookEvent>(['Stop', 'SubagentStop'])
/** Events whose stdout Codex never reads. */
const STDOUT_IGNORED_EVENTS: ReadonlySet<CodexHookEvent> = new Set<CodexHookEvent>(['SessionEnd', 'PreModelRequest', 'PostModelRequest'])

export const CODEX_PERMISSION_DENIED_TEXT = 'PermissionRequest hook denied approval'

export function parseCodexHookOutput(event: CodexHookEvent, result: HookExecution): HookOutcome {
  const answer = answerOf(result)
  if (answer.failure) return failed(answer.failure.kind, answer.failure.message)
  if (answer.exitCode === null) return failed('signal', 'hook exited without a status code')
  if (answer.exitCode === 2) {
    const reason = nonEmpty(answer.stderr)
    if (!reason) return failed('invalid_output', 'hook exited with code 2 but did not write a reason to stderr')
    if (!CODEX_BLOCKING_EVENTS.has(event)) return failed('nonzero_exit', reason)
    return event === 'PreToolUse' || event === 'PermissionRequest' ? { kind: 'block', decision: 'deny', reason } : { kind: 'block', reason }
  }
  if (answer.exitCode !== 0) return failed('nonzero_exit', `hook exited with code ${answer.exitCode}`)
  if (STDOUT_IGNORED_EVENTS.has(event)) return { kind: 'ok' }

  const text = answer.stdout.trim()
  if (text === '') return { kind: 'ok' }
  if (!text.startsWith('{') && !text.startsWith('[')) {
    if (PLAIN_STDOUT_CONTEXT_EVENTS.has(event)) return { kind: 'ok', plainStdoutContext: text }
    if (JSON_ONLY_EVENTS.has(event)) return failed('bad_json', `hook returned invalid ${event} JSON output: plain text`)
    return { kind: 'ok' }
  }
  if (answer.stdoutTruncated) return failed('bad_json', `hook returned invalid ${event} JSON output: stdout exceeded the output limit`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return failed('bad_json', `hook returned invalid ${event} JSON output: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return failed('bad_json', `hook returned invalid ${event} JSON output: expected one JSON object`)
  }
  return interpretJson(event, json)
}

function interpretJson(event: CodexHookEvent, json: object): HookOutcome {
  switch (event) {
    case 'PreToolUse':
      return validated(event, CodexPreToolUseOutput, json, preToolUse)
    case 'PermissionRequest':
      return validated(event, CodexPermissionRequestOutput, json, permissionRequest)
    case 'PostToolUse':
      return validated(event, CodexPostToolUseOutput, json, postToolUse)
    case 'UserPromptSubmit':
      return validated(event, CodexUserPromptSubmitOutput, json, (out) => blockOrStop(out, withContext(stopFields(out), out.hookSpecificOutput?.additionalContext)))
    case 'SessionStart':
    case 'SubagentStart':
      return validated(event, CodexStartOutput, json, (out) => withContext(stopFields(out), out.hookSpecificOutput?.additionalContext))
    case 'Stop':
    case 'SubagentStop':
      return validated(event, CodexStopOutput, json, (out) => blockOrStop(out, stopFields(out)))
    case 'PreCompact':
    case 'PostCompact':
    case 'Interrupt':
      return validated(event, CodexUniversalOutput, json, stopFields)
    case 'SessionEnd':
    case 'PreModelRequest':
    case 'PostModelRequest':
      return { kind: 'ok' }
  }
}

function validated<T>(event: CodexHookEvent, schema: z.ZodType<T>, json: object, interpret: (output: T) => HookOutcome): HookOutcome {
  const parsed = schema.safeParse(json)
  if (!parsed.success) return failed('invalid_output', `hook returned invalid ${event} JSON output: ${describeIssues(parsed.error.issues)}`)
  return interpret(parsed.data)
}

interface Universal {
  continue?: boolean | null
  stopReason?: string | null
  suppressOutput?: boolean | null
  systemMessage?: string | null
}

/** Universal fields of an event that supports `continue: false`. */
function stopFields(output: Universal): HookOutcome {
  const outcome: HookOutcome = { kind: 'ok' }
  if (output.systemMessage != null) outcome.systemMessage = output.systemMessage
  if (output.suppressOutput != null) outcome.suppressOutput = output.suppressOutput
  if (output.continue === false) {
    outcome.continue = false
    if (output.stopReason != null) outcome.stopReason = output.stopReason
  }
  return outcome
}

function withContext(outcome: HookOutcome, context: string | null | undefined): HookOutcome {
  if (context != null) outcome.additionalContext = context
  return outcome
}

/** Legacy `{decision: "block", reason}`: needs a non-empty reason; `reason` alone is an error. */
function blockOrStop(output: { decision?: 'block' | null; reason?: string | null }, outcome: HookOutcome): HookOutcome {
  if (output.decision == null) {
    return output.reason != null ? failed('invalid_output', 'reason without decision:"block"') : outcome
  }
  const reason = nonEmpty(output.reason)
  if (!reason) return failed('invalid_output', 'decision:"block" needs a non-empty reason')
  return { ...outcome, kind: 'block', reason }
}

/** continue:false, stopReason and suppressOutput are unsupported on the tool-permission events. */
function unsupportedUniversal(output: Universal, event: string): HookOutcome | undefined {
  for (const [field, present] of [
    ['continue:false', output.continue === false],
    ['stopReason', output.stopReason != null],
    ['suppressOutput', output.suppressOutput === true]
  ] as const) {
    if (present) return failed('unsupported', `${event} hook returned unsupported ${field}`)
  }
  return undefined
}

function preToolUse(output: z.infer<typeof CodexPreToolUseOutput>): HookOutcome {
  const unsupported = unsupportedUniversal(output, 'PreToolUse')
  if (unsupported) return unsupported
  const specific = output.hookSpecificOutput
  const outcome = withContext({ kind: 'ok' }, specific?.additionalContext)
  if (output.systemMessage != null) outcome.systemMessage = output.systemMessage
  const decision = specific?.permissionDecision
  if (decision === 'deny') {
    const reason = nonEmpty(specific?.permissionDecisionReason)
    if (!reason) return failed('invalid_output', 'permissionDecision:"deny" needs a non-empty permissionDecisionReason')
    return { ...outcome, kind: 'block', decision: 'deny', reason }
  }
  if (decision === 'ask') return failed('unsupported', 'unsupported permissionDecision:ask')
  if (decision === 'allow') {
    if (specific?.updatedInput == null) return failed('unsupported', 'unsupported permissionDecision:allow (without updatedInput)')
    return { ...outcome, decision: 'allow', updatedInput: specific.updatedInput }
  }
  if (specific?.updatedInput != null) return failed('invalid_output', 'updatedInput needs permissionDecision:"allow"')
  if (output.decision === 'approve') return failed('unsupported', 'unsupported decision:"approve"')
  const blocked = blockOrStop({ decision: output.decision === 'block' ? 'block' : null, reason: output.reason }, outcome)
  return blocked.kind === 'block' ? { ...blocked, decision: 'deny' } : blocked
}

function permissionRequest(output: z.infer<typeof CodexPermissionRequestOutput>): HookOutcome {
  const unsupported = unsupportedUniversal(output, 'PermissionRequest')
  if (unsupported) return unsupported
  const outcome: HookOutcome = { kind: 'ok' }
  if (output.systemMessage != null) outcome.systemMessage = output.systemMessage
  const decision = output.hookSpecificOutput?.decision
  if (decision == null) return outcome // no decision: the normal approval flow decides
  for (const [field, present] of [
    ['updatedInput', decision.updatedInput !== undefined],
    ['updatedPermissions', decision.updatedPermissions !== undefined],
    ['interrupt', decision.interrupt === true]
  ] as const) {
    if (present) return failed('unsupported', `PermissionRequest hook returned unsupported decision.${field}`)
  }
  if (decision.behavior === 'allow') return { ...outcome, decision: 'allow' }
  return { ...outcome, kind: 'block', decision: 'deny', reason: nonEmpty(decision.message) ?? CODEX_PERMISSION_DENIED_TEXT }
}

function postToolUse(output: z.infer<typeof CodexPostToolUseOutput>): HookOutcome {
  if (output.suppressOutput === true) return failed('unsupported', 'PostToolUse hook returned unsupported suppressOutput')
  if (output.hookSpecificOutput?.updatedMCPToolOutput !== undefined) {
    return failed('unsupported', 'PostToolUse hook returned unsupported updatedMCPToolOutput')
  }
  return blockOrStop(output, withContext(stopFields(output), output.hookSpecificOutput?.additionalContext))
}
