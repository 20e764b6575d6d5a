// Contracts between the built-in plugins that carry what users' Claude Code and Codex setups hold
// beyond hooks: installed Claude Code / Codex plugins (`claudePlugins`), and subagents
// (`subagents`). Declared here so each plugin codes against the other's service through the SDK
// without importing it, and a plugin that is disabled is simply absent (`ctx.maybe`).
import type { ApprovalMode } from './approval-modes'
import type { Disposable } from '../kernel/types'
import type { AgentHandle } from './agent'
import type { ReasoningEffort } from '../model'

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
  /**
   * Its non-sensitive `userConfig` values by key, for `${user_config.KEY}` in its skill, agent and
   * command content (SDK 0.20). Hooks and MCP servers get every value already written in; a
   * sensitive value is never here, so it never reaches the model.
   */
  userConfig?: Readonly<Record<string, string>>
  /** Its output style files and folders (`output-styles/`, or the manifest's `outputStyles`) (SDK 0.20). */
  outputStyles?: readonly string[]
  /** Its theme files and folders (`themes/`, or the manifest's `experimental.themes`) (SDK 0.33). */
  themes?: readonly string[]
  /** Its `settings.json` `agent`: the agent the main thread runs as while the plugin is on (SDK 0.20). */
  settingsAgent?: string
  /**
   * Its monitors (`monitors/monitors.json` and the manifest's `experimental.monitors`), with
   * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and every `${user_config.KEY}` written into
   * each command (SDK 0.26). The background-tasks plugin runs them.
   */
  monitors?: readonly PluginMonitor[]
  /**
   * Its `channels`: the names (keys of its `.mcp.json`) of the MCP servers that are channels (SDK
   * 0.34). plugins/channels listens to their `notifications/claude/channel` once the user enables them.
   */
  channels?: readonly string[]
  /** Its LSP servers (`.lsp.json` and the manifest's `lspServers`), the plugin variables written in (SDK 0.31). */
  lspServers?: readonly PluginLspServer[]
  /**
   * Its `settings.json` `subagentStatusLine` (`{type: "command", command}`), with
   * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and every `${user_config.KEY}` written into
   * the command (SDK 0.32). `file` is the settings file, for messages.
   */
  subagentStatusLine?: { file: string; command: string }
}

/**
 * One subagent's row as a Claude Code plugin's `subagentStatusLine` command drew it (SDK 0.32):
 * `content` is the command's text as printed (it may hold ANSI colour escapes), shown in place of
 * the subagent's default status row.
 */
export interface SubagentStatusLine {
  agentId: string
  content: string
  /** The plugin whose command drew it. */
  plugin: string
}

/** The rows plugins' `subagentStatusLine` commands drew for a session's subagents (SDK 0.32; provided by `plugins/claude-plugins`). */
export interface SubagentStatusLineService {
  /** The rows in force for the session (only subagents the last run answered for). */
  lines(sessionId: string): readonly SubagentStatusLine[]
  /**
   * The width, in character cells, of where the session's rows are shown (SDK 0.35): a window's
   * measure of its subagent cards, or `seam run`'s terminal. The command's `columns` from then on
   * (it runs again at once if a subagent is running).
   */
  setColumns?(sessionId: string, columns: number): void
}

/** A Claude Code plugin's monitor: a command whose every stdout line reaches the model as an event. */
export interface PluginMonitor {
  /** The file (or plugin.json) that declares it, for messages. */
  file: string
  /** Unique in its plugin: a session runs one process per name. */
  name: string
  command: string
  /** Shown with each of its events. */
  description: string
  /** `always`: started with the session; `on-skill-invoke:<skill>`: when that skill is first invoked. */
  when: string
}

/** One LSP server of a plugin, as `.lsp.json` declares it (SDK 0.31). */
export interface PluginLspServer {
  /** Its key in `.lsp.json`. */
  name: string
  /** The file (or plugin.json) that declares it, for messages. */
  file: string
  command: string
  args: readonly string[]
  /** File extensions (with the dot) to LSP language ids: a file's extension picks its server. */
  extensionToLanguage: Readonly<Record<string, string>>
  transport: 'stdio' | 'socket'
  /** Its own `env`, plus CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA. */
  env: Readonly<Record<string, string>>
  initializationOptions?: unknown
  /** Sent with `workspace/didChangeConfiguration` and answered to `workspace/configuration`. */
  settings?: unknown
  workspaceFolder?: string
  /** Milliseconds to wait for `initialize`; absent: the LSP plugin's default. */
  startupTimeout?: number
  /** Milliseconds to wait for `shutdown` before the process group is killed. */
  shutdownTimeout?: number
  restartOnCrash?: boolean
  maxRestarts?: number
}

