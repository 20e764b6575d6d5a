// Where MCP servers are declared, as users already have them, and how the declarations merge.
//
// Sources, highest precedence first (a name declared in several keeps the first, and the
// others are reported):
//   1. servers a caller starts for one session (the `mcp` service's startForSession)
//   2. <workspace>/.mcp.json                  Claude Code's project file (workspace code: needs trust)
//   3. <workspace>/.codex/config.toml         Codex's project `[mcp_servers.NAME]` (workspace code: needs trust)
//   4. Seam's settings.json `mcpServers`      user level, the .mcp.json entry shape
//   5. <Codex home>/config.toml               Codex's user `[mcp_servers.NAME]`
// Claude Code's `${VAR}` / `${VAR:-default}` expansion applies to the .mcp.json shape (2, 4 and
// 1); Codex's tables are taken literally, as Codex does.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { Expander } from './expand'

export type McpTransport = 'stdio' | 'http' | 'sse'
/** `agent`: defined inline in a subagent's agent file (its `mcpServers`), started for that subagent only. */
export type McpSourceKind = 'session' | 'project' | 'codex-project' | 'seam' | 'codex-user' | 'plugin' | 'agent'

/** One server, resolved: variables expanded, ready to start (or carrying why it cannot). */
export interface McpServerSpec {
  name: string
  source: McpSourceKind
  /** The file that declared it (or "session" for servers given by a caller). */
  file: string
  transport: McpTransport
  command?: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
  url?: string
  headers?: Record<string, string>
  /** Codex: `enabled = false`. */
  enabled: boolean
  startupTimeoutMs?: number
  toolTimeoutMs?: number
  /** Codex's `enabled_tools` / `disabled_tools` filters (server tool names). */
  enabledTools?: string[]
  disabledTools?: string[]
  /** A problem in the declaration (a missing variable, a bad field): the server fails with it. */
  error?: string
  /** A Claude Code plugin's server: the plugin (and its marketplace) and the server's own name in its `.mcp.json`. */
  plugin?: { name: string; marketplace?: string; server: string }
}

/** Declared in the workspace: starts only once the workspace is trusted. */
export function isWorkspaceCode(spec: McpServerSpec): boolean {
  return spec.source === 'project' || spec.source === 'codex-project'
}

/** What the server runs or where it connects, exactly as started: the trust dialog and the UI show this. */
export function targetOf(spec: McpServerSpec): string {
  if (spec.transport === 'stdio') return [spec.command ?? '', ...(spec.args ?? [])].map(shellWord).join(' ')
  return `${spec.transport.toUpperCase()} ${spec.url ?? ''}`
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

const StringMap = z.record(z.string(), z.string())

/** One entry of `mcpServers` in .mcp.json (and Seam's settings): stdio, or HTTP / SSE. */
const StdioEntrySchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: StringMap.default({})
})
const RemoteEntrySchema = z.object({
  type: z.enum(['http', 'sse']),
  url: z.string().min(1),
  headers: StringMap.default({})
})
export const ClaudeServerEntrySchema = z.union([StdioEntrySchema, RemoteEntrySchema])
export type ClaudeServerEntry = z.input<typeof ClaudeServerEntrySchema>

/** The schema an entry is checked against, chosen by its `type`, so an error names the field. */
function entrySchemaFor(raw: unknown): typeof StdioEntrySchema | typeof RemoteEntrySchema {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined
  return type === 'http' || type === 'sse' ? RemoteEntrySchema : StdioEntrySchema
}

const McpJsonSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()).default({}) })

/** Codex's `[mcp_servers.NAME]` table (the fields Seam uses; others are reported as ignored). */
const CodexServerSchema = z
  .object({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: StringMap.default({}),
    env_vars: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    url: z.string().min(1).optional(),
    bearer_token_env_var: z.string().optional(),
    http_headers: StringMap.default({}),
    env_http_headers: StringMap.default({}),
    enabled: z.boolean().default(true),
    startup_timeout_sec: z.number().positive().optional(),
    startup_timeout_ms: z.number().positive().optional(),
    tool_timeout_sec: z.number().positive().optional(),
    enabled_tools: z.array(z.string()).optional(),
    disabled_tools: z.array(z.string()).optional()
  })
  .refine((entry) => (entry.command === undefined) !== (entry.url === undefined), { message: 'needs exactly one of "command" (stdio) or "url" (streamable HTTP)' })

