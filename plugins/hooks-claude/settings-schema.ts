// zod schemas of the "hooks" part of a Claude Code settings file (claude-code-hooks.md §2.2).
// Types are strict where Claude Code's are (a string `timeout` or an unknown handler `type`
// invalidates the whole file); unknown extra fields are tolerated and dropped.
import { z } from 'zod'

const common = {
  /** Seconds; must be a positive number. */
  timeout: z.number().positive().optional(),
  /** Permission-rule filter such as `Bash(git *)`: the handler runs only for matching tool calls. */
  if: z.string().optional(),
  onFailure: z.enum(['continue', 'block']).optional(),
  statusMessage: z.string().optional(),
  /** Accepted, not honoured in settings files (as in Claude Code 2.1.332). */
  once: z.boolean().optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional()
}

export const CommandHandlerSchema = z.object({
  type: z.literal('command'),
  command: z.string(),
  /** Exec form: no shell; `${VAR}` in args is expanded, `$VAR` is passed literally. */
  args: z.array(z.string()).optional(),
  shell: z.enum(['bash', 'powershell']).optional(),
  ...common
})

export const HttpHandlerSchema = z.object({
  type: z.literal('http'),
  url: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Environment variables that `$VAR` / `${VAR}` in header values may expand. */
  allowedEnvVars: z.array(z.string()).optional(),
  ...common
})

export const PromptHandlerSchema = z.object({ type: z.literal('prompt'), prompt: z.string(), model: z.string().optional(), ...common })
export const AgentHandlerSchema = z.object({ type: z.literal('agent'), prompt: z.string(), model: z.string().optional(), ...common })
export const McpToolHandlerSchema = z.looseObject({ type: z.literal('mcp_tool'), ...common })

export const HandlerSchema = z.discriminatedUnion('type', [
  CommandHandlerSchema,
  HttpHandlerSchema,
  PromptHandlerSchema,
  AgentHandlerSchema,
  McpToolHandlerSchema
])

export type CommandHandler = z.output<typeof CommandHandlerSchema>
export type HttpHandler = z.output<typeof HttpHandlerSchema>
export type HandlerDefinition = z.output<typeof HandlerSchema>

/** A matcher group; `hooks` is checked separately (a group whose `hooks` is not an array is dropped, the file still loads). */
export const GroupSchema = z.object({ matcher: z.string().optional(), hooks: z.unknown() })

/** The top level of a settings file: only the keys the bridge reads; everything else is tolerated. */
export const SettingsFileSchema = z.looseObject({
  hooks: z.record(z.string(), z.unknown()).optional(),
  disableAllHooks: z.boolean().optional()
})
