// One plugin folder read as Claude Code reads it (claude-code-extensions.md §1(c)): the manifest
// `.claude-plugin/plugin.json` is optional (then the folder's name is the plugin's), only `name` is
// required, and its component fields override the default folders: `commands`, `agents` replace
// `commands/`, `agents/`; `skills` adds to `skills/`; `hooks` and `mcpServers` (a path, an inline
// object, or a list of those) add to `hooks/hooks.json` and `.mcp.json`. A Codex plugin
// (`.codex-plugin/plugin.json`) has `skills/` and `.mcp.json` the same way. Unknown fields are ignored.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { validRange } from 'semver'
import { z } from 'zod'
import { formatZodError } from '@seam/sdk'
import { isWithin } from '@seam/sdk/node'
import { lspServersOf, monitorsOf, readPluginSettingsJson, type LspServer, type Monitor, type PluginSettingsJson } from './parts'
import { UserConfigSchema, type UserConfig } from './user-config'

export type PluginFormat = 'claude' | 'codex'

/** Kebab-case, as Claude Code requires: the plugin's namespace (`/name:command`). */
export const PluginNameSchema = z
  .string()
  .min(1)
  .regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/i, 'a plugin name is kebab-case: letters, digits and "-" (it becomes the namespace, as in /name:command)')

const Paths = z.union([z.string().min(1), z.array(z.string().min(1))])
const PathOrInline = z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.union([z.string().min(1), z.record(z.string(), z.unknown())]))])

const SemverRange = z.string().refine((range) => validRange(range) !== null, 'not a semver range')
/** A marketplace's name as a plugin id carries it (`plugin@marketplace`). */
export const MarketplaceRefSchema = z.string().regex(/^[A-Za-z0-9._-]+$/, 'a marketplace name: letters, digits, ".", "_" and "-"')

/**
 * One entry of `dependencies`: a plugin name (of the declaring plugin's marketplace), `name@marketplace`
 * (another marketplace, allowed by the installing plugin's marketplace: README "Dependencies"),
 * `name@marketplace@range`, or `{name, marketplace?, version?}`; `version` is a semver range. Each
 * form is read as the object, so an error names its field (`dependencies[1].marketplace`).
 */
export const DependencySchema = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value
    // `name`, `name@marketplace`, or `name@marketplace@range` (Claude Code's schema accepts it and drops the range; Seam checks it).
    const [name, marketplace, ...range] = value.split('@')
    return { name, ...(marketplace !== undefined ? { marketplace } : {}), ...(range.length > 0 ? { version: range.join('@') } : {}) }
  },
  z
    .object(
      { name: PluginNameSchema, marketplace: MarketplaceRefSchema.optional(), version: SemverRange.optional() },
      { error: 'expected a plugin name, NAME@MARKETPLACE, or {name, marketplace, version}' }
    )
    .passthrough()
)
export type Dependency = { name: string; marketplace?: string; version?: string }

/** plugin.json as Claude Code documents it; the fields Seam acts on are typed, others pass through. */
export const PluginManifestSchema = z
  .object({
    name: PluginNameSchema,
    version: z.string().min(1).optional(),
    displayName: z.string().optional(),
    description: z.string().optional(),
    author: z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() }).partial({ name: true }).optional(),
    homepage: z.string().optional(),
    repository: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    license: z.string().optional(),
    keywords: z.array(z.string()).optional(),
    defaultEnabled: z.boolean().optional(),
    commands: Paths.optional(),
    agents: Paths.optional(),
    skills: Paths.optional(),
    hooks: PathOrInline.optional(),
    mcpServers: PathOrInline.optional(),
    outputStyles: Paths.optional(),
    lspServers: PathOrInline.optional(),
    experimental: z.object({ monitors: PathOrInline.optional(), themes: z.unknown().optional() }).passthrough().optional(),
    userConfig: UserConfigSchema.optional(),
    workflows: Paths.optional(),
    /** Its MCP servers that are channels (plugins/channels listens to them once enabled), each with options asked for as `userConfig`'s are. */
    channels: z.array(z.object({ server: z.string().min(1), userConfig: UserConfigSchema.optional() }).passthrough()).optional(),
    /** Plugins installed with it: `name` (its own marketplace), `name@marketplace`, or `{name, marketplace?, version?}` with a semver range. */
    dependencies: z.array(DependencySchema).optional()
  })
  .passthrough()
export type PluginManifest = z.output<typeof PluginManifestSchema>

