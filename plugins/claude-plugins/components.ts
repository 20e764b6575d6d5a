// What a plugin holds, by name, for the plugin manager: its commands (`/plugin:command`), agents,
// skills (`plugin:skill`), hooks (event and what runs), MCP servers (the name the model sees) and
// `bin/` programs, read from its folder as the loaders read them. And what turning it on or off
// starts or stops: every hook command, MCP server command line and `bin/` program.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import type { PluginLayout } from './manifest'

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
}

/** The components of a plugin folder, by the names a user types or sees (values substituted by `vars`). */
export function pluginComponents(layout: PluginLayout, vars: Readonly<Record<string, string>> = {}): PluginComponents {
  const sub = (text: string) => text.replace(/\$\{([A-Z_]+)\}/g, (all, name: string) => vars[name] ?? all)
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
  return { commands: unique(commands), agents: unique(agents), skills: unique(skills), hooks, mcpServers, bin }
}

/** What runs while the plugin is on: its hooks, its MCP servers, its `bin/` programs (one line each). */
export function runningParts(components: PluginComponents): string[] {
  return [
    ...components.hooks.map((hook) => `hook ${hook}`),
    ...components.mcpServers.map((server) => `MCP server ${server}`),
    ...components.bin.map((program) => `bin/${program} on the Bash PATH`)
  ]
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