/** Where a plugin's LSP server is now: not started yet (`idle`), starting, running, or failed (with why). */
export interface LspServerStatus {
  plugin: string
  server: string
  state: 'idle' | 'starting' | 'running' | 'failed'
  reason?: string
  pid?: number
  restarts: number
}

/** The LSP plugin's servers, for the plugin manager (SDK 0.31). */
export interface LspStatusService {
  status(): readonly LspServerStatus[]
  /** Called when a server starts, stops or fails. */
  onChange(listener: () => void): Disposable
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
  /** Its `tools` allowlist as written (absent: every tool). */
  tools?: readonly string[]
  /** Its `disallowedTools` as written. */
  disallowedTools?: readonly string[]
}

/** An agent file that was found but not offered, and why (the field at fault). */
export interface SubagentSkipped {
  file: string
  /** The front matter (or TOML) field at fault, or `yaml` / `toml` for a file that does not parse. */
  field: string
  reason: string
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
  /**
   * Takes tools away besides the agent's own `disallowedTools` (a forked skill's
   * `disallowed-tools`): a bare `Tool` is not offered; `Tool(specifier)` refuses the calls it matches.
   */
  disallowedTools?: readonly string[]
  /** The child's reasoning effort (a forked skill's `effort`); absent: the agent file's, if any. */
  effort?: ReasoningEffort
  /** Hooks active for this subagent only while it runs (a forked skill's `hooks`), as an agent file's are. */
  hooks?: Omit<ScopedHooksRequest, 'sessionId' | 'agentId'>
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
  /** The model that answered (the id the child's client used). */
  model?: string
  /** Present when the agent ran in a git worktree it changed: where it is kept, and its branch. */
  worktree?: { path: string; branch: string }
  /** Set when it was stopped before it ended (its card's Stop, TaskStop, a cancelled parent): `text` is Claude Code's interrupted result. */
  stopped?: boolean
}

/** Runs subagents as child turns of a session's loop (the `Agent` tool uses the same). */
export interface SubagentService {
  types(workspace: string): readonly SubagentType[]
  /** Agent files found but skipped (no description, broken YAML or TOML, a bad field), for the settings page and notices. */
  skipped(workspace: string): readonly SubagentSkipped[]
  run(request: SubagentRunRequest): Promise<SubagentRunResult>
}

/**
 * Who a subagent is, as Claude Code names it in hook input (`agent_id`, `agent_type`). Carried by
 * every call a subagent's loop makes (`SealedCall.agent`) and by the child's `AgentHandle.subagent`.
 */
export interface SubagentIdentity {
  agentId: string
  agentType: string
  /** The short task the parent gave it (the Agent call's `description`): how approvals and the UI name it; not sent to hooks. */
  description?: string
  /**
   * The approval mode the subagent's calls run under (its definition's `permissionMode`); absent:
   * the session's. A session in `never-ask` (bypassPermissions) keeps it, as Claude Code does.
   */
  permissionMode?: ApprovalMode
}

/** The child turn a subagent is, as the host runs it (the `childTurns` service). */
export interface ChildTurnRequest {
  /** The parent session: its model, approvals, grants and hooks serve the child. */
  sessionId: string
  /** The calling tool call's token: every call of the child is sealed with it as `parent` (S9). */
  parentToken: string
  agent: SubagentIdentity
  /** The short task description the parent gave (shown with the child in the transcript). */
  description: string
  /** The child's whole system prompt (the agent's body plus environment details). */
  systemPrompt: string
  /** The first user message of the child's own history. */
  prompt: string
  /** Which of the registry's tools the child may call (its tool list is filtered the same way). */
  allowTool(name: string): boolean
  /** A model alias or id for the child; absent: the parent's model. */
  model?: string
  /** Model requests the child may make (Claude Code's `maxTurns`); default the loop's `maxSteps`. */
  maxTurns?: number
  /** Where the child's tools run (an isolated worktree); default the parent's working directory. */
  cwd?: string
  /**
   * Skills preloaded into the child (its agent's `skills`), rendered as the Skill tool renders
   * them: each enters its history whole, before the prompt (`skill/loaded`, trigger `preload`).
   */
  skills?: ReadonlyArray<{ skill: string; file: string; text: string }>
  /**
   * Set for a background agent: its output file (absolute). The parent log's `subagent/start`
   * records it, so a resumed session lists the agent among its tasks.
   */
  backgroundOutputFile?: string
  /** The child's reasoning effort; absent: none asked. */
  effort?: ReasoningEffort
  signal?: AbortSignal
}

