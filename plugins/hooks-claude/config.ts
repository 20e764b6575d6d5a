// The bridge's configuration (validated by the kernel when the plugin is applied).
import { z } from 'zod'
import { CLAUDE_PERMISSION_MODES } from '../hook-protocol/index'

export const HooksClaudeConfigSchema = z
  .object({
    /** Global cap on hook processes (and http requests) running at once, across all events; over the cap they wait. */
    concurrency: z.number().int().min(1).max(256).default(8),
    /** Hooks in Claude Code's shape (`{ PreToolUse: [{ matcher, hooks: [...] }] }`) from Seam's own settings. */
    seamHooks: z.record(z.string(), z.unknown()).optional(),
    /** Claude Code's user settings file. Default: `~/.claude/settings.json`. */
    userSettingsPath: z.string().min(1).optional(),
    /** Consecutive Stop-hook blocks honoured in one turn; the next one lets the turn end, with a notice. */
    stopBlockCap: z.number().int().min(0).default(9),
    /** Timeout of a handler without `timeout`, in seconds (SessionEnd has its own 1.5 s default). */
    defaultTimeoutSec: z.number().positive().default(600),
    /** The `permission_mode` hooks read: the approval mode in force, as `claudePermissionMode` names it. */
    permissionMode: z.enum(CLAUDE_PERMISSION_MODES).default('default'),
    /**
     * What a PreToolUse `permissionDecision: "defer"` does: `ask` shows the call as waiting and asks
     * the user (desktop, web); `end-turn` does not run it and ends the turn with a deferred reason,
     * as Claude Code's print mode does (the headless CLI).
     */
    deferAction: z.enum(['ask', 'end-turn']).default('ask'),
    /**
     * Seconds after a turn ends without the user answering before Notification fires with
     * `notification_type: "idle_prompt"` (Claude Code waits 60 s).
     */
    idlePromptSeconds: z.number().positive().max(86_400).default(60),
    /** The `effort.level` (and CLAUDE_EFFORT) tool and Stop hooks read; Claude Code's default is `medium`. */
    effort: z.string().min(1).default('medium')
  })
  .strict()
  .prefault({})

export type HooksClaudeConfig = z.output<typeof HooksClaudeConfigSchema>
export type HooksClaudeConfigInput = z.input<typeof HooksClaudeConfigSchema>
