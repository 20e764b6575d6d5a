// The slash commands of a workspace: Seam's built-ins, the commands plugins contribute (skills),
// then the custom commands read from disk at each call (so edits, new and deleted files apply at
// once). Built-ins win a name clash; a plugin's command wins over a command file (Claude Code: a
// skill `x` and `.claude/commands/x.md` both make `/x`, and the skill wins).
import { homedir } from 'node:os'
import type { PluginCommand, SlashCommandProvider } from '../../src-shared/host/slash-commands'
import { commandDirs, loadCustomCommands, type CommandProblem, type CommandSource, type CustomCommand, type PluginCommandDirs } from './custom'

export interface CommandInfo {
  /** Without the slash. */
  name: string
  description: string
  argumentHint?: string
  source: CommandSource
  /** Whether it needs nothing after the name (the composer runs it on Enter instead of inserting it). */
  runsWithoutArguments: boolean
  /** The file that defines it (custom commands). */
  file?: string
  /** A plugin's command (source `plugin`): what it is (`skill`) and where it was found. */
  kind?: string
  origin?: string
  /** False: only the model may run it (a skill's `user-invocable: false`): listed for settings, left out of menus and /help. */
  userInvocable?: boolean
  /** False: only the user may run it (a skill's `disable-model-invocation`). */
  modelInvocable?: boolean
}

export interface BuiltinCommand {
  name: 'compact' | 'clear' | 'model' | 'usage' | 'tasks' | 'help'
  description: string
  argumentHint?: string
  runsWithoutArguments: boolean
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'clear', description: 'Start a new session in the same workspace', runsWithoutArguments: true },
  { name: 'compact', description: 'Summarise the conversation to free context', argumentHint: '[instructions]', runsWithoutArguments: false },
  { name: 'help', description: 'List the slash commands', runsWithoutArguments: true },
  { name: 'model', description: 'Show the model in use, or switch to another', argumentHint: '[preset/]model', runsWithoutArguments: false },
  { name: 'tasks', description: "This session's background commands: running ones with their run time, ended ones with their exit code", runsWithoutArguments: true },
  { name: 'usage', description: "This session's tokens, cost and context fill", runsWithoutArguments: true }
]

export interface CommandSet {
  commands: CommandInfo[]
  custom: Map<string, CustomCommand>
  /** Commands plugins contribute, with the provider that runs them. */
  plugin: Map<string, { command: PluginCommand; provider: SlashCommandProvider }>
  /** Malformed command files (path and field); invoking one reports its problem. */
  problems: CommandProblem[]
  notices: string[]
}

export interface RegistryOptions {
  workspace: string | null
  env: NodeJS.ProcessEnv
  /** Default: `env.HOME`, else the OS's home folder. */
  home?: string
  /** The session's plugin command providers (the `slashCommands` service). */
  providers?: readonly SlashCommandProvider[]
  /** The enabled Claude Code plugins' commands (the `claudePlugins` service). */
  plugins?: ReadonlyArray<PluginCommandDirs>
}

export function commandSet(options: RegistryOptions): CommandSet {
  const home = options.home ?? (options.env.HOME || homedir())
  const loaded = loadCustomCommands({ ...commandDirs(options.workspace, options.env, home), ...(options.plugins ? { plugins: options.plugins } : {}) })
  const builtins = new Set<string>(BUILTIN_COMMANDS.map((c) => c.name))
  const notices = [...loaded.notices]
  const custom = new Map<string, CustomCommand>()
  const plugin = new Map<string, { command: PluginCommand; provider: SlashCommandProvider }>()
  const problems: CommandProblem[] = []
  const commands: CommandInfo[] = BUILTIN_COMMANDS.map((c) => ({ ...c, source: 'builtin' as const }))
  for (const provider of options.providers ?? []) {
    const listing = provider.list(options.workspace ?? '')
    notices.push(...listing.notices)
    for (const p of listing.problems) problems.push({ name: p.name, source: 'plugin', file: p.file, message: p.message, ...(p.field !== undefined ? { field: p.field } : {}) })
    for (const command of listing.commands) {
      if (builtins.has(command.name)) {
        notices.push(`/${command.name}: the built-in command is used; the ${command.kind} ${command.file ?? command.origin} is ignored`)
        continue
      }
      if (plugin.has(command.name)) continue
      plugin.set(command.name, { command, provider })
      const info: CommandInfo = { name: command.name, description: command.description, source: 'plugin', runsWithoutArguments: false, kind: command.kind, origin: command.origin }
      if (command.userInvocable === false) info.userInvocable = false
      if (command.modelInvocable === false) info.modelInvocable = false
      if (command.argumentHint) info.argumentHint = command.argumentHint
      if (command.file) info.file = command.file
      commands.push(info)
    }
  }
  for (const command of loaded.commands) {
    if (builtins.has(command.name)) {
      notices.push(`/${command.name}: the built-in command is used; ${command.file} is ignored`)
      continue
    }
    const shadow = plugin.get(command.name)?.command
    if (shadow) {
      notices.push(`/${command.name}: the ${shadow.kind} ${shadow.file ?? shadow.origin} is used; the ${command.source} command ${command.file} is ignored`)
      continue
    }
    custom.set(command.name, command)
    const info: CommandInfo = { name: command.name, description: command.description, source: command.source, runsWithoutArguments: false, file: command.file }
    if (command.source === 'plugin') Object.assign(info, { kind: 'command', origin: `plugin ${command.name.slice(0, command.name.indexOf(':'))}` })
    if (command.argumentHint) info.argumentHint = command.argumentHint
    commands.push(info)
  }
  // A plugin's `/plugin:command` also answers to the bare `/command` while nothing else holds that name (Claude Code).
  for (const command of loaded.commands) {
    if (command.source !== 'plugin') continue
    const bare = command.name.slice(command.name.indexOf(':') + 1)
    if (!builtins.has(bare) && !custom.has(bare) && !plugin.has(bare) && !loaded.problems.some((p) => p.name === bare)) custom.set(bare, command)
  }
  commands.sort((a, b) => a.name.localeCompare(b.name))
  problems.push(...loaded.problems.filter((p) => !builtins.has(p.name) && !plugin.has(p.name)))
  return { commands, custom, plugin, problems, notices }
}

/** `/name args` split, when `text` starts like a command name; else undefined (a path such as `/usr/bin` is not one). */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9_][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!match) return undefined
  return { name: match[1], args: (match[2] ?? '').trim() }
}

/** The `/help` text: every command with its hint and description, then the problems. */
export function helpText(set: CommandSet): string {
  const label = (c: CommandInfo) => (c.source === 'builtin' ? '' : c.source === 'plugin' ? ` (${c.kind ?? 'plugin'}, ${c.origin ?? 'a plugin'})` : ` (${c.source})`)
  const lines = ['Slash commands:']
  for (const c of set.commands.filter((command) => command.userInvocable !== false)) lines.push(`  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${c.description}${label(c)}`)
  for (const p of set.problems) lines.push(`  (broken) /${p.name}: ${p.file}: ${p.message}`)
  for (const n of set.notices) lines.push(`  note: ${n}`)
  return lines.join('\n')
}
