// Where agent definitions come from and how a file becomes one (claude-code-extensions.md 1(a)):
// project `.claude/agents/` folders from the workspace up to the repository root (closest wins),
// `~/.claude/agents/`, installed plugins' agent folders (namespaced `plugin:sub:name`), Codex's
// `.codex/agents/*.toml` and `~/.codex/agents/*.toml`, then the built-ins. A file is parsed once
// and again only when its size or mtime changes, so every look-up sees edits without a restart.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { parse as parseToml } from 'smol-toml'
import type { InstalledPlugin, ReasoningEffort, SubagentSkipped, TrustItem } from '@seam/sdk'
import { BUILTIN_AGENTS } from './builtins'
import { ClaudeAgentFrontMatter, CodexAgentFile, firstIssue, type AgentServer } from './definition-schema'

export interface AgentDefinition {
  /** What hooks get as `agent_type` and the model passes as `subagent_type`. */
  name: string
  description: string
  /** `builtin`, `project`, `user`, `plugin:<name>`, `codex-project`, `codex-user`. */
  source: string
  file?: string
  /** The agent's system prompt (the Markdown body, or Codex's `developer_instructions`). */
  prompt: string
  /** Allowlist entries as written (`Read`, `Agent(worker)`); absent: every tool. */
  tools?: readonly string[]
  disallowedTools?: readonly string[]
  model?: string
  /** Reasoning effort of its requests (front matter `effort`). */
  effort?: ReasoningEffort
  permissionMode?: string
  maxTurns?: number
  background?: boolean
  isolation?: 'worktree'
  color?: string
  /** Skills preloaded into the agent, whole (front matter `skills`). */
  skills?: readonly string[]
  /**
   * Its own MCP servers: configured ones by name, or inline definitions (not for plugin agents);
   * a Codex file's are its `[mcp_servers.NAME]` tables, in config.toml's shape.
   */
  mcpServers?: readonly AgentServer[]
  /** Hooks active while it runs, in settings.json's `hooks` shape (not for plugin agents). */
  hooks?: Readonly<Record<string, unknown>>
}

export const TRUST_SOURCE = 'Claude Code agents'
export const CODEX_TRUST_SOURCE = 'Codex agents'

export interface DiscoveryOptions {
  workspace: string
  home: string
  plugins: readonly InstalledPlugin[]
  /** Whether a project agent file may be offered (trusted workspace, this exact content approved). */
  approved(item: TrustItem): boolean
}

export interface Discovery {
  /** One per name, the highest-priority definition first in priority order. */
  agents: AgentDefinition[]
  skipped: SubagentSkipped[]
}

type Parsed = { agent: AgentDefinition; text: string } | { skipped: SubagentSkipped } | { documentation: true }

/** Parsed files by path, checked against size and mtime before use. */
export class DefinitionCache {
  private readonly files = new Map<string, { size: number; mtimeMs: number; kind: string; parsed: Parsed }>()

  read(file: string, kind: 'claude' | 'codex', source: string, namespace: string | undefined): Parsed | undefined {
    let stat
    try {
      stat = statSync(file)
    } catch {
      return undefined
    }
    const key = `${kind}\u0000${source}\u0000${namespace ?? ''}`
    const cached = this.files.get(file)
    if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs && cached.kind === key) return cached.parsed
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      return { skipped: { file, field: '(file)', reason: `could not be read: ${(error as Error).message}` } }
    }
    const parsed = kind === 'claude' ? parseClaudeAgent(file, text, source, namespace) : parseCodexAgent(file, text, source)
    this.files.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, kind: key, parsed })
    return parsed
  }
}

