// The JSON a Codex hook reads on stdin, with Codex's field names (codex-hooks.md §4).
import type { ClaudePermissionMode, CodexHookEvent } from '../hook-protocol'
import { codexRolloutPath } from './rollout'
import { sessionModel, type SessionState } from './sessions'

export interface CommonInput {
  sessionId: string
  transcriptPath: string | null
  cwd: string
  model: string
  /** The approval mode in force, in Codex's values (`default`, `bypassPermissions`, ...). */
  permissionMode: ClaudePermissionMode
}

export function commonInput(state: SessionState | undefined, sessionId: string, cwd: string, permissionMode: ClaudePermissionMode): CommonInput {
  return {
    sessionId,
    // Codex gives the thread's rollout file; without a session there is none (null, as Codex sends).
    transcriptPath: state ? codexRolloutPath(state.agent) : null,
    cwd,
    model: state ? sessionModel(state) : '',
    permissionMode
  }
}

export function hookInput(event: CodexHookEvent, common: CommonInput, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: common.sessionId,
    transcript_path: common.transcriptPath,
    cwd: common.cwd,
    hook_event_name: event,
    model: common.model,
    permission_mode: common.permissionMode,
    ...fields
  }
}
