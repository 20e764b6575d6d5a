// The two hook-protocol event names, per protocol. Bridges pass these to the parsers and matchers.

export const CLAUDE_HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'InstructionsLoaded',
  'CwdChanged',
  'ConfigChange',
  'MessageDisplay',
  'Notification',
  'PermissionDenied',
  'StopFailure',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'WorktreeCreate',
  'WorktreeRemove',
  'FileChanged',
  'DirectoryAdded',
  'PreModelSwitch',
  'PostModelSwitch',
  'PreSkillShellCommand'
] as const
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number]

/** Codex 0.171.0 events, in Codex's canonical per-file order (codex-hooks.md §2). */
export const CODEX_HOOK_EVENTS = [
  'PreModelRequest',
  'PostModelRequest',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt'
] as const
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number]

export function isClaudeHookEvent(name: string): name is ClaudeHookEvent {
  return (CLAUDE_HOOK_EVENTS as readonly string[]).includes(name)
}

export function isCodexHookEvent(name: string): name is CodexHookEvent {
  return (CODEX_HOOK_EVENTS as readonly string[]).includes(name)
}

/**
 * Claude events where exit 2 (and `decision: "block"`) take a blocking path. Observed for the
 * tool, prompt and stop events (claude-code-hooks.md §6.0); PermissionRequest, PreCompact,
 * ConfigChange, UserPromptExpansion, TeammateIdle, TaskCreated, TaskCompleted, Elicitation,
 * ElicitationResult and PreSkillShellCommand follow the public documentation (not observed).
 * Everywhere else exit 2 is a non-blocking error (observed for SessionStart, SessionEnd).
 */
export const CLAUDE_BLOCKING_EVENTS: ReadonlySet<ClaudeHookEvent> = new Set<ClaudeHookEvent>([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'ConfigChange',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'PreSkillShellCommand'
])

/** Events whose block is a permission decision (a block there is a `deny`). */
export const PERMISSION_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'PreSkillShellCommand'])

/** Codex events with a blocking path for exit 2 + stderr (codex-hooks.md §5, §5.1). */
export const CODEX_BLOCKING_EVENTS: ReadonlySet<CodexHookEvent> = new Set<CodexHookEvent>([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop'
])
