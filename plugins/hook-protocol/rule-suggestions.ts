// The permission rules "allow for this session" and "always allow" save, generalised from one call
// the way Claude Code words its `permission_suggestions` (claude-code-extensions.md, PermissionRequest):
//
//   Bash `npm test -- --watch`        -> Bash(npm test:*)            one rule per simple command
//   Bash `git status && npm run lint` -> Bash(git status:*), Bash(npm run lint:*)   (bash-command's parser)
//   Edit/Write <ws>/src/a/b.ts        -> Edit(/src/a/**)             the file's folder (workspace-relative)
//   Read /etc/hosts                   -> Read(//etc/**)              absolute outside the workspace
//   WebFetch https://docs.x.com/p     -> WebFetch(domain:docs.x.com)
//   mcp__github__list_issues          -> mcp__github__list_issues
//   any other tool                    -> the tool's name
//
// A part whose prefix would allow anything (`sudo …`, `bash …`) is saved as its exact text. A line
// the shell parser cannot read with confidence (`eval`, a computed command name, a syntax error)
// gets no rule at all, since no rule allows such a line (the permission policy's rule).
import { posix } from 'node:path'
import { splitBashCommand, splitBashCommandSync, type BashSplit } from './bash-command/index'
import { bashPatternMatches, matchesPermissionRule, parsePermissionRule, type PermissionRuleContext } from './permission-rule'

/** One rule as Claude Code's `permission_suggestions` carry it: `Tool` or `Tool(ruleContent)`. */
export interface RuleValue {
  toolName: string
  ruleContent?: string
}

export type BashSplitter = (command: string) => BashSplit | Promise<BashSplit>

export interface SuggestionContext {
  /** The folder the call runs in (relative paths resolve against it). */
  cwd: string
  /** The workspace root: paths inside it are written `/rel/**`, as `/x` rules are workspace-relative. */
  projectDir?: string | null
  /** Reads a compound command as simple commands; default: the shell parser (`bash-command`). */
  splitBash?: BashSplitter
}

/** `Tool` or `Tool(content)`. */
export function ruleText(rule: RuleValue): string {
  return rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`
}

/** The rules that would allow this call and calls like it, most specific useful form, no duplicates; none for an unreadable Bash line. */
export async function suggestRules(tool: string, args: Readonly<Record<string, unknown>>, context: SuggestionContext): Promise<RuleValue[]> {
  const rules = await rulesFor(tool, args, context)
  const seen = new Set<string>()
  return rules.filter((rule) => {
    const text = ruleText(rule)
    if (seen.has(text)) return false
    seen.add(text)
    return true
  })
}

async function rulesFor(tool: string, args: Readonly<Record<string, unknown>>, context: SuggestionContext): Promise<RuleValue[]> {
  if (tool === 'Bash' && typeof args.command === 'string') return bashRules(args.command, context.splitBash ?? splitBashCommand)
  const file = FILE_ARGUMENT[tool]
  if (file !== undefined && typeof args[file.argument] === 'string' && args[file.argument] !== '') {
    return [{ toolName: file.rule, ruleContent: folderPattern(posix.dirname(posix.resolve(context.cwd, args[file.argument] as string)), context) }]
  }
  if ((tool === 'Glob' || tool === 'Grep') && typeof args.path === 'string' && args.path !== '') {
    return [{ toolName: tool, ruleContent: folderPattern(posix.resolve(context.cwd, args.path), context) }]
  }
  if (tool === 'WebFetch' && typeof args.url === 'string') {
    const host = hostOf(args.url)
    if (host !== undefined) return [{ toolName: tool, ruleContent: `domain:${host}` }]
  }
  return [{ toolName: tool }]
}

/** File tools, the argument naming their file, and the rule family (Edit rules cover every editor). */
const FILE_ARGUMENT: Readonly<Record<string, { argument: string; rule: string }>> = {
  Read: { argument: 'file_path', rule: 'Read' },
  Edit: { argument: 'file_path', rule: 'Edit' },
  Write: { argument: 'file_path', rule: 'Edit' },
  MultiEdit: { argument: 'file_path', rule: 'Edit' },
  NotebookEdit: { argument: 'notebook_path', rule: 'Edit' }
}

/** A folder and everything below it: `/rel/**` inside the workspace, `//abs/**` outside. */
function folderPattern(folder: string, context: SuggestionContext): string {
  const root = context.projectDir ?? undefined
  if (root !== undefined) {
    const relative = posix.relative(root, folder)
    if (relative === '') return '/**'
    if (!relative.startsWith('..') && !posix.isAbsolute(relative)) return `/${relative}/**`
  }
  return folder === '/' ? '//**' : `/${folder}/**`
}

function hostOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase()
    return host === '' ? undefined : host
  } catch {
    return undefined // not a URL: the bare tool name is suggested instead
  }
}

