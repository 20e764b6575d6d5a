// The contract's Claude Code (and Codex) plugin methods, answered by src-main/app/claude-plugin-handlers.ts
// through the `claudePluginManager` service of plugins/claude-plugins: the plugin manager's rows
// and Seam's switch (the same operation as `seam plugin enable|disable NAME@MARKETPLACE`).
import { z } from 'zod'

/** `name@marketplace`, as Claude Code's `enabledPlugins` keys are written. */
export const ClaudePluginIdSchema = z
  .string()
  .trim()
  .min(3)
  .max(300)
  .regex(/^[^@\s]+@[^@\s]+$/, 'must be NAME@MARKETPLACE, as in enabledPlugins')

export const ClaudePluginComponentsSchema = z.object({
  commands: z.array(z.string()),
  agents: z.array(z.string()),
  skills: z.array(z.string()),
  hooks: z.array(z.string()),
  mcpServers: z.array(z.string()),
  bin: z.array(z.string())
})

export const ClaudePluginRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  marketplace: z.string().optional(),
  version: z.string().optional(),
  description: z.string().optional(),
  format: z.enum(['claude', 'codex']),
  /** marketplace: installed from one; local: a folder loaded in place; project/user: a settings file enables it, not installed. */
  origin: z.enum(['marketplace', 'local', 'project', 'user']),
  source: z.string(),
  state: z.enum(['enabled', 'disabled', 'not-installed', 'broken', 'unapproved']),
  decidedBy: z.string(),
  decidedScope: z.enum(['local', 'project', 'seam', 'user', 'plugin', 'default']),
  problems: z.array(z.string()),
  components: ClaudePluginComponentsSchema.optional(),
  /** What runs while it is on: hooks, MCP servers, bin/ programs. */
  runs: z.array(z.string()),
  switchable: z.boolean(),
  switchNote: z.string().optional()
})
export type ClaudePluginRow = z.output<typeof ClaudePluginRowSchema>
export type ClaudePluginComponents = z.output<typeof ClaudePluginComponentsSchema>

export const ClaudePluginMethods = {
  /** Every Claude Code and Codex plugin the window's workspace knows, and what could not load. `available: false`: the claude-plugins entry is off. */
  'claudePlugins/list': { input: z.object({}).strict(), output: z.object({ available: z.boolean(), plugins: z.array(ClaudePluginRowSchema), warnings: z.array(z.string()) }) },
  /** Seam's switch for an installed plugin; refused (field `id`) when a workspace settings file decides. */
  'claudePlugins/set-enabled': { input: z.object({ id: ClaudePluginIdSchema, enabled: z.boolean() }).strict(), output: ClaudePluginRowSchema }
} as const
