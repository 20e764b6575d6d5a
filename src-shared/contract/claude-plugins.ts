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
  bin: z.array(z.string()),
  /** `plugin:name` per output style (the `outputStyle` setting selects one). */
  outputStyles: z.array(z.string()),
  /** `name: command args` per LSP server: read and listed, not run by Seam yet. */
  lspServers: z.array(z.string()),
  /** `name: command` per monitor (its `when` after it unless `always`): run by the background-tasks plugin. */
  monitors: z.array(z.string()),
  /** Its settings.json `agent`: the agent the main thread runs as while it is on. */
  settingsAgent: z.string().optional(),
  /** Its settings.json `subagentStatusLine` command: it draws each subagent's status row. */
  subagentStatusLine: z.string().optional(),
  /** `name` or `name range` per plugin of its marketplace it needs (installed with it). */
  dependencies: z.array(z.string()).optional(),
  /** Its themes, `name (file)`: Settings → Theme offers each. */
  themes: z.array(z.string()).optional(),
  /** Its channels, `plugin_<plugin>_<server> (--channels plugin:<plugin>@<marketplace>)`: plugins/channels listens to them once enabled. */
  channels: z.array(z.string()).optional(),
  /** Its workflows, each `workflow file: not supported by Seam: why`. */
  unsupported: z.array(z.string()).optional()
})

const UserConfigValueSchema = z.union([z.string(), z.number(), z.boolean()])

/** One userConfig option of a plugin as the form shows it; a sensitive option's value never leaves the host. */
export const ClaudePluginConfigFieldSchema = z.object({
  key: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: z.string().optional(),
  description: z.string().optional(),
  sensitive: z.boolean(),
  required: z.boolean(),
  set: z.boolean(),
  value: UserConfigValueSchema.optional()
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
  /** unconfigured: enabled, but a required userConfig option has no value yet, so it does not load. */
  state: z.enum(['enabled', 'disabled', 'not-installed', 'broken', 'unapproved', 'unconfigured']),
  decidedBy: z.string(),
  decidedScope: z.enum(['local', 'project', 'seam', 'user', 'plugin', 'default']),
  problems: z.array(z.string()),
  components: ClaudePluginComponentsSchema.optional(),
  /** What runs while it is on: hooks, MCP servers, bin/ programs. */
  runs: z.array(z.string()),
  switchable: z.boolean(),
  switchNote: z.string().optional(),
  /** Its userConfig options (plugin.json), asked for when it is enabled. */
  userConfig: z.array(ClaudePluginConfigFieldSchema),
  /** Installed plugins whose `dependencies` name it (turning it off or removing it leaves them without it). */
  requiredBy: z.array(z.string()).optional(),
  /** Installed only because another plugin depends on it (seam plugin prune removes it once nothing does). */
  installedAsDependency: z.boolean().optional()
})
export type ClaudePluginRow = z.output<typeof ClaudePluginRowSchema>
export type ClaudePluginComponents = z.output<typeof ClaudePluginComponentsSchema>
export type ClaudePluginConfigField = z.output<typeof ClaudePluginConfigFieldSchema>

export const ClaudePluginMethods = {
  /** Every Claude Code and Codex plugin the window's workspace knows, and what could not load. `available: false`: the claude-plugins entry is off. */
  'claudePlugins/list': { input: z.object({}).strict(), output: z.object({ available: z.boolean(), plugins: z.array(ClaudePluginRowSchema), warnings: z.array(z.string()) }) },
  /** Seam's switch for an installed plugin; refused (field `id`) when a workspace settings file decides. */
  'claudePlugins/set-enabled': { input: z.object({ id: ClaudePluginIdSchema, enabled: z.boolean() }).strict(), output: ClaudePluginRowSchema },
  /** Sets userConfig values (null or '' unsets one); refused naming the field (`values.KEY`) for an unknown key or a bad value. */
  'claudePlugins/configure': {
    input: z.object({ id: z.string().trim().min(1).max(300), values: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a userConfig key is letters, digits and "_"'), UserConfigValueSchema.nullable()) }).strict(),
    output: ClaudePluginRowSchema
  }
} as const
