// Interprets one Claude Code hook's result (claude-code-hooks.md §4 exit codes, §5 JSON, §6 per
// event): exit 0 with optional JSON; exit 2 blocks with stderr and ignores stdout; any other
// code is a non-blocking error whose valid JSON is still honoured.
import { CLAUDE_BLOCKING_EVENTS, PERMISSION_EVENTS, type ClaudeHookEvent } from './events'
import { ClaudePermissionRequestDecision, ClaudeTopLevelOutput, claudeSpecificSchema } from './claude-output-schema'
import { parsePermissionUpdates } from './permission-updates'
import { answerOf, describeIssues, isPlainObject, parseJsonObject } from './execution'
import { applyFailurePolicy, failed, type HookExecution, type HookFailurePolicy, type HookOutcome } from './outcome'

export interface ClaudeParseOptions {
  /** The handler's `onFailure`: `block` turns a failure into a block (default `continue`). */
  onFailure?: HookFailurePolicy
}

/** Events where plain (non-JSON) stdout of exit 0 becomes context (§4). */
const PLAIN_STDOUT_CONTEXT_EVENTS: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>(['UserPromptSubmit', 'SessionStart'])

/** Text the CLI uses when an exit-2 hook wrote nothing to stderr (§4). */
export const CLAUDE_EMPTY_STDERR_TEXT = 'No stderr output'

export function parseClaudeHookOutput(event: ClaudeHookEvent, result: HookExecution, options: ClaudeParseOptions = {}): HookOutcome {
  const outcome = interpret(event, result)
  const stderr = result.handlerType === 'command' ? result.stderr : ''
  return applyFailurePolicy(outcome, options.onFailure ?? 'continue', PERMISSION_EVENTS.has(event), stderr)
}

function interpret(event: ClaudeHookEvent, result: HookExecution): HookOutcome {
  const answer = answerOf(result)
  // Killed, never started, or a bad HTTP status: output printed before that is not used (§3).
  if (answer.failure) return failed(answer.failure.kind, answer.failure.message)
  if (answer.exitCode === null) return failed('signal', `hook was killed by ${answer.signal ?? 'a signal'}`)
  if (answer.exitCode === 2) return blockingExit(event, answer.stderr)

  const text = answer.stdout.trim()
  const looksLikeJson = text.startsWith('{')
  if (looksLikeJson && answer.stdoutTruncated) {
    return failed('invalid_output', `hook stdout exceeded the output limit and was cut; its JSON was not used`)
  }
  const json = looksLikeJson ? parseJsonObject(text) : undefined

  if (answer.exitCode === 0) {
    if (json) return fromJson(event, json)
    // Stricter than Claude Code (which reads it as plain text): an answer that starts like JSON
    // but does not parse is a visible failure, so a fail-closed hook cannot be let through by a typo.
    if (looksLikeJson) return failed('invalid_output', `hook stdout starts with "{" but is not valid JSON: ${jsonError(text)}`)
    // Not JSON: plain text, context only for some events.
    if (text !== '' && PLAIN_STDOUT_CONTEXT_EVENTS.has(event)) return { kind: 'ok', plainStdoutContext: text }
    return { kind: 'ok' }
  }

  const exitText = `hook exited with code ${answer.exitCode}`
  if (!json) return failed('nonzero_exit', exitText)
  // Non-zero, non-2 exit: still a non-blocking error, but its valid JSON counts (a deny denies).
  const honoured = fromJson(event, json)
  if (honoured.kind === 'block') return { ...honoured, failureKind: 'nonzero_exit', errorMessage: exitText }
  if (honoured.kind === 'error') return { ...honoured, errorMessage: `${exitText}; ${honoured.errorMessage ?? ''}` }
  return { ...honoured, kind: 'error', failureKind: 'nonzero_exit', errorMessage: exitText }
}

