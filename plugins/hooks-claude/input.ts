// The stdin JSON every hook gets: Claude Code's common fields (snake_case) plus the event's own
// (claude-code-hooks.md §6 "Common input fields").
import type { AgentHandle, SubagentIdentity } from '@seam/sdk'
import type { ClaudeHookEvent, ClaudePermissionMode } from '../hook-protocol/index'

/** Events that carry `permission_mode` (prompt, tool and stop events; StopFailure as Stop). */
const WITH_PERMISSION_MODE: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>([
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'StopFailure'
])

/** Events that carry `effort: {level}` (tool events and Stop, §6 common fields). */
export const WITH_EFFORT: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop'])

/** Events that name the subagent among their own fields (not in the common part). */
const AGENT_EVENTS: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>(['SubagentStart', 'SubagentStop'])

export interface InputBase {
  sessionId: string
  transcriptPath: string
  cwd: string
  /** The turn id plays Claude Code's `prompt_id` (absent before the first prompt). */
  promptId?: string
  /** The approval mode in force, named as Claude Code names it (`claudePermissionMode`). */
  permissionMode: ClaudePermissionMode
  effort: string
  /** Set when the event fires inside a subagent: `agent_id`, `agent_type`. */
  agent?: SubagentIdentity
}

export function baseOf(agent: AgentHandle, permissionMode: ClaudePermissionMode, effort: string): InputBase {
  const base: InputBase = { sessionId: agent.sessionId, transcriptPath: agent.transcriptPath, cwd: agent.cwd, permissionMode, effort }
  if (agent.currentTurnId !== undefined) base.promptId = agent.currentTurnId
  return base
}

export function hookInput(event: ClaudeHookEvent, base: InputBase, fields: Record<string, unknown>): Record<string, unknown> {
  // Claude Code's key order: session_id, transcript_path, cwd, prompt_id, permission_mode, hook_event_name (§0).
  const input: Record<string, unknown> = {
    session_id: base.sessionId,
    transcript_path: base.transcriptPath,
    cwd: base.cwd
  }
  if (base.promptId !== undefined) input.prompt_id = base.promptId
  if (WITH_PERMISSION_MODE.has(event)) input.permission_mode = base.permissionMode
  if (WITH_EFFORT.has(event)) input.effort = { level: base.effort }
  // Inside a subagent, Claude Code's base input ends with agent_id and agent_type, before the
  // event name; SubagentStart/SubagentStop carry them among their own fields instead.
  if (base.agent && !AGENT_EVENTS.has(event)) {
    input.agent_id = base.agent.agentId
    input.agent_type = base.agent.agentType
  }
  input.hook_event_name = event
  return Object.assign(input, fields)
}
