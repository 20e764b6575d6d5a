// Custom slash commands read from Markdown files: Claude Code's `.claude/commands/**/*.md`
// (user: `~/.claude/commands`, project: `<workspace>/.claude/commands`) and Codex's custom
// prompts (`$CODEX_HOME/prompts/*.md`, invoked as `/prompts:<name>`). Files are read at each use,
// so an edit applies to the next invocation. A malformed file is reported (path and field), and
// invoking it gives that error instead of "unknown command".
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { formatIssuePath } from '../../src-shared/validation'
import { parsePermissionRule } from '../../plugins/hook-protocol/index'

/** `plugin`: contributed by a plugin through the `slashCommands` service (a skill), or a Claude Code plugin's command file (`/plugin:command`). */
export type CommandSource = 'builtin' | 'user' | 'project' | 'codex' | 'plugin'

export interface CustomCommand {
  /** Without the slash: `review`, `frontend:component` (a subfolder), `prompts:draft` (Codex). */
  name: string
  source: Exclude<CommandSource, 'builtin'>
  file: string
  description: string
  argumentHint?: string
  /** Claude Code permission rules the command's turn runs without asking (front matter `allowed-tools`). */
  allowedTools?: string[]
  /** The model of the command's turn (front matter `model`). */
  model?: string
  /** Claude Code: names of the positional arguments, `$name` in the body (front matter `arguments`). */
  argumentNames?: string[]
  /** The Markdown after the front matter. */
  body: string
}

export interface CommandProblem {
  /** The command it would have defined (so invoking it reports the problem). */
  name: string
  source: Exclude<CommandSource, 'builtin'>
  file: string
  /** The front matter field at fault, when one is. */
  field?: string
  message: string
}

export interface CustomCommandSet {
  commands: CustomCommand[]
  problems: CommandProblem[]
  /** Shadowed commands: a project command over a user one of the same name, and the like. */
  notices: string[]
}

export interface CommandDirs {
  /** `~/.claude/commands` (user commands). */
  user?: string
  /** `<workspace>/.claude/commands` (project commands). */
  project?: string
  /** `$CODEX_HOME/prompts` (Codex custom prompts). */
  codex?: string
  /** Enabled Claude Code plugins' command folders (or `.md` files): `/plugin:command`. */
  plugins?: ReadonlyArray<PluginCommandDirs>
}

export interface PluginCommandDirs {
  /** The plugin's name: the namespace of its commands. */
  name: string
  paths: readonly string[]
  /** Written into the body where it says `${NAME}` (CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA). */
  vars?: Readonly<Record<string, string>>
}

/** Where commands live for `workspace`, with the same home conventions as the rest of Seam (`~/.claude`, `$CODEX_HOME` else `~/.codex`). */
export function commandDirs(workspace: string | null, env: NodeJS.ProcessEnv, home: string): CommandDirs {
  return {
    user: join(home, '.claude', 'commands'),
    ...(workspace ? { project: join(workspace, '.claude', 'commands') } : {}),
    codex: join(env.CODEX_HOME || join(home, '.codex'), 'prompts')
  }
}

/** A comma-separated string of rules (`Bash(git add:*), Read`) or a YAML list. */
const AllowedTools = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === 'string' ? splitRules(value) : value.map((rule) => rule.trim()).filter(Boolean)))
  .superRefine((rules, check) => {
    for (const rule of rules) if (!parsePermissionRule(rule).ok) check.addIssue({ code: 'custom', message: `"${rule}" is not a permission rule (Tool or Tool(specifier))` })
  })

/** Claude Code's named arguments: a space-separated string or a YAML list, in argument order. */
const ArgumentNames = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (typeof value === 'string' ? value.split(/\s+/) : value.map((name) => name.trim())).filter(Boolean))
  .superRefine((names, check) => {
    for (const name of names) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) check.addIssue({ code: 'custom', message: `"${name}" is not an argument name (letters, digits and _, not starting with a digit)` })
  })

const ClaudeFrontMatter = z.object({
  description: z.string().optional(),
  'argument-hint': z.string().optional(),
  'allowed-tools': AllowedTools.optional(),
  model: z.string().min(1).optional(),
  arguments: ArgumentNames.optional()
})

const CodexFrontMatter = z.object({
  description: z.string().optional(),
  'argument-hint': z.string().optional()
})

/** Reads every command under `dirs`. Precedence on a name clash: project, then user, then Codex. */
export function loadCustomCommands(dirs: CommandDirs): CustomCommandSet {
  const set: CustomCommandSet = { commands: [], problems: [], notices: [] }
  const byName = new Map<string, CustomCommand | CommandProblem>()
  const add = (entry: CustomCommand | CommandProblem) => {
    const earlier = byName.get(entry.name)
    if (earlier) {
      set.notices.push(`/${entry.name}: the ${earlier.source} command (${earlier.file}) is used; the ${entry.source} command of the same name (${entry.file}) is ignored`)
      return
    }
    byName.set(entry.name, entry)
    if ('body' in entry) set.commands.push(entry)
    else set.problems.push(entry)
  }
  if (dirs.project) for (const file of markdownFiles(dirs.project, true)) add(readCommandFile(dirs.project, file, 'project'))
  if (dirs.user) for (const file of markdownFiles(dirs.user, true)) add(readCommandFile(dirs.user, file, 'user'))
  if (dirs.codex) for (const file of markdownFiles(dirs.codex, false)) add(readCommandFile(dirs.codex, file, 'codex'))
  for (const plugin of dirs.plugins ?? []) {
    for (const path of plugin.paths) {
      const single = /\.md$/i.test(path)
      const root = single ? dirname(path) : path
      for (const file of single ? [path] : markdownFiles(path, true)) add(withPluginVars(readCommandFile(root, file, 'plugin', plugin.name), plugin.vars))
    }
  }
  return set
}

