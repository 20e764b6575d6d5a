import { z } from 'zod'

export const SubagentsConfigSchema = z
  .object({
    /** How deep subagents may nest: 1 (Claude Code's rule) lets the main agent start subagents, which cannot start their own. */
    maxDepth: z.number().int().min(1).max(8).default(1),
    /** Subagents running at once (all sessions of this host); a call past the cap waits for a slot. */
    maxConcurrent: z.number().int().min(1).max(64).default(4),
    /** Deadline of one subagent (the Agent call), in ms; default one hour. */
    timeoutMs: z.number().int().positive().default(3_600_000),
    /** The user's home folder (`~/.claude/agents`, `~/.codex/agents`); default the host's HOME. */
    home: z.string().min(1).optional()
  })
  .prefault({})

export type SubagentsConfig = z.output<typeof SubagentsConfigSchema>
