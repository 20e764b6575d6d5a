// The built-in base profile: every part of the host is an entry with an id, so a patch layer
// (cordis.patch.yml) can disable or reconfigure any of it.
import { definePlugin, type Plugin } from '../../src-shared/kernel'
import type { CatalogEntry, ProfileEntry } from '../plugins/profile'
import { toolsPlugin } from '../tools'
import { BuiltinToolOptionsSchema, builtinTools } from '../tools/builtin'
import { defaultKeyGuard } from '../security/keys'
import { childTurnsPlugin, promptPlugin } from '../agent'
import subagents from '../../plugins/subagents/index'
import { anthropicAdapterPlugin, modelsPlugin, openAIAdapterPlugin } from '../llm/adapters-plugin'
import claudeSettings from '../../plugins/claude-settings/index'
import permissionPolicy from '../../plugins/permission-policy/index'
import workspaceGuard from '../../plugins/workspace-guard/index'
import toolTimeout from '../../plugins/tool-timeout/index'
import hooksCodex from '../../plugins/hooks-codex/index'
import hooksClaude from '../../plugins/hooks-claude/index'
import { claudePermissionMode } from '../../plugins/hook-protocol/index'
import instructions from '../../plugins/instructions/index'
import mcp from '../../plugins/mcp/index'
import channels from '../../plugins/channels/index'
import lsp from '../../plugins/lsp/index'
import todo from '../../plugins/todo/index'
import claudePlugins from '../../plugins/claude-plugins/index'
import outputStyles from '../../plugins/output-styles/index'
import themes from '../../plugins/themes/index'
import backgroundTasks from '../../plugins/background-tasks/index'
import worktrees from '../../plugins/worktrees/index'
import skills from '../../plugins/skills/index'
import webTools from '../../plugins/web-tools/index'
import { checkpointsPlugin } from '../checkpoints/plugin'

const builtinToolsPlugin = definePlugin({
  name: 'builtin-tools',
  // The tools' tunables (output caps, timeouts, `respectIgnoreFiles`), settable from a patch layer.
  schema: BuiltinToolOptionsSchema,
  inject: ['tools'],
  apply(ctx, config) {
    // Read on every call: the host's guard (settings may change what it strips).
    const keys = { childEnv: (env: Record<string, string | undefined>) => (ctx.maybe('keys') ?? defaultKeyGuard).childEnv(env) }
    for (const tool of builtinTools(config, keys, () => ctx.maybe('backgroundTasks'))) ctx.tools.register(tool)
  }
})

const BASE_SYSTEM_PROMPT = [
  'You are Seam, a coding agent working in the user\'s workspace.',
  'Use the tools to read, search and change files and to run commands. Prefer small, verifiable steps.',
  'Tool calls may be denied by the user or by a policy: when one is, read the reason and adapt instead of retrying blindly.'
].join('\n')

const systemPromptPlugin = definePlugin({
  name: 'system-prompt',
  inject: ['prompt'],
  apply(ctx) {
    ctx.get('prompt').section(ctx, 'base', BASE_SYSTEM_PROMPT)
  }
})

export interface BasePluginsOptions {
  /** The approval answerer for this host: the desktop dialog, or the terminal. */
  answerer: { key: string; plugin: Plugin<never> }
  extra?: Array<{ key: string; plugin: Plugin<never> }>
}

export function builtinCatalog(options: BasePluginsOptions): Map<string, CatalogEntry> {
  const entries: Array<[string, Plugin<never>]> = [
    ['builtin:models', modelsPlugin as Plugin<never>],
    ['builtin:model-openai', openAIAdapterPlugin as Plugin<never>],
    ['builtin:model-anthropic', anthropicAdapterPlugin as Plugin<never>],
    ['builtin:tools', toolsPlugin as Plugin<never>],
    ['builtin:builtin-tools', builtinToolsPlugin as Plugin<never>],
    ['builtin:prompt', promptPlugin as Plugin<never>],
    ['builtin:child-turns', childTurnsPlugin as Plugin<never>],
    ['builtin:system-prompt', systemPromptPlugin as Plugin<never>],
    ['builtin:claude-settings', claudeSettings as Plugin<never>],
    ['builtin:permission-policy', permissionPolicy as Plugin<never>],
    ['builtin:workspace-guard', workspaceGuard as Plugin<never>],
    ['builtin:tool-timeout', toolTimeout as Plugin<never>],
    ['builtin:checkpoints', checkpointsPlugin as Plugin<never>],
    ['builtin:instructions', instructions as Plugin<never>],
    ['builtin:claude-plugins', claudePlugins as Plugin<never>],
    ['builtin:output-styles', outputStyles as Plugin<never>],
    ['builtin:themes', themes as Plugin<never>],
    ['builtin:background-tasks', backgroundTasks as Plugin<never>],
    ['builtin:subagents', subagents as Plugin<never>],
    ['builtin:hooks-claude', hooksClaude as Plugin<never>],
    ['builtin:hooks-codex', hooksCodex as Plugin<never>],
    ['builtin:mcp', mcp as Plugin<never>],
    ['builtin:channels', channels as Plugin<never>],
    ['builtin:lsp', lsp as Plugin<never>],
    ['builtin:todo', todo as Plugin<never>],
    ['builtin:worktrees', worktrees as Plugin<never>],
    ['builtin:skills', skills as Plugin<never>],
    ['builtin:web-tools', webTools as Plugin<never>],
    [options.answerer.key, options.answerer.plugin],
    ...(options.extra ?? []).map((e) => [e.key, e.plugin] as [string, Plugin<never>])
  ]
  return new Map(entries.map(([key, plugin]) => [key, { plugin: plugin as Plugin, source: 'builtin' as const }]))
}