/** A plugin folder, read: what each component holds, and what went wrong reading it. */
export interface PluginLayout {
  name: string
  format: PluginFormat
  root: string
  /** The manifest file, when there is one. */
  manifestFile?: string
  version?: string
  description?: string
  defaultEnabled?: boolean
  commands: string[]
  agents: string[]
  skills: string[]
  hooks: Array<{ file: string; hooks: Record<string, unknown> }>
  mcpServers: Array<{ file: string; servers: Record<string, unknown> }>
  binDir?: string
  /** Output style files and folders (`output-styles/`, or the manifest's `outputStyles`, which replaces it). */
  outputStyles: string[]
  lspServers: Array<{ file: string; servers: Record<string, LspServer> }>
  monitors: Array<{ file: string; monitors: Monitor[] }>
  /** The options asked for when it is enabled (`userConfig`); `{}` when it has none. */
  userConfig: UserConfig
  /** Its own `settings.json` (only `agent` and `subagentStatusLine` are honoured). */
  settings?: PluginSettingsJson
  /** Theme files (`themes/`, or the manifest's `experimental.themes`) and workflow files (`workflows/`, or `workflows`): read and listed, not applied (README). */
  themes: string[]
  workflows: string[]
  /** Its `channels`' MCP server names (the keys of its `.mcp.json`), for plugins/channels. */
  channels: string[]
  /** Plugins it needs (`dependencies`): `marketplace` when it names another one, the semver range when given. */
  dependencies: Dependency[]
  /** Problems that leave out a component (the rest of the plugin loads), naming the file and field. */
  problems: string[]
}

export class PluginManifestError extends Error {}

/**
 * The top-level `userConfig` with each channel's own options added (the same schema, asked for and
 * written in the same way: plugins-reference "Channels"). A key given twice keeps the first and is
 * a problem naming both places.
 */
function withChannelOptions(manifest: PluginManifest, where: string, problems: string[]): UserConfig {
  const options: UserConfig = { ...(manifest.userConfig ?? {}) }
  for (const [index, channel] of (manifest.channels ?? []).entries()) {
    for (const [key, option] of Object.entries(channel.userConfig ?? {})) {
      if (key in options) problems.push(`${where}: channels[${index}].userConfig.${key}: the plugin already has a userConfig option "${key}"; the first one is used`)
      else options[key] = option
    }
  }
  return options
}

/** The manifest file of a plugin folder and its format, or undefined when it has none. */
export function manifestFileOf(root: string): { file: string; format: PluginFormat } | undefined {
  const claude = join(root, '.claude-plugin', 'plugin.json')
  if (existsSync(claude)) return { file: claude, format: 'claude' }
  const codex = join(root, '.codex-plugin', 'plugin.json')
  if (existsSync(codex)) return { file: codex, format: 'codex' }
  return undefined
}

/**
 * Reads the plugin at `root`. A manifest that is not JSON or fails the schema throws (the plugin
 * cannot load; the message names the file and the field); a bad component is a `problem`.
 * `fallback` gives the name (and metadata) when the folder has no manifest: a marketplace entry.
 */
