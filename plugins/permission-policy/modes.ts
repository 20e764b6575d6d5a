// Approval modes: Seam's own, and how Claude Code's permission modes (`permissions.defaultMode`,
// hook input `permission_mode`) map onto them.
import { claudePermissionMode } from '../hook-protocol/index'
import type { ClaudePermissionMode } from '../claude-settings/read'

import { APPROVAL_MODES, type ApprovalMode } from '@seam/sdk'

export { APPROVAL_MODES, type ApprovalMode }

/** Claude Code's `defaultMode` as the Seam mode that behaves the same way. */
export const MODE_FROM_CLAUDE: Readonly<Record<ClaudePermissionMode, ApprovalMode>> = {
  default: 'ask-side-effects',
  acceptEdits: 'accept-edits',
  bypassPermissions: 'never-ask',
  dontAsk: 'dont-ask',
  plan: 'plan'
}

/**
 * The Claude Code permission mode a Seam mode corresponds to (what a hook would read as
 * `permission_mode`). `ask-all` has no Claude Code equivalent; the closest is `default`.
 */
export const MODE_TO_CLAUDE: Readonly<Record<ApprovalMode, ClaudePermissionMode>> = Object.freeze(
  Object.fromEntries(APPROVAL_MODES.map((mode) => [mode, claudePermissionMode(mode)])) as Record<ApprovalMode, ClaudePermissionMode>
)

/** Tools whose calls `accept-edits` runs without asking (Claude Code's file-editing tools). */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])
