// Every text the model reads from a hook, worded as Claude Code 2.1.332 words it
// (claude-code-hooks.md §5, §5.1, §6). `<cmd>` is the hook's command string.

export const preToolDenied = (tool: string, text: string): string => `PreToolUse:${tool} hook error: ${text}`
export const preToolContext = (tool: string, text: string): string => `PreToolUse:${tool} hook additional context: ${text}`
/** Followed by `: <field>: <problem>` when a hook's updatedInput fails the tool's schema. */
export const updatedInputInvalid = (tool: string): string => `PreToolUse hook for ${tool} returned updatedInput that failed schema validation`

/** PostToolUse / PostToolUseFailure exit 2 (`[<cmd>]: <stderr>`) or `decision: "block"` (`<reason>`). */
export const postToolBlocking = (event: string, tool: string, command: string, text: string): string =>
  `${event}:${tool} hook blocking error from command: "${command}": ${text}`
export const postToolContext = (event: string, tool: string, text: string): string => `${event}:${tool} hook additional context: ${text}`

export const promptSuccess = (stdout: string): string => `UserPromptSubmit hook success: ${stdout}`
export const promptContext = (text: string): string => `UserPromptSubmit hook additional context: ${text}`
export const promptBlocked = (text: string, prompt: string): string => `UserPromptSubmit operation blocked by hook:\n${text}\n\nOriginal prompt: ${prompt}`
/** UserPromptExpansion: worded as UserPromptSubmit's (Claude Code's own wording was not observed). */
export const expansionContext = (text: string): string => `UserPromptExpansion hook additional context: ${text}`
export const expansionBlocked = (text: string, prompt: string): string => `UserPromptExpansion operation blocked by hook:\n${text}\n\nOriginal prompt: ${prompt}`
export const stoppedByHook = (reason: string): string => `Operation stopped by hook: ${reason}`

export const sessionStartSuccess = (source: string, stdout: string): string => `SessionStart:${source} hook success: ${stdout}`
export const sessionStartContext = (text: string): string => `SessionStart hook additional context: ${text}`

export const batchContext = (text: string): string => `PostToolBatch hook additional context: ${text}`

/** The user message Claude Code records for a Stop block (the loop wraps it in <system-reminder>). */
export const stopFeedback = (items: readonly string[]): string => `Stop hook feedback:\n${items.join('\n\n')}`
export const stopBlockingError = (command: string, reason: string, event: 'Stop' | 'SubagentStop' = 'Stop'): string => `${event} hook blocking error from command: "${command}": ${reason}`
export const subagentStartContext = (text: string): string => `SubagentStart hook additional context: ${text}`

/** What the transcript says when a hook stopped the loop (`continue: false`, a PostToolBatch block). */
export const stoppedContinuation = (event: string, reason: string, tool?: string): string =>
  `${event}${tool !== undefined ? `:${tool}` : ''} hook stopped continuation: ${reason}`