// ---- Bash --------------------------------------------------------------------------------------

/** Programs whose prefix says nothing about what runs: `sudo:*` would allow every command. */
const WRAPPERS = new Set(['sudo', 'doas', 'env', 'bash', 'sh', 'zsh', 'dash', 'fish', 'eval', 'exec', 'xargs', 'nohup', 'time', 'timeout', 'nice', 'command', 'builtin', 'source', '.'])

/** Package runners whose second word is `run` and whose third names the script (`npm run lint`). */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun'])

/** A subcommand-like word: `test`, `status`, `run`, `compose`; not a flag, a path or a file name. */
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/

async function bashRules(command: string, split: BashSplitter): Promise<RuleValue[]> {
  let read: BashSplit
  try {
    read = await split(command)
  } catch {
    return [] // a splitter that fails reads nothing
  }
  // No rule allows a line the parser cannot read (the permission policy never does): none is suggested.
  if (!read.readable || read.commands.length === 0) return []
  return read.commands.map((simple) => {
    // A word the shell computes when it runs (`$X`, `*.ts`) is no subcommand: only literal words count.
    const literal = simple.argv.slice(0, firstComputed(simple.computed, simple.argv.length))
    const prefix = commandPrefix(literal)
    return prefix === undefined ? { toolName: 'Bash', ruleContent: simple.text.trim() } : { toolName: 'Bash', ruleContent: `${prefix}:*` }
  })
}

function firstComputed(computed: readonly number[], length: number): number {
  return computed.length === 0 ? length : Math.min(...computed)
}

/** `npm test` of `npm test -- --watch`; undefined when only the exact text is safe to allow. */
export function commandPrefix(argv: readonly string[]): string | undefined {
  const program = argv[0]
  if (program === undefined || program === '' || WRAPPERS.has(program) || program.includes('=') || !/^[\w./@+-]+$/.test(program)) return undefined
  const words = [program]
  if (argv[1] !== undefined && SUBCOMMAND.test(argv[1])) {
    words.push(argv[1])
    if (SCRIPT_RUNNERS.has(program) && argv[1] === 'run' && argv[2] !== undefined && SUBCOMMAND.test(argv[2])) words.push(argv[2])
  }
  return words.join(' ')
}

/**
 * A reader for when the shell parser cannot be used: a command made only of plain words (letters,
 * digits, `-_./:=@+,%`) and spaces is one simple command; anything else is not read.
 */
export function splitPlainWords(command: string): BashSplit {
  const text = command.trim()
  if (text === '' || !/^[\w\s./:=@+,%-]+$/.test(text) || /\n/.test(text)) return { readable: false, reason: 'not a plain word list' }
  return { readable: true, commands: [{ argv: text.split(/\s+/), computed: [], moreArgs: false, text, redirects: [] }] }
}

/**
 * Whether allow `rules` (a session grant) cover a call, with the permission policy's allow
 * semantics: for Bash, EVERY simple command of the line must match one of the rules' patterns
 * (`git status && rm x` is not covered by `Bash(git status:*)`), and a line the parser cannot read
 * (or before it is loaded) is covered only by a bare `Bash` rule. Other tools: one rule matches.
 */
export function rulesCover(rules: readonly string[], tool: string, args: Readonly<Record<string, unknown>>, context: PermissionRuleContext): boolean {
  if (tool !== 'Bash' || typeof args.command !== 'string') return rules.some((rule) => matchesPermissionRule(rule, tool, args as Record<string, unknown>, context))
  const specifiers: string[] = []
  for (const rule of rules) {
    const parsed = parsePermissionRule(rule)
    if (!parsed.ok || parsed.tool !== 'Bash') continue
    if (parsed.specifier === undefined) return true
    specifiers.push(parsed.specifier)
  }
  const split = splitBashCommandSync(args.command)
  if (!split.readable || split.commands.length === 0) return false
  return split.commands.every((part) => specifiers.some((specifier) => bashPatternMatches(specifier, part.text)))
}

/** Claude Code's `permission_suggestions`: one addRules entry, allow, for the workspace's local settings. */
export function permissionSuggestions(rules: readonly RuleValue[]): Array<{ type: 'addRules'; rules: RuleValue[]; behavior: 'allow'; destination: 'localSettings' }> {
  if (rules.length === 0) return []
  return [{ type: 'addRules', rules: rules.map((rule) => ({ ...rule })), behavior: 'allow', destination: 'localSettings' }]
}
