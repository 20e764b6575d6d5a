// Which instructions files are read. The defaults follow what each tool reads.
import { z } from 'zod'

export const InstructionsConfigSchema = z
  .object({
    claude: z
      .object({
        /** `~/.claude/CLAUDE.md`. */
        user: z.boolean().default(true),
        /** `CLAUDE.md` and `.claude/CLAUDE.md` of the workspace and its parents up to the repository root. */
        project: z.boolean().default(true),
        /** `CLAUDE.local.md` of the same folders. */
        local: z.boolean().default(true),
        /** Read the parents' files too (up to the repository root), not only the workspace's. */
        parents: z.boolean().default(true),
        /** How many `@path` hops an import chain may take (Claude Code stops at 5). */
        importDepth: z.number().int().min(0).max(20).default(5)
      })
      .strict()
      .prefault({}),
    codex: z
      .object({
        /** `$CODEX_HOME/AGENTS.md` and `AGENTS.md` from the repository root down to the workspace. */
        enabled: z.boolean().default(true),
        /** Codex's home; default `$CODEX_HOME`, else `~/.codex`. */
        home: z.string().min(1).optional(),
        /** Codex reads at most this many bytes of project docs in all (`project_doc_max_bytes`). */
        maxBytes: z.number().int().positive().default(32 * 1024)
      })
      .strict()
      .prefault({}),
    /** The user's home folder (default: the host's HOME). */
    home: z.string().min(1).optional(),
    /** A file larger than this is not read (a warning says so). */
    maxFileBytes: z.number().int().positive().default(256 * 1024)
  })
  .strict()
  .prefault({})

export type InstructionsConfig = z.output<typeof InstructionsConfigSchema>
