// What a plugin holds, by name, for the plugin manager: its commands (`/plugin:command`), agents,
// skills (`plugin:skill`), hooks (event and what runs), MCP servers (the name the model sees) and
// `bin/` programs, read from its folder as the loaders read them. And what turning it on or off
// starts or stops: every hook command, MCP server command line and `bin/` program.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import type { PluginLayout } from './manifest'
import { PLUGIN_VARIABLE } from './user-config'

export interface PluginComponents {
  commands: string[]
  agents: string[]
  skills: string[]
  /** `Event: command` per hook handler. */
  hooks: string[]
  /** `name: command args` (or `name: url`) per server. */
  mcpServers: string[]
  /** Programs in `bin/` (on the Bash PATH while it is on). */
  bin: string[]
  /** Output styles, `plugin:name` (selected by the `outputStyle` setting). */
  outputStyles: string[]
  /** `name: command args` per LSP server of `.lsp.json`; the plugin manager adds its state (running, idle, failed) from the LSP plugin. */
  lspServers: string[]
  /** `name: command` per monitor of `monitors/monitors.json` (run by the background-tasks plugin, as `when` says). */
  monitors: string[]
  /** `settings.json`'s `agent`: the agent the main thread runs as while the plugin is on. */
  settingsAgent?: string
  /** `settings.json`'s `subagentStatusLine` command: it draws each running subagent's status row. */
  subagentStatusLine?: string
  /** `name@marketplace` (with its version range when declared) per plugin it needs (installed with it); a folder plugin's bare name stays bare. */
  dependencies: string[]
  /** Its themes, `name (file)` (Settings → Theme applies one; plugins/themes). */
  themes: string[]
  /** Its channels: the MCP server each is, and the entry that enables it (plugins/channels). */
  channels: string[]
  /** Its workflows, each with why Seam does not apply it. */
  unsupported: string[]
}

/** Why each part Seam reads but does not apply is left out (README, "Workflows"). */
export const UNSUPPORTED_WHY = {
  workflow: 'not supported by Seam: it is a script for Claude Code\'s workflow runtime (agent(), parallel(), pipeline(), phase()), whose full API the published docs do not record'
} as const

/** The components of a plugin folder, by the names a user types or sees (values substituted by `vars`). */
/** `marketplace`: the plugin's own, which its dependencies given by bare name come from. */
export function pluginComponents(layout: PluginLayout, vars: Readonly<Record<string, string>> = {}, marketplace?: string): PluginComponents {
  const sub = (text: string) => text.replace(PLUGIN_VARIABLE, (all, name: string) => vars[name] ?? all)
  const commands = layout.commands.flatMap((path) => (/\.md$/i.test(path) ? [path] : markdownFiles(path)).map((file) => `/${layout.name}:${file === path ? basename(file).replace(/\.md$/i, '') : commandName(path, file)}`))
  const agents = layout.agents.flatMap((path) => (/\.md$/i.test(path) ? [path] : markdownFiles(path)).map((file) => basename(file).replace(/\.md$/i, '')))
  const skills = layout.skills.flatMap((path) => {
    if (existsSync(join(path, 'SKILL.md'))) return [`${layout.name}:${basename(path)}`]
    return subfolders(path).filter((folder) => existsSync(join(folder, 'SKILL.md'))).map((folder) => `${layout.name}:${basename(folder)}`)
  })
  const hooks: string[] = []
  for (const source of layout.hooks) {
    for (const [event, groups] of Object.entries(source.hooks)) {
      for (const group of Array.isArray(groups) ? groups : []) {
        const handlers = (group as { hooks?: unknown }).hooks
        for (const handler of Array.isArray(handlers) ? handlers : []) hooks.push(`${event}: ${sub(handlerText(handler))}`)
      }
    }
  }
  const mcpServers: string[] = []
  for (const source of layout.mcpServers) {
    for (const [name, server] of Object.entries(source.servers)) {
      const s = server as { command?: unknown; args?: unknown; url?: unknown }
      const what = typeof s.command === 'string' ? [s.command, ...(Array.isArray(s.args) ? s.args.map(String) : [])].join(' ') : String(s.url ?? '')
      mcpServers.push(`plugin_${layout.name}_${name}: ${sub(what)}`)
    }
  }
  const bin = layout.binDir !== undefined ? safeReaddir(layout.binDir).sort() : []
  const outputStyles = layout.outputStyles.flatMap((path) => (/\.md$/i.test(path) ? [path] : markdownFiles(path))).map((file) => `${layout.name}:${styleName(file)}`)
  const lspServers = layout.lspServers.flatMap((source) => Object.entries(source.servers).map(([name, server]) => `${name}: ${sub([server.command, ...(server.args ?? [])].join(' '))}`))
  const monitors = layout.monitors.flatMap((source) => source.monitors.map((monitor) => `${monitor.name}: ${sub(monitor.command)}${monitor.when === 'always' ? '' : ` (${monitor.when})`}`))
  const dependencies = layout.dependencies.map((dependency) => {
    const from = dependency.marketplace ?? marketplace
    const id = from !== undefined ? `${dependency.name}@${from}` : dependency.name
    return dependency.version !== undefined ? `${id} ${dependency.version}` : id
  })
  const filesOf = (paths: readonly string[]) => paths.flatMap((path) => (isDirectory(path) ? safeReaddir(path).sort().filter((entry) => !isDirectory(join(path, entry))) : [basename(path)]))
  const themes = layout.themes.flatMap((path) => (/\.json$/i.test(path) ? [path] : safeReaddir(path).sort().filter((entry) => /\.json$/i.test(entry)).map((entry) => join(path, entry)))).map(themeLabel)
  const unsupported = filesOf(layout.workflows).map((file) => `workflow ${file}: ${UNSUPPORTED_WHY.workflow}`)
  const enabling = `plugin:${layout.name}${marketplace !== undefined ? `@${marketplace}` : ''}`
  const channels = layout.channels.map((server) => `plugin_${layout.name}_${server} (--channels ${enabling})`)
  const components: PluginComponents = { commands: unique(commands), agents: unique(agents), skills: unique(skills), hooks, mcpServers, bin, outputStyles: unique(outputStyles), themes, lspServers, monitors, dependencies, channels, unsupported }
  if (layout.settings?.agent !== undefined) components.settingsAgent = layout.settings.agent
  if (layout.settings?.subagentStatusLine !== undefined) components.subagentStatusLine = sub(layout.settings.subagentStatusLine.command)
  return components
}