/** One command file, or the problem that keeps it from being one. */
export function readCommandFile(root: string, file: string, source: CustomCommand['source'], plugin?: string): CustomCommand | CommandProblem {
  const name = plugin !== undefined ? `${plugin}:${commandName(root, file, source)}` : commandName(root, file, source)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return { name, source, file, message: `cannot be read: ${(error as Error).message}` }
  }
  const parsed = parseFrontMatter(text, source === 'codex' ? CodexFrontMatter : ClaudeFrontMatter)
  if ('message' in parsed) return { name, source, file, ...parsed }
  const front = parsed.front as z.output<typeof ClaudeFrontMatter>
  const command: CustomCommand = { name, source, file, description: front.description?.trim() || firstLine(parsed.body) || `/${name}`, body: parsed.body }
  if (front['argument-hint']) command.argumentHint = front['argument-hint'].trim()
  if (front['allowed-tools']?.length) command.allowedTools = front['allowed-tools']
  if (front.model) command.model = front.model.trim()
  if (front.arguments?.length) command.argumentNames = front.arguments
  return command
}

/**
 * A Markdown file's front matter checked against `schema`, and its body; or what is wrong (the
 * message names the field when one is at fault). Commands and skills read their files with it.
 */
export function parseFrontMatter<S extends z.ZodType>(text: string, schema: S): { front: z.output<S>; body: string } | { field?: string; message: string } {
  const split = splitFrontMatter(text)
  let data: unknown = {}
  if (split.frontMatter !== undefined) {
    try {
      data = parseYaml(quoteArgumentHint(split.frontMatter)) ?? {}
    } catch (error) {
      return { message: `front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}` }
    }
    if (typeof data !== 'object' || Array.isArray(data)) return { message: 'front matter must be a YAML mapping' }
  }
  const parsed = schema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = formatIssuePath(issue.path)
    return { field, message: `front matter field "${field}": ${issue.message}` }
  }
  return { front: parsed.data, body: split.body }
}

/** A plugin command's body with `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` and `${user_config.KEY}` written in, as Claude Code does. */
function withPluginVars(entry: CustomCommand | CommandProblem, vars: Readonly<Record<string, string>> | undefined): CustomCommand | CommandProblem {
  if (!('body' in entry) || vars === undefined) return entry
  return { ...entry, body: entry.body.replace(/\$\{([A-Z_]+|user_config\.[A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => vars[name] ?? all) }
}

/** `frontend/component.md` -> `frontend:component` (Claude Code's namespacing); Codex: `prompts:<file name>`. */
function commandName(root: string, file: string, source: CustomCommand['source']): string {
  if (source === 'codex') return `prompts:${basename(file, '.md')}`
  return relative(root, file).replace(/\.md$/i, '').split(sep).join(':')
}

function splitFrontMatter(text: string): { frontMatter?: string; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  if (!match) return { body: text.replace(/^\uFEFF/, '') }
  return { frontMatter: match[1], body: text.slice(match[0].length) }
}

/**
 * Claude Code's examples write `argument-hint: [pr-number] [priority]`, which YAML reads as a flow
 * list (or fails on): the hint is taken as the literal text after the colon.
 */
function quoteArgumentHint(frontMatter: string): string {
  return frontMatter.replace(/^argument-hint:[ \t]*(\[.*)$/m, (_line, value: string) => `argument-hint: ${JSON.stringify(value.trim())}`)
}

function firstLine(body: string): string {
  const line = body.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? ''
  const plain = line.replace(/^#+\s*/, '')
  return plain.length > 100 ? `${plain.slice(0, 99)}…` : plain
}

/** Splits `Bash(git add:*), Bash(git status:*), Read` at the commas outside parentheses. */
export function splitRules(text: string): string[] {
  const rules: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if (char === '(') depth++
    if (char === ')') depth = Math.max(0, depth - 1)
    if (char === ',' && depth === 0) {
      if (current.trim()) rules.push(current.trim())
      current = ''
      continue
    }
    current += char
  }
  if (current.trim()) rules.push(current.trim())
  return rules
}

/** `.md` files under `dir` (recursively when `deep`), sorted so names and precedence are stable. */
function markdownFiles(dir: string, deep: boolean): string[] {
  let entries
  try {
    if (!statSync(dir).isDirectory()) return []
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const files: string[] = []
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && deep && !entry.name.startsWith('.')) files.push(...markdownFiles(path, true))
    else if (entry.isFile() && /\.md$/i.test(entry.name)) files.push(path)
  }
  return files
}