export interface LoadedServers {
  servers: McpServerSpec[]
  /** Problems with whole files, duplicate names and which declaration won. */
  warnings: string[]
}

export interface SourcePaths {
  workspace: string | null
  codexHome: string
}

type Env = Readonly<Record<string, string | undefined>>

/** Turns one `.mcp.json`-shaped entry into a spec; a bad entry becomes a spec carrying its error. */
export function claudeEntryToSpec(name: string, raw: unknown, source: McpSourceKind, file: string, env: Env): McpServerSpec {
  const schema = entrySchemaFor(raw)
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const transport: McpTransport = schema === RemoteEntrySchema ? ((raw as { type: 'http' | 'sse' }).type) : 'stdio'
    return { name, source, file, transport, enabled: true, error: formatZodError(`${file}: mcpServers.${name}`, parsed.error) }
  }
  const entry = parsed.data as z.output<typeof ClaudeServerEntrySchema>
  const expand = new Expander(env)
  const spec: McpServerSpec =
    'command' in entry
      ? { name, source, file, transport: 'stdio', command: expand.text(entry.command), args: expand.list(entry.args), env: expand.map(entry.env), enabled: true }
      : { name, source, file, transport: entry.type, url: expand.text(entry.url), headers: expand.map(entry.headers), enabled: true }
  if (expand.missing.size > 0) {
    spec.error = `${file}: mcpServers.${name}: missing environment variable(s) ${[...expand.missing].join(', ')} (write \${VAR:-default} for a default)`
  } else if (spec.url !== undefined && !URL.canParse(spec.url)) {
    spec.error = `${file}: mcpServers.${name}.url: not a valid URL: ${JSON.stringify(spec.url)}`
  }
  return spec
}

/** Turns one Codex `[mcp_servers.NAME]` table into a spec; a bad table becomes a spec carrying its error. */
export function codexEntryToSpec(name: string, raw: unknown, source: McpSourceKind, file: string, env: Env): McpServerSpec {
  const parsed = CodexServerSchema.safeParse(raw)
  if (!parsed.success) return { name, source, file, transport: 'stdio', enabled: true, error: formatZodError(`${file}: mcp_servers.${name}`, parsed.error) }
  const entry = parsed.data
  const timeouts = {
    startupTimeoutMs: entry.startup_timeout_ms ?? (entry.startup_timeout_sec !== undefined ? entry.startup_timeout_sec * 1000 : undefined),
    toolTimeoutMs: entry.tool_timeout_sec !== undefined ? entry.tool_timeout_sec * 1000 : undefined
  }
  const filters = { enabledTools: entry.enabled_tools, disabledTools: entry.disabled_tools }
  if (entry.command !== undefined) {
    // Codex passes `env` plus the named variables of its own environment (env_vars).
    const passed = Object.fromEntries(entry.env_vars.flatMap((key) => (env[key] !== undefined ? [[key, env[key] as string]] : [])))
    return { name, source, file, transport: 'stdio', command: entry.command, args: entry.args, env: { ...passed, ...entry.env }, cwd: entry.cwd, enabled: entry.enabled, ...timeouts, ...filters }
  }
  const headers: Record<string, string> = { ...entry.http_headers }
  const missing: string[] = []
  for (const [header, variable] of Object.entries(entry.env_http_headers)) {
    if (env[variable] !== undefined) headers[header] = env[variable] as string
  }
  if (entry.bearer_token_env_var !== undefined) {
    const token = env[entry.bearer_token_env_var]
    if (token === undefined) missing.push(entry.bearer_token_env_var)
    else headers.Authorization = `Bearer ${token}`
  }
  const spec: McpServerSpec = { name, source, file, transport: 'http', url: entry.url, headers, enabled: entry.enabled, ...timeouts, ...filters }
  if (missing.length > 0) spec.error = `${file}: mcp_servers.${name}.bearer_token_env_var: environment variable ${missing.join(', ')} is not set`
  else if (!URL.canParse(entry.url as string)) spec.error = `${file}: mcp_servers.${name}.url: not a valid URL: ${JSON.stringify(entry.url)}`
  return spec
}