function jsonError(text: string): string {
  try {
    JSON.parse(text)
    return 'not a single JSON object'
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function blockingExit(event: ClaudeHookEvent, stderr: string): HookOutcome {
  // Byte for byte, leading and trailing newlines included: the model reads stderr as written (§4).
  const reason = stderr !== '' ? stderr : CLAUDE_EMPTY_STDERR_TEXT
  if (!CLAUDE_BLOCKING_EVENTS.has(event)) return failed('nonzero_exit', `hook exited with code 2, which does not block ${event}: ${reason}`)
  const outcome: HookOutcome = { kind: 'block', reason }
  if (PERMISSION_EVENTS.has(event)) outcome.decision = 'deny'
  return outcome
}

function fromJson(event: ClaudeHookEvent, json: Record<string, unknown>): HookOutcome {
  const top = ClaudeTopLevelOutput.safeParse(json)
  if (!top.success) return failed('invalid_output', `hook JSON output is invalid: ${describeIssues(top.error.issues)}`)
  const output = top.data

  let specific: Record<string, unknown> | undefined
  if (output.hookSpecificOutput) {
    const name = output.hookSpecificOutput.hookEventName
    if (typeof name !== 'string') return failed('invalid_output', 'hook JSON output is invalid: hookSpecificOutput.hookEventName: required string')
    if (name !== event) return failed('invalid_output', `hook returned incorrect event name: expected ${JSON.stringify(event)}, got ${JSON.stringify(name)}`)
    const parsed = claudeSpecificSchema(event).safeParse(output.hookSpecificOutput)
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ['hookSpecificOutput', ...issue.path] }))
      return failed('invalid_output', `hook JSON output is invalid: ${describeIssues(issues)}`)
    }
    specific = parsed.data
  }

  const outcome: HookOutcome = { kind: 'ok' }
  if (output.continue !== undefined) outcome.continue = output.continue
  if (output.continue === false && output.stopReason !== undefined) outcome.stopReason = output.stopReason
  if (output.suppressOutput !== undefined) outcome.suppressOutput = output.suppressOutput
  if (output.systemMessage !== undefined) outcome.systemMessage = output.systemMessage
  if (specific) {
    outcome.hookSpecificOutput = specific
    if (typeof specific.additionalContext === 'string') outcome.additionalContext = specific.additionalContext
  }

  switch (event) {
    case 'PreToolUse':
    case 'PreSkillShellCommand':
    case 'PreModelSwitch':
      return permissionAnswer(outcome, output, specific)
    case 'PermissionRequest':
      return permissionRequestAnswer(outcome, specific)
    case 'PostToolUse':
      if (specific && specific.updatedMCPToolOutput !== undefined) outcome.updatedToolOutput = specific.updatedMCPToolOutput
      break
  }
  if (output.decision === 'block' && CLAUDE_BLOCKING_EVENTS.has(event)) {
    outcome.kind = 'block'
    if (output.reason !== undefined) outcome.reason = output.reason
  }
  return outcome
}

/** PreToolUse-style answers: `permissionDecision` wins over the legacy `decision` (§5, §5.1). */
function permissionAnswer(outcome: HookOutcome, output: ClaudeTopLevelOutput, specific: Record<string, unknown> | undefined): HookOutcome {
  const legacy = output.decision === 'block' ? 'deny' : output.decision === 'approve' ? 'allow' : undefined
  const decision = (specific?.permissionDecision as 'allow' | 'deny' | 'ask' | 'defer' | undefined) ?? legacy
  const reason = typeof specific?.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : output.reason
  if (decision) outcome.decision = decision
  if (decision === 'deny') outcome.kind = 'block'
  if (decision && reason !== undefined) outcome.reason = reason
  if (isPlainObject(specific?.updatedInput)) outcome.updatedInput = specific.updatedInput
  return outcome
}

function permissionRequestAnswer(outcome: HookOutcome, specific: Record<string, unknown> | undefined): HookOutcome {
  const parsed = ClaudePermissionRequestDecision.safeParse(specific?.decision)
  if (!parsed.success) return outcome // no decision: the request stays unanswered
  const decision = parsed.data
  if (decision.behavior === 'allow') {
    if (decision.updatedPermissions !== undefined) {
      // A malformed rule update is a failed answer naming the field: no decision, nothing written.
      const updates = parsePermissionUpdates(decision.updatedPermissions, 'hookSpecificOutput.decision.updatedPermissions')
      if (!updates.ok) return failed('invalid_output', `hook JSON output is invalid: ${updates.problem}`)
      outcome.updatedPermissions = updates.updates
    }
    outcome.decision = 'allow'
    if (decision.updatedInput) outcome.updatedInput = decision.updatedInput
    return outcome
  }
  outcome.kind = 'block'
  outcome.decision = 'deny'
  if (decision.message !== undefined) outcome.reason = decision.message
  if (decision.interrupt) outcome.interrupt = true
  return outcome
}
