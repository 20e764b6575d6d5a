// What an agent file may say, checked with zod so a bad file is skipped naming its field:
// Claude Code's Markdown front matter (claude-code-extensions.md 1(a) "Frontmatter") and Codex's
// TOML agent files (1(a) "Codex equivalents"). Unknown fields are kept and ignored.
import { z } from 'zod'

/** `Read, Grep` or a YAML list: tool names or rules (`Agent(worker, researcher)`). */
const ToolList = z.union([z.string(), z.array(z.string())]).transform((value) => splitToolList(value))

/** `{name: {command, args, ...}}`: servers defined in the agent file, in the `.mcp.json` entry shape. */
const InlineServers = z.record(z.string().min(1), z.record(z.string(), z.unknown(), { error: 'must be an MCP server definition (the .mcp.json entry shape)' }))

/** One of an agent's MCP servers: a configured server by name, or one defined inline (`entry`). */
export interface AgentServer {
  name: string
  entry?: Record<string, unknown>
}

function agentServers(value: ReadonlyArray<string | Record<string, Record<string, unknown>>> | Record<string, Record<string, unknown>>): AgentServer[] {
  const items = Array.isArray(value) ? value : [value]
  return items.flatMap((item) => (typeof item === 'string' ? [{ name: item }] : Object.entries(item).map(([name, entry]) => ({ name, entry }))))
}

export const PERMISSION_MODES = ['default', 'acceptEdits', 'auto', 'dontAsk', 'bypassPermissions', 'plan', 'manual'] as const

export const ClaudeAgentFrontMatter = z.looseObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine((name) => !name.includes(':'), 'must not contain ":" (reserved for plugin agents)'),
  description: z.string({ error: 'is required (when Claude should delegate to this agent)' }).trim().min(1, 'is required (when Claude should delegate to this agent)'),
  tools: ToolList.optional(),
  disallowedTools: ToolList.optional(),
  model: z.string().trim().min(1).optional(),
  permissionMode: z.enum(PERMISSION_MODES).optional(),
  maxTurns: z.number().int().positive().optional(),
  skills: ToolList.optional(),
  mcpServers: z
    .union([z.array(z.union([z.string().trim().min(1), InlineServers])), InlineServers], { error: 'must be a list of server names or inline server definitions ({name: {command, ...}})' })
    .transform((value) => agentServers(value))
    .optional(),
  hooks: z.record(z.string(), z.unknown(), { error: 'must be a mapping of hook events, as in settings.json "hooks"' }).optional(),
  memory: z.enum(['user', 'project', 'local']).optional(),
  background: z.boolean().optional(),
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  isolation: z.literal('worktree').optional(),
  color: z.string().optional(),
  initialPrompt: z.string().optional()
})

export const CodexAgentFile = z.looseObject({
  name: z.string().trim().min(1, 'must not be empty'),
  description: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  developer_instructions: z.string({ error: 'is required (the agent\'s instructions)' }).min(1, 'is required (the agent\'s instructions)'),
  model: z.string().trim().min(1).optional(),
  model_reasoning_effort: z.string().optional(),
  sandbox_mode: z.string().optional(),
  // `[mcp_servers.NAME]` tables, Codex's config.toml shape: each is started for the agent alone.
  mcp_servers: z
    .record(z.string().min(1), z.record(z.string(), z.unknown(), { error: 'must be a table ([mcp_servers.NAME] with command or url, as in config.toml)' }))
    .transform((tables) => Object.entries(tables).map(([name, entry]): AgentServer => ({ name, entry })))
    .optional(),
  nickname_candidates: z.array(z.string()).optional()
})

/**
 * `Read, Grep, Agent(worker, researcher)` -> ['Read', 'Grep', 'Agent(worker, researcher)']: commas
 * inside parentheses do not split.
 */
export function splitToolList(value: string | readonly string[]): string[] {
  const items = typeof value === 'string' ? [value] : value
  const out: string[] = []
  for (const item of items) {
    let depth = 0
    let current = ''
    for (const char of item) {
      if (char === '(') depth++
      else if (char === ')') depth = Math.max(0, depth - 1)
      if (char === ',' && depth === 0) {
        if (current.trim() !== '') out.push(current.trim())
        current = ''
      } else current += char
    }
    if (current.trim() !== '') out.push(current.trim())
  }
  return out
}

/** The first issue of a failed parse as `{ field, reason }`. */
export function firstIssue(error: z.ZodError): { field: string; reason: string } {
  const issue = error.issues[0]
  const field = issue?.path.length ? issue.path.map(String).join('.') : '(file)'
  return { field, reason: issue?.message ?? 'is invalid' }
}