/** Reads a JSON or TOML file; `undefined` when it does not exist, a warning when it cannot be used. */
function readFile(path: string, warnings: string[], parse: (text: string) => unknown): unknown {
  if (!existsSync(path)) return undefined
  try {
    return parse(readFileSync(path, 'utf8'))
  } catch (error) {
    warnings.push(`${path}: cannot be read as ${path.endsWith('.toml') ? 'TOML' : 'JSON'}: ${(error as Error).message}; its MCP servers are skipped`)
    return undefined
  }
}

function fromMcpJson(path: string, env: Env, warnings: string[]): McpServerSpec[] {
  const raw = readFile(path, warnings, JSON.parse)
  if (raw === undefined) return []
  const parsed = McpJsonSchema.safeParse(raw)
  if (!parsed.success) {
    warnings.push(`${formatZodError(path, parsed.error)}; its MCP servers are skipped`)
    return []
  }
  return Object.entries(parsed.data.mcpServers).map(([name, entry]) => claudeEntryToSpec(name, entry, 'project', path, env))
}

function fromCodexToml(path: string, source: McpSourceKind, env: Env, warnings: string[]): McpServerSpec[] {
  const raw = readFile(path, warnings, parseToml) as { mcp_servers?: unknown } | undefined
  if (raw === undefined || raw.mcp_servers === undefined) return []
  const tables = z.record(z.string(), z.unknown()).safeParse(raw.mcp_servers)
  if (!tables.success) {
    warnings.push(`${path}: mcp_servers: expected tables [mcp_servers.NAME]; skipped`)
    return []
  }
  return Object.entries(tables.data).map(([name, entry]) => codexEntryToSpec(name, entry, source, path, env))
}

/** Every declared server from the files, plus Seam's own settings entries, merged by precedence. */
export function loadServers(paths: SourcePaths, seamServers: Record<string, unknown>, seamFile: string, env: Env): LoadedServers {
  const warnings: string[] = []
  const all: McpServerSpec[] = []
  if (paths.workspace !== null) {
    all.push(...fromMcpJson(join(paths.workspace, '.mcp.json'), env, warnings))
    all.push(...fromCodexToml(join(paths.workspace, '.codex', 'config.toml'), 'codex-project', env, warnings))
  }
  all.push(...Object.entries(seamServers).map(([name, entry]) => claudeEntryToSpec(name, entry, 'seam', seamFile, env)))
  all.push(...fromCodexToml(join(paths.codexHome, 'config.toml'), 'codex-user', env, warnings))
  const merged = mergeByPrecedence(all)
  return { servers: merged.servers, warnings: [...warnings, ...merged.warnings] }
}

/** A Claude Code plugin's server is named `plugin_<plugin>_<server>`, so its tools are `mcp__plugin_<plugin>_<server>__<tool>` (cc:mcp.md). */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`
}

/** The servers of the enabled Claude Code plugins (`.mcp.json`-shaped, plugin variables already written in by the catalog). */
export function pluginServerSpecs(plugins: ReadonlyArray<{ name: string; marketplace?: string; mcpServers?: ReadonlyArray<{ file: string; servers: Readonly<Record<string, unknown>> }> }>, env: Env): McpServerSpec[] {
  return plugins.flatMap((plugin) =>
    (plugin.mcpServers ?? []).flatMap((source) =>
      Object.entries(source.servers).map(([name, entry]) => ({
        ...claudeEntryToSpec(pluginServerName(plugin.name, name), entry, 'plugin', source.file, env),
        plugin: { name: plugin.name, ...(plugin.marketplace !== undefined ? { marketplace: plugin.marketplace } : {}), server: name }
      }))
    )
  )
}

/** Keeps the first declaration of each name (the list is in precedence order) and reports the rest. */
export function mergeByPrecedence(ordered: readonly McpServerSpec[]): LoadedServers {
  const kept = new Map<string, McpServerSpec>()
  const warnings: string[] = []
  for (const spec of ordered) {
    const winner = kept.get(spec.name)
    if (winner === undefined) kept.set(spec.name, spec)
    else warnings.push(`MCP server "${spec.name}" is declared in ${winner.file} and in ${spec.file}; the one in ${winner.file} is used`)
  }
  return { servers: [...kept.values()], warnings }
}
