// Contracts between the built-in plugins that carry what users' Claude Code and Codex setups hold
// beyond hooks: installed Claude Code / Codex plugins (`claudePlugins`), and subagents
// (`subagents`). Declared here so each plugin codes against the other's service through the SDK
// without importing it, and a plugin that is disabled is simply absent (`ctx.maybe`).
import type { Disposable } from '../kernel/types'

/** A Claude Code (or Codex) plugin that is installed and enabled, as the plugin catalog found it. */
export interface InstalledPlugin {
  /** The manifest's `name` (or the folder's): the namespace of its commands, agents and skills (`name:thing`). */
  name: string
  /** The marketplace it was installed from, when it came from one. */
  marketplace?: string
  version?: string
  /** Which manifest made it a plugin: `.claude-plugin/plugin.json` (or none) or `.codex-plugin/plugin.json`. */
  format: 'claude' | 'codex'
  /** Absolute path of the plugin's root: `${CLAUDE_PLUGIN_ROOT}`. */
  root: string
  /** Absolute path of its data folder, kept across updates: `${CLAUDE_PLUGIN_DATA}`. */
  dataDir: string
  /**
   * Absolute folders (or `.md` files) holding each kind of component: the defaults or the manifest's paths.
   * The fields added in SDK 0.5 (hooks, servers, bin, env) are optional so a catalog written against 0.4 still type-checks.
   */
  commands: readonly string[]
  agents: readonly string[]
  skills: readonly string[]
  /**
   * The hooks it declares (`hooks/hooks.json` and the manifest's `hooks`), each the `hooks` object
   * of Claude Code's settings shape, with `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}`
   * already substituted in commands, args and URLs. `file` names where it came from, for messages.
   */
  hooks?: readonly PluginHooks[]
  /**
   * Its MCP servers (`.mcp.json` and the manifest's `mcpServers`) in `.mcp.json`'s entry shape,
   * keyed by the plugin's own server name (the tools are `mcp__plugin_<plugin>_<server>__<tool>`),
   * with the plugin variables substituted in command, args, env, url and headers.
   */
  mcpServers?: readonly PluginMcpServers[]
  /** Its `bin/` folder, when it has one: added to the Bash tool's PATH. */
  binDir?: string
  /** What Claude Code exports to the plugin's hooks and servers: CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA. */
  env?: Readonly<Record<string, string>>
  /** sha256 of the installed files, as pinned at install (absent for a plugin loaded from a folder in place). */
  contentHash?: string
}

export interface PluginHooks {
  file: string
  hooks: Readonly<Record<string, unknown>>
}

export interface PluginMcpServers {
  file: string
  servers: Readonly<Record<string, unknown>>
}

/** The enabled plugins, for the loaders of commands, agents and skills to read their components from. */
export interface PluginCatalogService {
  /** Enabled plugins for a workspace: the user's, and the project's once the workspace is trusted. */
  list(workspace: string): readonly InstalledPlugin[]
  /** Called after plugins are installed, updated, enabled, disabled or removed. */
  onChange(listener: () => void): Disposable
  /** Problems found while loading (a bad manifest, a changed installed copy), each naming the file and field. */
  warnings?(workspace: string): readonly string[]
}

/** One agent type a subagent can be started as. */
export interface SubagentType {
  name: string
  description: string
  /** Where it was defined: `builtin`, `project`, `user`, `plugin:<name>`, `codex-project`, `codex-user`. */
  source: string
  file?: string
}

export interface SubagentRunRequest {
  sessionId: string
  /** The calling tool call's token (S10 parent): the child's calls are sealed under it. */
  parentToken: string
  agentType: string
  description: string
  prompt: string
  /** A model alias or id; absent or `inherit`: the agent's own or the parent's. */
  model?: string
  /** Narrows the agent's tools further (a skill's `allowed-tools`). */
  allowedTools?: readonly string[]
  signal?: AbortSignal
}

export interface SubagentRunResult {
  agentId: string
  agentType: string
  /** The subagent's final assistant text, what the parent's model receives. */
  text: string
  isError: boolean
  durationMs: number
  toolUseCount: number
  usage: { inputTokens: number; outputTokens: number }
}

/** Runs subagents as child turns of a session's loop (the `Agent` tool uses the same). */
export interface SubagentService {
  types(workspace: string): readonly SubagentType[]
  run(request: SubagentRunRequest): Promise<SubagentRunResult>
}

declare module '../kernel/types' {
  interface Services {
    claudePlugins: PluginCatalogService
    subagents: SubagentService
  }
}
