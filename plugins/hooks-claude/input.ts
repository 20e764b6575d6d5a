// The stdin JSON every hook gets: Claude Code's common fields (snake_case) plus the event's own
// (claude-code-hooks.md §6 "Common input fields").
import type { AgentHandle } from '@seam/sdk'
import type { ClaudeHookEvent } from '../hook-protocol/index'

/** Seam has no Claude permission modes; hooks that read the field get Claude's default. */
export const PERMISSION_MODE = 'default'

/** Events that carry `permission_mode` (prompt, tool and stop events). */
const WITH_PERMISSION_MODE: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>([
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop'
])

export interface InputBase {
  sessionId: string
  transcriptPath: string
  cwd: string
  /** The turn id plays Claude Code's `prompt_id` (absent before the first prompt). */
  promptId?: string
}

export function baseOf(agent: AgentHandle): InputBase {
  const base: InputBase = { sessionId: agent.sessionId, transcriptPath: agent.transcriptPath, cwd: agent.cwd }
  if (agent.currentTurnId !== undefined) base.promptId = agent.currentTurnId
  return base
}

export function hookInput(event: ClaudeHookEvent, base: InputBase, fields: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {
    session_id: base.sessionId,
    transcript_path: base.transcriptPath,
    cwd: base.cwd,
    hook_event_name: event
  }
  if (base.promptId !== undefined) input.prompt_id = base.promptId
  if (WITH_PERMISSION_MODE.has(event)) input.permission_mode = PERMISSION_MODE
  return Object.assign(input, fields)
}
