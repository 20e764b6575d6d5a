// zod schemas of a Claude Code hook's JSON answer (claude-code-hooks.md §5, field names and enums
// from the CLI's schemas). Unknown fields are tolerated and dropped, as the CLI does; a known field
// with a wrong type or enum value fails validation.
import { z } from 'zod'
import type { ClaudeHookEvent } from './events'

export const ClaudeTopLevelOutput = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z.record(z.string(), z.unknown()).optional()
})
export type ClaudeTopLevelOutput = z.infer<typeof ClaudeTopLevelOutput>

const toolInput = z.record(z.string(), z.unknown())
const watchPaths = z.array(z.string())

/** Every event may add `additionalContext`; the CLI acts on it where §5.2 lists it. */
const base = { hookEventName: z.string(), additionalContext: z.string().optional() }

const permissionAnswer = {
  permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
  permissionDecisionReason: z.string().optional()
}

export const ClaudePermissionRequestDecision = z.discriminatedUnion('behavior', [
  z.object({ behavior: z.literal('allow'), updatedInput: toolInput.optional(), updatedPermissions: z.array(z.unknown()).optional() }),
  z.object({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() })
])

const SPECIFIC: Partial<Record<ClaudeHookEvent, z.ZodObject>> = {
  PreToolUse: z.object({ ...base, ...permissionAnswer, updatedInput: toolInput.optional() }),
  PreSkillShellCommand: z.object({ ...base, ...permissionAnswer, updatedInput: toolInput.optional() }),
  PreModelSwitch: z.object({ ...base, ...permissionAnswer }),
  PermissionRequest: z.object({ ...base, decision: ClaudePermissionRequestDecision.optional() }),
  PostToolUse: z.object({ ...base, updatedMCPToolOutput: z.unknown().optional(), classifierContext: z.unknown().optional() }),
  UserPromptSubmit: z.object({ ...base, sessionTitle: z.string().optional(), suppressOriginalPrompt: z.boolean().optional() }),
  UserPromptExpansion: z.object({ ...base, suppressOriginalPrompt: z.boolean().optional() }),
  SessionStart: z.object({
    ...base,
    initialUserMessage: z.string().optional(),
    sessionTitle: z.string().optional(),
    watchPaths: watchPaths.optional(),
    reloadSkills: z.boolean().optional()
  }),
  PermissionDenied: z.object({ ...base, retry: z.boolean().optional() }),
  CwdChanged: z.object({ ...base, watchPaths: watchPaths.optional() }),
  FileChanged: z.object({ ...base, watchPaths: watchPaths.optional() }),
  WorktreeCreate: z.object({ ...base, worktreePath: z.string().optional() }),
  Elicitation: z.object({ ...base, action: z.enum(['accept', 'decline', 'cancel']).optional(), content: z.record(z.string(), z.unknown()).optional() }),
  ElicitationResult: z.object({ ...base, action: z.enum(['accept', 'decline', 'cancel']).optional(), content: z.record(z.string(), z.unknown()).optional() }),
  MessageDisplay: z.object({ ...base, displayContent: z.string().optional() })
}

const GENERIC = z.object(base)

export function claudeSpecificSchema(event: ClaudeHookEvent): z.ZodObject {
  return SPECIFIC[event] ?? GENERIC
}