export interface BaseProfileOptions {
  answererKey: string
  approvalMode: string
  /** The approval mode came from the command line (`--approve`): Claude Code's `defaultMode` does not override it. */
  approvalModeFromCommandLine?: boolean
  /** Claude Code's user settings file (`$HOME/.claude/settings.json` of the host's environment). */
  claudeUserSettingsPath?: string
  /** The host environment's HOME and CODEX_HOME, where user skills are read (default: the process's). */
  userHome?: string
  codexHome?: string
  workspace: string | null
  hookConcurrency: number
  /** Seconds after a turn ends before the Notification hook's `idle_prompt` (Seam settings `idlePromptSeconds`). */
  idlePromptSeconds?: number
  /** Claude Code-shaped hooks from Seam's own settings. */
  seamHooks?: Record<string, unknown>
  /** The headless CLI: a hook's `defer` ends the turn (no one waits for the call), as in Claude Code's print mode. */
  headless?: boolean
  /** Entries a front end adds (the ACP agent's client tools), placed right after `approval`. */
  extra?: ProfileEntry[]
  /** MCP servers from Seam's own settings (`mcpServers`) and the names the user disabled. */
  mcp?: { servers: Record<string, unknown>; disabled: string[]; settingsFile: string }
  /** The enabled channels (Seam's settings `channels`, then `seam run --channels`) and where they came from. */
  channels?: { enabled: string[]; from: string }
}

export function baseProfile(options: BaseProfileOptions): ProfileEntry[] {
  // Hooks read the approval mode in force as Claude Code's permission_mode.
  const permissionMode = claudePermissionMode(options.approvalMode)
  const claudeUser = options.claudeUserSettingsPath !== undefined ? { userSettingsPath: options.claudeUserSettingsPath } : {}
  return [
    { id: 'models', plugin: 'builtin:models' },
    { id: 'model-openai', plugin: 'builtin:model-openai' },
    { id: 'model-anthropic', plugin: 'builtin:model-anthropic' },
    { id: 'tools', plugin: 'builtin:tools' },
    { id: 'prompt', plugin: 'builtin:prompt' },
    { id: 'child-turns', plugin: 'builtin:child-turns' },
    { id: 'system-prompt', plugin: 'builtin:system-prompt' },
    { id: 'builtin-tools', plugin: 'builtin:builtin-tools', config: {} },
    { id: 'claude-settings', plugin: 'builtin:claude-settings', config: claudeUser },
    {
      id: 'permission-policy',
      plugin: 'builtin:permission-policy',
      config: { mode: options.approvalMode, ...(options.approvalModeFromCommandLine ? { modeFromCommandLine: true } : {}) }
    },
    { id: 'workspace-guard', plugin: 'builtin:workspace-guard', config: options.workspace ? { workspace: options.workspace } : {} },
    { id: 'tool-timeout', plugin: 'builtin:tool-timeout' },
    // Inside tool-timeout's deadline, outside a front end's tool wrappers: files are kept as on disk.
    { id: 'checkpoints', plugin: 'builtin:checkpoints' },
    { id: 'approval', plugin: options.answererKey },
    { id: 'instructions', plugin: 'builtin:instructions' },
    // Before the readers of its plugins' hooks, servers and commands (they look it up at start).
    { id: 'claude-plugins', plugin: 'builtin:claude-plugins', config: claudeUser },
    { id: 'output-styles', plugin: 'builtin:output-styles', config: claudeUser },
    { id: 'themes', plugin: 'builtin:themes', config: options.userHome ? { home: options.userHome } : {} },
    { id: 'background-tasks', plugin: 'builtin:background-tasks' },
    { id: 'subagents', plugin: 'builtin:subagents' },
    ...(options.extra ?? []),
    {
      id: 'hooks-claude',
      plugin: 'builtin:hooks-claude',
      config: {
        concurrency: options.hookConcurrency,
        permissionMode,
        deferAction: options.headless ? 'end-turn' : 'ask',
        ...(options.idlePromptSeconds !== undefined ? { idlePromptSeconds: options.idlePromptSeconds } : {}),
        ...claudeUser,
        ...(options.seamHooks ? { seamHooks: options.seamHooks } : {})
      }
    },
    { id: 'hooks-codex', plugin: 'builtin:hooks-codex', config: { concurrency: options.hookConcurrency, permissionMode } },
    { id: 'mcp', plugin: 'builtin:mcp', config: options.mcp ?? {} },
    { id: 'channels', plugin: 'builtin:channels', config: options.channels ?? {} },
    { id: 'lsp', plugin: 'builtin:lsp' },
    { id: 'todo', plugin: 'builtin:todo' },
    { id: 'worktrees', plugin: 'builtin:worktrees', config: {} },
    {
      id: 'skills',
      plugin: 'builtin:skills',
      config: { ...(options.userHome ? { home: options.userHome } : {}), ...(options.codexHome ? { codexHome: options.codexHome } : {}) }
    },
    { id: 'web-tools', plugin: 'builtin:web-tools' }
  ]
}
