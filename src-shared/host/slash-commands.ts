// Slash commands that plugins contribute (a skill is `/name` too): the host's command registry
// (src-main/commands) lists them in `/help`, the composer's `/` menu and `commands/list` beside
// the built-ins and the command files, and runs them when typed. Built-ins always win a name; a
// plugin command wins over a command file of the same name (Claude Code: a skill wins over
// `.claude/commands/x.md`), and the file is named in a notice.
import type { Context } from '../kernel/context'
import type { Disposable } from '../kernel/types'

export interface PluginCommand {
  /** Without the slash: `deploy`, `my-plugin:review`. */
  name: string
  description: string
  argumentHint?: string
  /** What kind of thing it is, as menus name it (`skill`). */
  kind: string
  /** Where it was found, in words (`project .claude/skills`, `personal ~/.claude/skills`, `plugin my-plugin`). */
  origin: string
  /** The file that defines it. */
  file?: string
  /** Only the model may run it (a skill's `user-invocable: false`): not in the menus, refused when typed. */
  userInvocable?: boolean
  /** Whether the model may run it too (a skill without `disable-model-invocation`). */
  modelInvocable?: boolean
}

/** A definition that could not be read (the file and, when one is at fault, the field). */
export interface PluginCommandProblem {
  name: string
  file: string
  field?: string
  message: string
}

export interface PluginCommandListing {
  commands: PluginCommand[]
  problems: PluginCommandProblem[]
  /** Shadowed definitions and the like, one sentence each. */
  notices: string[]
}

export interface PluginCommandRequest {
  sessionId: string
  workspace: string
  name: string
  /** Everything after the name, trimmed. */
  args: string
  /** The message as typed. */
  typed: string
}

export type PluginCommandResult =
  /** Send `content` as the user's message of a turn of its own (the typed text is kept beside it). */
  | {
      kind: 'prompt'
      content: string
      /** How hooks see where it came from (Claude Code's `command_source`). */
      source: 'user' | 'project' | 'plugin'
      /** The model of that turn. */
      model?: string
      /** Claude Code permission rules whose calls run without asking during that turn. */
      allowedTools?: readonly string[]
    }
  /** The plugin ran it itself (e.g. a skill run as a subagent): what it has to say. */
  | { kind: 'done'; ok: boolean; message: string }

export interface SlashCommandProvider {
  /** The commands for a workspace, read now (files may have changed since the last call). */
  list(workspace: string): PluginCommandListing
  /** Runs `/name args` for a session; throws an Error whose message says why it cannot run. */
  invoke(request: PluginCommandRequest): Promise<PluginCommandResult>
}

export interface SlashCommandRegistry {
  /** Adds a provider; the returned disposer (and the registering plugin's disposal) removes it. */
  register(ctx: Context, provider: SlashCommandProvider): Disposable
  providers(): readonly SlashCommandProvider[]
}

/** The in-memory registry (one per kernel). */
export function createSlashCommandRegistry(): SlashCommandRegistry {
  const providers = new Set<SlashCommandProvider>()
  return {
    register(ctx, provider) {
      providers.add(provider)
      return ctx.onDispose(() => providers.delete(provider))
    },
    providers: () => [...providers]
  }
}

declare module '../kernel/types' {
  interface Services {
    slashCommands: SlashCommandRegistry
  }
}
