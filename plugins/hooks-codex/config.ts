// The bridge's configuration (validated by the kernel when the plugin is applied).
import { z } from 'zod'
import { CLAUDE_PERMISSION_MODES } from '../hook-protocol'

export const CodexHooksConfigSchema = z
  .object({
    /** Cap on hook processes running at once; hooks over the cap wait their turn (never fail). */
    concurrency: z.number().int().min(1).max(256).default(8),
    /** Codex's home folder (user-level hooks). Default: $CODEX_HOME, else ~/.codex. */
    codexHome: z.string().min(1).optional(),
    /** Consecutive Stop blocks honoured in one turn before Seam lets the turn end (Claude Code's cap: 9). */
    stopBlockCap: z.number().int().min(0).default(9),
    /** Timeout of a handler without `timeout`, in seconds (Codex: 600). */
    defaultTimeoutSec: z.number().int().min(1).default(600),
    /** The `permission_mode` hooks read (Codex uses Claude Code's values): the approval mode in force, as `claudePermissionMode` names it. */
    permissionMode: z.enum(CLAUDE_PERMISSION_MODES).default('default')
  })
  .strict()
  .prefault({})

export type CodexHooksConfig = z.output<typeof CodexHooksConfigSchema>
