// zod schemas of a Codex hook's JSON answer per event (codex-hooks.md §5, §5.1). Strict like
// Codex's own `deny_unknown_fields` parsing: an unknown field anywhere fails the whole answer.
// `null` is accepted wherever a field is optional (serde's `Option`).
import { z } from 'zod'
import { CODEX_HOOK_EVENTS } from './events'

const universal = {
  continue: z.boolean().nullish(),
  stopReason: z.string().nullish(),
  suppressOutput: z.boolean().nullish(),
  systemMessage: z.string().nullish()
}

/** Required by the schema; a wrong but known event name was accepted in 0.171.0. */
const hookEventName = z.enum(CODEX_HOOK_EVENTS)
const reason = z.string().nullish()
const blockOnly = z.enum(['block']).nullish()

export const CodexPreToolUseOutput = z.strictObject({
  ...universal,
  decision: z.enum(['approve', 'block']).nullish(),
  reason,
  hookSpecificOutput: z
    .strictObject({
      hookEventName,
      permissionDecision: z.enum(['allow', 'deny', 'ask']).nullish(),
      permissionDecisionReason: z.string().nullish(),
      updatedInput: z.record(z.string(), z.unknown()).nullish(),
      additionalContext: z.string().nullish()
    })
    .nullish()
})

export const CodexPermissionRequestOutput = z.strictObject({
  ...universal,
  hookSpecificOutput: z
    .strictObject({
      hookEventName,
      decision: z
        .strictObject({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: z.unknown().optional(),
          updatedPermissions: z.unknown().optional(),
          message: z.string().nullish(),
          interrupt: z.boolean().nullish()
        })
        .nullish()
    })
    .nullish()
})

export const CodexPostToolUseOutput = z.strictObject({
  ...universal,
  decision: blockOnly,
  reason,
  hookSpecificOutput: z
    .strictObject({ hookEventName, additionalContext: z.string().nullish(), updatedMCPToolOutput: z.unknown().optional() })
    .nullish()
})

export const CodexUserPromptSubmitOutput = z.strictObject({
  ...universal,
  decision: blockOnly,
  reason,
  hookSpecificOutput: z.strictObject({ hookEventName, additionalContext: z.string().nullish() }).nullish()
})

/** SessionStart and SubagentStart: context and `continue`, no `decision`. */
export const CodexStartOutput = z.strictObject({
  ...universal,
  hookSpecificOutput: z.strictObject({ hookEventName, additionalContext: z.string().nullish() }).nullish()
})

/** Stop and SubagentStop: no `hookSpecificOutput`. */
export const CodexStopOutput = z.strictObject({ ...universal, decision: blockOnly, reason })

/** PreCompact, PostCompact, Interrupt: universal fields only. */
export const CodexUniversalOutput = z.strictObject(universal)
