// The plugin parts beyond commands, agents, skills, hooks and MCP servers
// (claude-code-extensions.md §1(c)): output styles (`output-styles/`, or the manifest's
// `outputStyles`, which replaces it), LSP servers (`.lsp.json` and `lspServers`), monitors
// (`monitors/monitors.json` and `experimental.monitors`) and the plugin's `settings.json`, of which
// only `agent` and `subagentStatusLine` are honoured. Each is validated here; a bad one is a
// problem naming the file and field, and the rest of the plugin loads.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'

/**
 * One entry of `.lsp.json`, with the fields Claude Code's plugins reference lists: `command` and
 * `extensionToLanguage` required, the rest optional. Unknown fields are kept (and ignored).
 */
export const LspServerSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    extensionToLanguage: z.record(z.string().regex(/^\./, 'an extension starts with a dot'), z.string().min(1)),
    transport: z.enum(['stdio', 'socket']).optional(),
    env: z.record(z.string(), z.string()).optional(),
    initializationOptions: z.unknown().optional(),
    settings: z.unknown().optional(),
    workspaceFolder: z.string().min(1).optional(),
    startupTimeout: z.number().int().positive().optional(),
    shutdownTimeout: z.number().int().positive().optional(),
    restartOnCrash: z.boolean().optional(),
    maxRestarts: z.number().int().min(0).optional()
  })
  .passthrough()
export type LspServer = z.output<typeof LspServerSchema>

/**
 * One monitor of `monitors/monitors.json`, as Claude Code's plugins reference has it (the spec
 * records only that its `command` gets the plugin variables): `name` (unique in the plugin: one
 * process per session), `command` (each stdout line reaches the model), `description` (shown with
 * each event) and `when`: `always` (the default: at session start) or `on-skill-invoke:<skill>`.
 */
export const MonitorSchema = z
  .object({
    name: z.string().min(1),
    command: z.string().min(1),
    description: z.string().min(1),
    when: z
      .string()
      .regex(/^(always|on-skill-invoke:\S+)$/, 'must be "always" or "on-skill-invoke:<skill>"')
      .default('always')
  })
  .passthrough()
export type Monitor = z.output<typeof MonitorSchema>

/** The plugin's `settings.json`: only these two keys are honoured (§1(c)); others are reported and ignored. */
export const PluginSettingsJsonSchema = z
  .object({
    agent: z.string().min(1).optional(),
    subagentStatusLine: z.unknown().optional()
  })
  .passthrough()

/**
 * `subagentStatusLine` as public plugins write it (the spec records only the key): a command run
 * with the subagents' JSON on stdin. `padding` and any other key are kept and ignored.
 */
export const SubagentStatusLineSchema = z
  .object({
    type: z.literal('command'),
    command: z.string().trim().min(1)
  })
  .passthrough()
export type SubagentStatusLineSetting = z.output<typeof SubagentStatusLineSchema>

export interface PluginSettingsJson {
  file: string
  agent?: string
  subagentStatusLine?: SubagentStatusLineSetting
  /** Keys present but not honoured. */
  ignored: string[]
}

/** `{servers}` of an `.lsp.json` (or the manifest's inline object): each entry validated; a bad one is a problem. */
export function lspServersOf(file: string, value: unknown, problems: string[]): Record<string, LspServer> {
  const out: Record<string, LspServer> = {}
  const servers = isRecord(value) && isRecord(value.lspServers) ? value.lspServers : value
  if (!isRecord(servers)) {
    problems.push(`${file}: lspServers: expected an object of servers by name; ignored`)
    return out
  }
  for (const [name, server] of Object.entries(servers)) {
    const parsed = LspServerSchema.safeParse(server)
    if (parsed.success) out[name] = parsed.data
    else problems.push(`${formatZodError(`${file}: ${name}`, parsed.error)}; ignored`)
  }
  return out
}

/** Monitors from `monitors.json`: a list, `{monitors: [...]}` or an object by name. */
export function monitorsOf(file: string, value: unknown, problems: string[]): Monitor[] {
  // A single monitor (an item of the manifest's inline list), a list, {monitors: ...} or an object by name.
  const inner = isRecord(value) && typeof value.command === 'string' ? [value] : isRecord(value) && value.monitors !== undefined ? value.monitors : value
  const items: Array<[string, unknown]> = Array.isArray(inner)
    ? inner.map((item, i) => [`[${i}]`, item])
    : isRecord(inner)
      ? Object.entries(inner).map(([name, item]) => [name, isRecord(item) && item.name === undefined ? { name, ...item } : item])
      : []
  if (!Array.isArray(inner) && !isRecord(inner)) problems.push(`${file}: monitors: expected a list of monitors; ignored`)
  const out: Monitor[] = []
  for (const [where, item] of items) {
    const at = `${file}: monitors${where.startsWith('[') ? where : `.${where}`}`
    const parsed = MonitorSchema.safeParse(item)
    if (!parsed.success) problems.push(`${formatZodError(at, parsed.error)}; ignored`)
    else if (out.some((monitor) => monitor.name === parsed.data.name)) problems.push(`${at}: name: "${parsed.data.name}" is already a monitor of this plugin; ignored`)
    else out.push(parsed.data)
  }
  return out
}

/** The plugin root's `settings.json`, when there is one. */
export function readPluginSettingsJson(root: string, problems: string[]): PluginSettingsJson | undefined {
  const file = join(root, 'settings.json')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: cannot be read: ${(error as Error).message}; ignored`)
    return undefined
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    problems.push(`${file}: not valid JSON: ${(error as Error).message}; ignored`)
    return undefined
  }
  const parsed = PluginSettingsJsonSchema.safeParse(raw)
  if (!parsed.success) {
    problems.push(`${formatZodError(file, parsed.error)}; ignored`)
    return undefined
  }
  const settings: PluginSettingsJson = { file, ignored: Object.keys(parsed.data).filter((key) => key !== 'agent' && key !== 'subagentStatusLine') }
  if (parsed.data.agent !== undefined) settings.agent = parsed.data.agent
  if (parsed.data.subagentStatusLine !== undefined) {
    // A wrong shape loses only this key: the plugin (and its `agent`) still loads.
    const line = z.object({ subagentStatusLine: SubagentStatusLineSchema }).safeParse({ subagentStatusLine: parsed.data.subagentStatusLine })
    if (line.success) settings.subagentStatusLine = line.data.subagentStatusLine
    else problems.push(`${formatZodError(file, line.error)}; the subagent status line is not used`)
  }
  if (settings.ignored.length > 0) problems.push(`${file}: ${settings.ignored.join(', ')}: a plugin's settings.json honours only agent and subagentStatusLine; ignored`)
  return settings
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