export function discoverAgents(options: DiscoveryOptions, cache: DefinitionCache = new DefinitionCache()): Discovery {
  const found: AgentDefinition[] = []
  const skipped: SubagentSkipped[] = []
  const take = (parsed: Parsed | undefined, trust?: { source: string }): void => {
    if (parsed === undefined || 'documentation' in parsed) return
    if ('skipped' in parsed) return void skipped.push(parsed.skipped)
    if (trust && !options.approved(trustItemOf(parsed.agent, parsed.text, trust.source))) {
      skipped.push({ file: parsed.agent.file ?? '', field: '(file)', reason: 'project agent not run: the workspace is not trusted, or this file changed since it was approved' })
      return
    }
    found.push(parsed.agent)
  }
  for (const folder of projectFolders(options.workspace, '.claude')) {
    for (const file of markdownFiles(path.join(folder, 'agents'))) take(cache.read(file, 'claude', 'project', undefined), { source: TRUST_SOURCE })
  }
  for (const folder of projectFolders(options.workspace, '.codex')) {
    for (const file of tomlFiles(path.join(folder, 'agents'))) take(cache.read(file, 'codex', 'codex-project', undefined), { source: CODEX_TRUST_SOURCE })
  }
  for (const file of markdownFiles(path.join(options.home, '.claude', 'agents'))) take(cache.read(file, 'claude', 'user', undefined))
  for (const file of tomlFiles(path.join(options.home, '.codex', 'agents'))) take(cache.read(file, 'codex', 'codex-user', undefined))
  for (const plugin of options.plugins) {
    for (const entry of plugin.agents) {
      const files = entry.endsWith('.md') ? [entry] : markdownFiles(entry)
      for (const file of files) {
        const sub = entry.endsWith('.md') ? [] : path.relative(entry, path.dirname(file)).split(path.sep).filter((part) => part !== '')
        take(withPluginVariables(cache.read(file, 'claude', `plugin:${plugin.name}`, [plugin.name, ...sub].join(':')), plugin))
      }
    }
  }
  // The first definition of a name wins (the list above is in priority order); built-ins last.
  const byName = new Map<string, AgentDefinition>()
  for (const agent of [...found, ...BUILTIN_AGENTS]) {
    if (!byName.has(agent.name)) byName.set(agent.name, agent)
  }
  return { agents: [...byName.values()], skipped }
}

/** Trust items for the dialog: every project agent file that parses (Claude Code's and Codex's). */
export function projectTrustItems(workspace: string, cache: DefinitionCache = new DefinitionCache()): TrustItem[] {
  const items: TrustItem[] = []
  for (const folder of projectFolders(workspace, '.claude')) {
    for (const file of markdownFiles(path.join(folder, 'agents'))) {
      const parsed = cache.read(file, 'claude', 'project', undefined)
      if (parsed && 'agent' in parsed) items.push(trustItemOf(parsed.agent, parsed.text, TRUST_SOURCE))
    }
  }
  for (const folder of projectFolders(workspace, '.codex')) {
    for (const file of tomlFiles(path.join(folder, 'agents'))) {
      const parsed = cache.read(file, 'codex', 'codex-project', undefined)
      if (parsed && 'agent' in parsed) items.push(trustItemOf(parsed.agent, parsed.text, CODEX_TRUST_SOURCE))
    }
  }
  return items
}

/**
 * Pinned by content: the whole file is hashed, so an edited agent needs approving again. What it
 * runs with the user's rights is shown: its hooks' commands and its own MCP servers' command lines.
 */
function trustItemOf(agent: AgentDefinition, text: string, source: string): TrustItem {
  const lines = [`${agent.name}: ${agent.description}`, ...hookCommands(agent.hooks), ...serverCommands(agent)]
  return { source, file: agent.file ?? '', event: 'subagent', command: lines.join('\n'), content: text }
}

function hookCommands(hooks: AgentDefinition['hooks']): string[] {
  const lines: string[] = []
  for (const [event, groups] of Object.entries(hooks ?? {})) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const handlers = (group as { hooks?: unknown }).hooks
      for (const handler of Array.isArray(handlers) ? handlers : []) {
        const { command, url } = handler as { command?: unknown; url?: unknown }
        const target = typeof command === 'string' ? command : typeof url === 'string' ? url : undefined
        if (target !== undefined) lines.push(`hook ${event}: ${target}`)
      }
    }
  }
  return lines
}

function serverCommands(agent: AgentDefinition): string[] {
  return (agent.mcpServers ?? []).flatMap(({ name, entry }) => {
    if (!entry) return []
    const { command, args, url } = entry as { command?: unknown; args?: unknown; url?: unknown }
    const target = typeof url === 'string' ? url : [command, ...(Array.isArray(args) ? args : [])].filter((part) => typeof part === 'string').join(' ')
    return [`MCP server "${name}": ${target}`]
  })
}

/** `<dir>/<name>` from the workspace up to the repository root (the folder holding `.git`), closest first. */
export function projectFolders(workspace: string, name: string): string[] {
  const chain: string[] = []
  let current = path.resolve(workspace)
  for (;;) {
    chain.push(current)
    if (existsSync(path.join(current, '.git'))) break
    const parent = path.dirname(current)
    if (parent === current) return [path.join(path.resolve(workspace), name)]
    current = parent
  }
  return chain.map((dir) => path.join(dir, name))
}