export function readPluginFolder(root: string, fallback?: Partial<PluginManifest> & { name: string }): PluginLayout {
  const found = manifestFileOf(root)
  let manifest: PluginManifest
  if (found) {
    let raw: unknown
    try {
      raw = JSON.parse(readFileSync(found.file, 'utf8'))
    } catch (error) {
      throw new PluginManifestError(`${found.file}: not valid JSON: ${(error as Error).message}`)
    }
    const parsed = PluginManifestSchema.safeParse(raw)
    if (!parsed.success) throw new PluginManifestError(formatZodError(found.file, parsed.error))
    manifest = parsed.data
  } else {
    const name = PluginNameSchema.safeParse(fallback?.name ?? basename(root))
    if (!name.success) throw new PluginManifestError(formatZodError(`${root} (no .claude-plugin/plugin.json: the folder name)`, name.error))
    manifest = { ...fallback, name: name.data }
    // The marketplace entry's own `dependencies` (it has no plugin.json): checked as plugin.json's are.
    if (fallback?.dependencies !== undefined) {
      const entry = z.object({ dependencies: z.array(DependencySchema) }).safeParse({ dependencies: fallback.dependencies })
      if (!entry.success) throw new PluginManifestError(formatZodError(`${name.data}'s marketplace entry`, entry.error))
      manifest.dependencies = entry.data.dependencies
    }
  }
  const format: PluginFormat = found?.format ?? 'claude'
  const problems: string[] = []
  const where = found?.file ?? root
  const paths = (field: string, value: string | string[] | undefined): string[] => {
    if (value === undefined) return []
    const out: string[] = []
    for (const [i, rel] of (Array.isArray(value) ? value : [value]).entries()) {
      const path = insideRoot(root, rel)
      if (path === undefined) problems.push(`${where}: ${field}${Array.isArray(value) ? `[${i}]` : ''}: "${rel}" is outside the plugin folder; ignored`)
      else out.push(path)
    }
    return out
  }
  const defaultDir = (name: string): string[] => (isDirectory(join(root, name)) ? [join(root, name)] : [])
  // The spec records `experimental.themes` without its shape: a path or a list of paths is read, anything else reported.
  const themePaths = (declared: unknown): string[] => {
    if (declared === undefined) return format === 'claude' ? defaultDir('themes') : []
    if (typeof declared === 'string' || (Array.isArray(declared) && declared.every((item) => typeof item === 'string'))) return paths('experimental.themes', declared)
    problems.push(`${where}: experimental.themes: expected a path or a list of paths; ignored`)
    return []
  }

  const layout: PluginLayout = {
    name: manifest.name,
    format,
    root,
    commands: manifest.commands !== undefined ? paths('commands', manifest.commands) : format === 'claude' ? defaultDir('commands') : [],
    agents: manifest.agents !== undefined ? paths('agents', manifest.agents) : format === 'claude' ? defaultDir('agents') : [],
    skills: unique([...defaultDir('skills'), ...paths('skills', manifest.skills)]),
    hooks: [],
    mcpServers: [],
    outputStyles: manifest.outputStyles !== undefined ? paths('outputStyles', manifest.outputStyles) : format === 'claude' ? defaultDir('output-styles') : [],
    lspServers: [],
    monitors: [],
    themes: themePaths(manifest.experimental?.themes),
    workflows: manifest.workflows !== undefined ? paths('workflows', manifest.workflows) : format === 'claude' ? defaultDir('workflows') : [],
    channels: (manifest.channels ?? []).map((channel) => channel.server),
    dependencies: (manifest.dependencies ?? []).map(({ name, marketplace, version }) => ({ name, ...(marketplace !== undefined ? { marketplace } : {}), ...(version !== undefined ? { version } : {}) })),
    userConfig: withChannelOptions(manifest, where, problems),
    problems
  }
  if (found) layout.manifestFile = found.file
  if (manifest.version !== undefined) layout.version = manifest.version
  if (manifest.description !== undefined) layout.description = manifest.description
  if (manifest.defaultEnabled !== undefined) layout.defaultEnabled = manifest.defaultEnabled
  if (isDirectory(join(root, 'bin'))) layout.binDir = join(root, 'bin')

  readComponent(root, where, 'hooks', join(root, 'hooks', 'hooks.json'), manifest.hooks, problems, (file, value) => {
    const hooks = unwrap(value, 'hooks')
    if (hooks === undefined) problems.push(`${file}: hooks: expected an object of events (Claude Code's settings shape); ignored`)
    else layout.hooks.push({ file, hooks })
  })
  readComponent(root, where, 'mcpServers', join(root, '.mcp.json'), manifest.mcpServers, problems, (file, value) => {
    const servers = unwrap(value, 'mcpServers')
    if (servers === undefined) problems.push(`${file}: mcpServers: expected an object of servers; ignored`)
    else layout.mcpServers.push({ file, servers })
  })
  // A channel names one of the plugin's own servers (plugins-reference "Channels"); another is left out.
  const serverNames = new Set(layout.mcpServers.flatMap((source) => Object.keys(source.servers)))
  layout.channels = layout.channels.filter((server, index) => {
    if (serverNames.has(server)) return true
    problems.push(`${where}: channels[${index}].server: "${server}" is not one of the plugin's MCP servers (${[...serverNames].join(', ') || 'it has none'}); that channel is left out`)
    return false
  })
  readComponent(root, where, 'lspServers', join(root, '.lsp.json'), manifest.lspServers, problems, (file, value) => {
    layout.lspServers.push({ file, servers: lspServersOf(file, value, problems) })
  })
  readComponent(root, where, 'experimental.monitors', join(root, 'monitors', 'monitors.json'), manifest.experimental?.monitors, problems, (file, value) => {
    layout.monitors.push({ file, monitors: monitorsOf(file, value, problems) })
  })
  const settings = readPluginSettingsJson(root, problems)
  if (settings !== undefined) layout.settings = settings
  return layout
}

/** `{hooks: {...}}` (a hooks.json) or `{...}` (inline in the manifest): the inner object. */
function unwrap(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined
  const inner = value[key]
  if (inner !== undefined) return isRecord(inner) ? inner : undefined
  return value
}

/** The default file (when present) plus the manifest's paths and inline objects, each read once. */
function readComponent(
  root: string,
  where: string,
  field: string,
  defaultFile: string,
  declared: unknown,
  problems: string[],
  take: (file: string, value: unknown) => void
): void {
  const seen = new Set<string>()
  const readFile = (file: string, label: string) => {
    if (seen.has(file)) return
    seen.add(file)
    try {
      take(file, JSON.parse(readFileSync(file, 'utf8')))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      problems.push(code === 'ENOENT' ? `${label}: ${file} does not exist; ignored` : `${file}: not valid JSON: ${(error as Error).message}; ignored`)
    }
  }
  if (existsSync(defaultFile)) readFile(defaultFile, defaultFile)
  if (declared === undefined) return
  const items = Array.isArray(declared) ? declared : [declared]
  for (const [i, item] of items.entries()) {
    const label = `${where}: ${field}${Array.isArray(declared) ? `[${i}]` : ''}`
    if (typeof item === 'string') {
      const file = insideRoot(root, item)
      if (file === undefined) problems.push(`${label}: "${item}" is outside the plugin folder; ignored`)
      else readFile(file, label)
    } else {
      take(`${where} (${field})`, item)
    }
  }
}

/** `rel` resolved against `root`, or undefined when it leaves it (`../x`, an absolute path elsewhere). */
function insideRoot(root: string, rel: string): string | undefined {
  const path = resolve(root, rel)
  return path === root || isWithin(root, path) ? path : undefined
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function unique(items: string[]): string[] {
  return [...new Set(items)]
}