export interface ChildTurnResult {
  /** The child's last assistant text. */
  text: string
  /** How its turn ended: `completed`, `cancelled`, `error`, `max_steps`. */
  reason: 'completed' | 'rejected' | 'cancelled' | 'error' | 'max_steps'
  error?: string
  steps: number
  toolUseCount: number
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }
  costUsd?: number
  durationMs: number
  /** The model id that answered. */
  model: string
  /** The child's own session log (Seam's format). */
  logPath: string
}

/**
 * The host side of subagents: runs a child turn of a session's loop with its own history, system
 * prompt, tool set and model, through the same tool pipeline (src-main/agent/child.ts).
 */
export interface ChildTurnService {
  run(request: ChildTurnRequest): Promise<ChildTurnResult>
  /** Environment details a subagent's system prompt ends with (working directory, platform, date), as the session would say them; `cwd` for a child that runs elsewhere (an isolated worktree). */
  environment(sessionId: string, cwd?: string): string | undefined
}

/** Claude Code hooks one session runs besides its settings' hooks (a skill's `hooks` front matter). */
export interface ScopedHooksRequest {
  sessionId: string
  /** The file that declares them: records, notices and problems name it. */
  file: string
  /** A settings file's `hooks` shape: `{ <Event>: [{ matcher?, hooks: [handler, …] }] }`. */
  hooks: Readonly<Record<string, unknown>>
  /** Honour a handler's `once: true` (Claude Code: in skills only): it is removed after its first run. */
  honourOnce?: boolean
  /** Variables added to the handlers' environment. */
  env?: Readonly<Record<string, string>>
  /**
   * A subagent's own hooks (its agent file's `hooks`): they run only for events that carry this
   * `agent_id` (its tool events, SubagentStart, SubagentStop, PostToolBatch), and its `Stop` hooks
   * run as `SubagentStop`, as Claude Code converts them. Removed when the subagent ends.
   */
  agentId?: string
}

export interface ScopedHooks {
  /** What is wrong in `hooks`, naming the field (`hooks.PreToolUse[0].hooks[0].type: …`); an invalid object registers nothing. */
  readonly problems: readonly string[]
  /** Takes them off before the session ends (idempotent); they go with the session anyway. */
  remove(): void
}

/** Registers hooks for one session's later events (after the settings' hooks, under the same de-duplication and `disableAllHooks`). */
export interface ScopedHooksService {
  add(request: ScopedHooksRequest): ScopedHooks
}

declare module '../kernel/types' {
  interface Events {
    /**
     * A subagent's child turn is about to make its first request (Claude Code's SubagentStart):
     * awaited (parallel); cannot block the start. `agent` is the child's handle (`agent.subagent`
     * says who it is); `agent.inject(text, source)` adds context to the child's history.
     */
    'agent/subagent-start': (agent: AgentHandle, subagent: SubagentIdentity) => void | Promise<void>
    /** A session's `subagentStatusLine` rows changed (all of them, possibly none now): the UI shows them (SDK 0.32). */
    'agent/subagent-status-lines': (sessionId: string, lines: readonly SubagentStatusLine[]) => void
  }
  interface Services {
    claudePlugins: PluginCatalogService
    /** Provided by the LSP plugin (plugins/lsp). */
    lspServers: LspStatusService
    subagents: SubagentService
    subagentStatusLines: SubagentStatusLineService
    childTurns: ChildTurnService
    /** Provided by the Claude Code hooks bridge. */
    scopedHooks: ScopedHooksService
  }
}
