// Which input field an event's matcher is tested against, per protocol. `null` means the event
// ignores its matcher: every handler of the event runs.
import type { ClaudeHookEvent, CodexHookEvent } from './events'
import { matchesClaude, matchesCodex, type MatcherErrorReport } from './matcher'

/** Claude Code: claude-code-hooks.md §2.3 and §6.0. */
const CLAUDE_TARGET_FIELD: Partial<Record<ClaudeHookEvent, string>> = {
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  PermissionRequest: 'tool_name',
  PermissionDenied: 'tool_name',
  SessionStart: 'source',
  SessionEnd: 'reason',
  Setup: 'trigger',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  Notification: 'notification_type',
  StopFailure: 'error',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  Elicitation: 'mcp_server_name',
  ElicitationResult: 'mcp_server_name',
  ConfigChange: 'source',
  // "the target model"; the spec gives no field name, `model` is the common field that carries it.
  PreModelSwitch: 'model',
  PostModelSwitch: 'model'
}

/** Codex: codex-hooks.md §2.2. SessionEnd's matcher effect was not observed; `reason` is assumed. */
const CODEX_TARGET_FIELD: Partial<Record<CodexHookEvent, string>> = {
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PermissionRequest: 'tool_name',
  SessionStart: 'source',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  SessionEnd: 'reason'
}

/** Codex matches some tools under extra names (codex-hooks.md §2.2, §4). */
export const CODEX_TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  apply_patch: ['Edit', 'Write']
}

export function claudeMatchTarget(event: ClaudeHookEvent, input: Record<string, unknown>): string | null {
  const field = CLAUDE_TARGET_FIELD[event]
  return field === undefined ? null : stringField(input, field)
}

/** The value and its aliases; `null` when the event ignores matchers. */
export function codexMatchTargets(event: CodexHookEvent, input: Record<string, unknown>): string[] | null {
  const field = CODEX_TARGET_FIELD[event]
  if (field === undefined) return null
  const value = stringField(input, field)
  return field === 'tool_name' ? [value, ...(CODEX_TOOL_ALIASES[value] ?? [])] : [value]
}

export type MatchTargetRequest =
  | { source: 'claude'; event: ClaudeHookEvent; input: Record<string, unknown> }
  | { source: 'codex'; event: CodexHookEvent; input: Record<string, unknown> }

/** Targets for either protocol: a list (value + aliases) or `null` when the matcher is ignored. */
export function matchTargetFor(request: MatchTargetRequest): string[] | null {
  if (request.source === 'codex') return codexMatchTargets(request.event, request.input)
  const target = claudeMatchTarget(request.event, request.input)
  return target === null ? null : [target]
}

/** Whether a handler group with `matcher` runs for this event occurrence. */
export function groupMatches(request: MatchTargetRequest, matcher: string | undefined, report?: MatcherErrorReport): boolean {
  const targets = matchTargetFor(request)
  if (targets === null) return true
  return request.source === 'claude' ? matchesClaude(matcher, targets[0], report) : matchesCodex(matcher, targets, report)
}

function stringField(input: Record<string, unknown>, field: string): string {
  const value = input[field]
  return typeof value === 'string' ? value : ''
}