/** What runs while the plugin is on: its hooks, its MCP servers, its monitors, its `bin/` programs (one line each). */
export function runningParts(components: PluginComponents): string[] {
  return [
    ...components.hooks.map((hook) => `hook ${hook}`),
    ...components.mcpServers.map((server) => `MCP server ${server}`),
    ...components.monitors.map((monitor) => `monitor ${monitor}`),
    ...components.lspServers.map((server) => `LSP server ${server}`),
    ...(components.subagentStatusLine !== undefined ? [`subagent status line: ${components.subagentStatusLine}`] : []),
    ...components.bin.map((program) => `bin/${program} on the Bash PATH`)
  ]
}

/** An output style's name: its front matter `name`, else the file's name. */
export function styleName(file: string): string {
  try {
    const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'))
    const name = match ? /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(match[1])?.[1] : undefined
    if (name) return name
  } catch {
    // unreadable: named by its file, the loader reports it
  }
  return basename(file).replace(/\.md$/i, '')
}

/** A theme file's `name` (else its file's name) and the file, for the list; the themes plugin checks it in full. */
function themeLabel(file: string): string {
  let name: unknown
  try {
    name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown } | null)?.name
  } catch {
    // not JSON: listed by its file; Settings → Theme says why it is skipped
  }
  return `${typeof name === 'string' && name.trim() !== '' ? name : basename(file).replace(/\.json$/i, '')} (${basename(file)})`
}

function handlerText(handler: unknown): string {
  const h = handler as { type?: unknown; command?: unknown; args?: unknown; url?: unknown; prompt?: unknown }
  if (typeof h.command === 'string') return [h.command, ...(Array.isArray(h.args) ? h.args.map(String) : [])].join(' ')
  if (typeof h.url === 'string') return h.url
  if (typeof h.prompt === 'string') return `${String(h.type ?? 'prompt')} hook`
  return JSON.stringify(handler)
}

/** `sub/name` for `<dir>/sub/name.md`, as the slash command loader names it (`:` for nested folders). */
function commandName(dir: string, file: string): string {
  return relative(dir, file).replace(/\.md$/i, '').split(/[\\/]/).join(':')
}

function markdownFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of safeReaddir(dir).sort()) {
    const path = join(dir, entry)
    if (isDirectory(path)) out.push(...markdownFiles(path))
    else if (/\.md$/i.test(entry)) out.push(path)
  }
  return out
}

function subfolders(dir: string): string[] {
  return safeReaddir(dir).sort().map((entry) => join(dir, entry)).filter(isDirectory)
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)]
}
