// The slash commands of a workspace: Seam's built-ins, then the custom commands read from disk at
// each call (so edits, new and deleted files apply at once). Built-ins win a name clash.
import { homedir } from 'node:os'
import { commandDirs, loadCustomCommands, type CommandProblem, type CommandSource, type CustomCommand } from './custom'

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
}

export interface BuiltinCommand {
  name: 'compact' | 'clear' | 'model' | 'usage' | 'help'
  description: string
  argumentHint?: string
  runsWithoutArguments: boolean
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'clear', description: 'Start a new session in the same workspace', runsWithoutArguments: true },
  { name: 'compact', description: 'Summarise the conversation to free context', argumentHint: '[instructions]', runsWithoutArguments: false },
  { name: 'help', description: 'List the slash commands', runsWithoutArguments: true },
  { name: 'model', description: 'Show the model in use, or switch to another', argumentHint: '[preset/]model', runsWithoutArguments: false },
  { name: 'usage', description: "This session's tokens, cost and context fill", runsWithoutArguments: true }
]

export interface CommandSet {
  commands: CommandInfo[]
  custom: Map<string, CustomCommand>
  /** Malformed command files (path and field); invoking one reports its problem. */
  problems: CommandProblem[]
  notices: string[]
}

export interface RegistryOptions {
  workspace: string | null
  env: NodeJS.ProcessEnv
  /** Default: `env.HOME`, else the OS's home folder. */
  home?: string
}

export function commandSet(options: RegistryOptions): CommandSet {
  const home = options.home ?? (options.env.HOME || homedir())
  const loaded = loadCustomCommands(commandDirs(options.workspace, options.env, home))
  const builtins = new Set<string>(BUILTIN_COMMANDS.map((c) => c.name))
  const notices = [...loaded.notices]
  const custom = new Map<string, CustomCommand>()
  const commands: CommandInfo[] = BUILTIN_COMMANDS.map((c) => ({ ...c, source: 'builtin' as const }))
  for (const command of loaded.commands) {
    if (builtins.has(command.name)) {
      notices.push(`/${command.name}: the built-in command is used; ${command.file} is ignored`)
      continue
    }
    custom.set(command.name, command)
    const info: CommandInfo = { name: command.name, description: command.description, source: command.source, runsWithoutArguments: false, file: command.file }
    if (command.argumentHint) info.argumentHint = command.argumentHint
    commands.push(info)
  }
  commands.sort((a, b) => a.name.localeCompare(b.name))
  return { commands, custom, problems: loaded.problems.filter((p) => !builtins.has(p.name)), notices }
}

/** `/name args` split, when `text` starts like a command name; else undefined (a path such as `/usr/bin` is not one). */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9_][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!match) return undefined
  return { name: match[1], args: (match[2] ?? '').trim() }
}

/** The `/help` text: every command with its hint and description, then the problems. */
export function helpText(set: CommandSet): string {
  const label = (source: CommandSource) => (source === 'builtin' ? '' : ` (${source})`)
  const lines = ['Slash commands:']
  for (const c of set.commands) lines.push(`  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${c.description}${label(c.source)}`)
  for (const p of set.problems) lines.push(`  (broken) /${p.name}: ${p.file}: ${p.message}`)
  for (const n of set.notices) lines.push(`  note: ${n}`)
  return lines.join('\n')
}
