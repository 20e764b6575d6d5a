// The JSON a Codex hook reads on stdin, with Codex's field names (codex-hooks.md §4).
import type { SubagentIdentity } from '@seam/sdk'
import type { ClaudePermissionMode, CodexHookEvent } from '../hook-protocol'
import { rolloutPathOf } from './rollout'
import { sessionModel, type SessionState } from './sessions'

export interface CommonInput {
  sessionId: string
  transcriptPath: string | null
  cwd: string
  model: string
  /** The approval mode in force, in Codex's values (`default`, `bypassPermissions`, ...). */
  permissionMode: ClaudePermissionMode
  /** Inside a subagent: `agent_id`, `agent_type` (codex-hooks.md §4). */
  agent?: SubagentIdentity
}

export function commonInput(state: SessionState | undefined, sessionId: string, cwd: string, permissionMode: ClaudePermissionMode): CommonInput {
  return {
    sessionId,
    // Codex gives the thread's rollout file (a subagent's own, the child thread's); without a session there is none (null, as Codex sends).
    transcriptPath: state ? rolloutPathOf(state) : null,
    cwd,
    model: state ? sessionModel(state) : '',
    permissionMode,
    ...(state?.subagent ? { agent: state.subagent.identity } : {})
  }
}

/** Events that name the subagent among their own fields. */
const AGENT_EVENTS: ReadonlySet<CodexHookEvent> = new Set<CodexHookEvent>(['SubagentStart', 'SubagentStop'])

export function hookInput(event: CodexHookEvent, common: CommonInput, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: common.sessionId,
    transcript_path: common.transcriptPath,
    cwd: common.cwd,
    hook_event_name: event,
    model: common.model,
    permission_mode: common.permissionMode,
    ...(common.agent && !AGENT_EVENTS.has(event) ? { agent_id: common.agent.agentId, agent_type: common.agent.agentType } : {}),
    ...fields
  }
}