function markdownFiles(dir: string): string[] {
  let entries: string[]
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  } catch {
    return []
  }
  return entries.filter((entry) => entry.endsWith('.md')).sort().map((entry) => path.join(dir, entry))
}

function tomlFiles(dir: string): string[] {
  let entries: string[]
  try {
    entries = readdirSync(dir, { encoding: 'utf8' })
  } catch {
    return []
  }
  return entries.filter((entry) => entry.endsWith('.toml')).sort().map((entry) => path.join(dir, entry))
}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

function parseClaudeAgent(file: string, text: string, source: string, namespace: string | undefined): Parsed {
  const match = FRONT_MATTER.exec(text)
  // No front matter, hence no name: documentation, as Claude Code treats it.
  if (!match) return { documentation: true }
  let data: unknown
  try {
    data = parseYaml(match[1]) ?? {}
  } catch (error) {
    return { skipped: { file, field: 'yaml', reason: `front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}` } }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { skipped: { file, field: 'yaml', reason: 'front matter must be a YAML mapping' } }
  if (!('name' in data) || (data as { name?: unknown }).name === undefined || (data as { name?: unknown }).name === null) return { documentation: true }
  const parsed = ClaudeAgentFrontMatter.safeParse(data)
  if (!parsed.success) {
    const { field, reason } = firstIssue(parsed.error)
    return { skipped: { file, field, reason: `front matter field "${field}" ${reason}` } }
  }
  const front = parsed.data
  const plugin = source.startsWith('plugin:')
  const agent: AgentDefinition = {
    name: namespace ? `${namespace}:${front.name}` : front.name,
    description: front.description,
    source,
    file,
    prompt: text.slice(match[0].length).trim()
  }
  if (front.tools) agent.tools = front.tools
  if (front.disallowedTools) agent.disallowedTools = front.disallowedTools
  if (front.model) agent.model = front.model
  // Plugin agents: `hooks`, `mcpServers` and `permissionMode` are ignored (1(a) "Other loading rules").
  if (front.permissionMode && !plugin) agent.permissionMode = front.permissionMode
  if (front.mcpServers?.length && !plugin) agent.mcpServers = front.mcpServers
  if (front.hooks && !plugin) agent.hooks = front.hooks
  if (front.skills?.length) agent.skills = front.skills
  if (front.maxTurns) agent.maxTurns = front.maxTurns
  if (front.effort) agent.effort = front.effort
  if (front.background !== undefined) agent.background = front.background
  if (front.isolation) agent.isolation = front.isolation
  if (front.color) agent.color = front.color
  return { agent, text }
}

function parseCodexAgent(file: string, text: string, source: string): Parsed {
  let data: unknown
  try {
    data = parseToml(text)
  } catch (error) {
    return { skipped: { file, field: 'toml', reason: `not valid TOML: ${(error as Error).message.split('\n')[0]}` } }
  }
  const parsed = CodexAgentFile.safeParse(data)
  if (!parsed.success) {
    const { field, reason } = firstIssue(parsed.error)
    return { skipped: { file, field, reason: `field "${field}" ${reason}` } }
  }
  const agent: AgentDefinition = { name: parsed.data.name, description: parsed.data.description, source, file, prompt: parsed.data.developer_instructions.trim() }
  if (parsed.data.model) agent.model = parsed.data.model
  if (parsed.data.mcp_servers?.length) agent.mcpServers = parsed.data.mcp_servers
  return { agent, text }
}

/**
 * A plugin agent's prompt with `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and its
 * non-sensitive `${user_config.KEY}` written in, as Claude Code does in agent content (§1(c)).
 */
function withPluginVariables(parsed: Parsed | undefined, plugin: InstalledPlugin): Parsed | undefined {
  if (parsed === undefined || !('agent' in parsed)) return parsed
  const values: Record<string, string> = { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir }
  for (const [key, value] of Object.entries(plugin.userConfig ?? {})) values[`user_config.${key}`] = value
  const prompt = parsed.agent.prompt.replace(/\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|user_config\.[A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => values[name] ?? all)
  return prompt === parsed.agent.prompt ? parsed : { ...parsed, agent: { ...parsed.agent, prompt } }
}
