// The `permission_mode` a hook reads: Seam's approval mode in force, named as Claude Code names
// its permission modes (claude-code-hooks.md §6 common fields; codex-hooks.md §4 uses the same
// values). One function, so every bridge and the permission policy agree on the mapping.

/** Claude Code's permission modes (and Codex's `permission_mode` values). */
export const CLAUDE_PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'] as const
export type ClaudePermissionMode = (typeof CLAUDE_PERMISSION_MODES)[number]

/**
 * Seam approval mode -> Claude Code permission mode:
 * - `ask-side-effects` (Seam's default: reads run, changes ask) -> `default`;
 * - `ask-all` (every call asks) -> `default`, the closest Claude mode (Claude has none stricter
 *   that still asks);
 * - `never-ask` (`seam run --approve allow`) -> `bypassPermissions`;
 * - `accept-edits` -> `acceptEdits`, `dont-ask` -> `dontAsk`, `plan` -> `plan`;
 * - a Claude Code mode name (`acceptEdits`, `plan`, `dontAsk`, ... from a settings `defaultMode`)
 *   is already one and passes through;
 * - anything else -> `default`.
 */
export function claudePermissionMode(approvalMode: string | undefined): ClaudePermissionMode {
  switch (approvalMode) {
    case 'never-ask':
      return 'bypassPermissions'
    case 'accept-edits':
      return 'acceptEdits'
    case 'dont-ask':
      return 'dontAsk'
    case 'ask-side-effects':
    case 'ask-all':
    case undefined:
      return 'default'
  }
  return (CLAUDE_PERMISSION_MODES as readonly string[]).includes(approvalMode) ? (approvalMode as ClaudePermissionMode) : 'default'
}
