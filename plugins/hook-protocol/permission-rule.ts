// Claude Code permission-rule patterns, used by a handler's `if` filter (claude-code-hooks.md
// §2.2): `Bash` matches every Bash call, `Bash(git *)` globs the command, `Edit(src/**)` globs the
// file path, `WebFetch(domain:example.com)` checks the URL's host.
//
// A Bash pattern is matched against each simple command of the line (`bash-command/`), so
// `Bash(git push *)` matches `npm test && git push`; the permission policy builds its
// any-part/every-part rules from `bashPatternMatches` and `pathPatternMatches`.
import { posix } from 'node:path'
import { splitBashCommandSync } from './bash-command/index'

export interface PermissionRuleContext {
  /** Directory relative patterns (`src/**`, `./x`) resolve against; the session's cwd. */
  cwd?: string
  /** Directory `/x` patterns resolve against (Claude: the settings file's project); default `cwd`. */
  projectDir?: string
  /** For `~/x` patterns. */
  home?: string
}

export type ParsedPermissionRule = { ok: true; tool: string; specifier?: string } | { ok: false; error: string }

/** Parsed rules by text: policies match the same few rules on every call. Bounded; cleared when full. */
const parsedCache = new Map<string, ParsedPermissionRule>()
const PARSED_CACHE_LIMIT = 2_000

export function parsePermissionRule(rule: string): ParsedPermissionRule {
  let parsed = parsedCache.get(rule)
  if (parsed === undefined) {
    if (parsedCache.size >= PARSED_CACHE_LIMIT) parsedCache.clear()
    parsed = Object.freeze(parseRule(rule))
    parsedCache.set(rule, parsed)
  }
  return parsed
}

function parseRule(rule: string): ParsedPermissionRule {
  const text = rule.trim()
  const match = /^([^()\s]+)(?:\(([\s\S]*)\))?$/.exec(text)
  if (!match) return { ok: false, error: `invalid permission rule ${JSON.stringify(rule)}: expected Tool or Tool(specifier)` }
  const specifier = match[2]?.trim()
  return specifier === undefined || specifier === '' || specifier === '*' ? { ok: true, tool: match[1] } : { ok: true, tool: match[1], specifier }
}

/**
 * Whether a tool call matches `rule` (the hook `if` filter). A malformed rule matches nothing. A
 * Bash pattern matches when the whole line or any of its simple commands matches it (also as seen
 * through `sudo` and an absolute command path: `SimpleCommand.alternatives`), and always when the
 * line cannot be read (the filter must not let a command slip past the hook it guards).
 */
export function matchesPermissionRule(rule: string, toolName: string, toolInput: Record<string, unknown>, context: PermissionRuleContext = {}): boolean {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok || !toolMatches(parsed.tool, toolName)) return false
  if (parsed.specifier === undefined) return true
  return specifierMatches(parsed.specifier, toolName, toolInput, context)
}

/** Edit rules cover every built-in file-editing tool (as Claude Code's permission rules do). */
const EDIT_FAMILY = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])

function toolMatches(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true
  if (ruleTool === 'Edit' && EDIT_FAMILY.has(toolName)) return true
  // `mcp__server` and `mcp__server__*` cover every tool of that server.
  const server = /^mcp__([^_]+(?:_[^_]+)*)(?:__\*)?$/.exec(ruleTool)
  return server !== null && toolName.startsWith(`mcp__${server[1]}__`)
}

function specifierMatches(specifier: string, toolName: string, input: Record<string, unknown>, context: PermissionRuleContext): boolean {
  switch (toolName) {
    case 'Bash':
      return bashLineMatches(specifier, str(input.command))
    case 'Read':
    case 'Edit':
    case 'Write':
    case 'MultiEdit':
      return pathMatches(specifier, str(input.file_path), context)
    case 'NotebookEdit':
      return pathMatches(specifier, str(input.notebook_path), context)
    case 'Glob':
    case 'Grep':
      return pathMatches(specifier, str(input.path) || context.cwd || '', context)
    case 'WebFetch':
      return urlMatches(specifier, str(input.url))
    case 'Agent':
    case 'Task':
      return str(input.subagent_type) === specifier
    default:
      // Tools without a known argument: glob a `command` argument when there is one.
      return typeof input.command === 'string' && commandMatches(specifier, input.command)
  }
}

function bashLineMatches(specifier: string, command: string): boolean {
  if (commandMatches(specifier, command)) return true
  const split = splitBashCommandSync(command)
  // As deny and ask rules, the filter also sees what a part runs: `/bin/rm x`, `sudo rm x`.
  return !split.readable || split.commands.some((part) => commandMatches(specifier, part.text) || (part.alternatives?.some((a) => commandMatches(specifier, a.text)) ?? false))
}

/** Whether a Bash rule's specifier matches one command's text (a part of a line, wrappers stripped). */
export function bashPatternMatches(specifier: string, text: string): boolean {
  return commandMatches(specifier, text)
}

/** Whether a path rule's specifier (`Read(./x)`, `Edit(src/**)`) covers `filePath`, resolved against `context.cwd`. */
export function pathPatternMatches(specifier: string, filePath: string, context: PermissionRuleContext): boolean {
  return pathMatches(specifier, filePath, context)
}

/** The same as a function of the path, compiled once: for testing many paths against one rule. */
export function pathPatternMatcher(specifier: string, context: PermissionRuleContext): (filePath: string) => boolean {
  const compiled = compiledPathRule(specifier, context)
  if (compiled === null) return () => false
  return (filePath) => {
    if (filePath === '') return false
    if (compiled.anyTail) return compiled.regex.test(filePath)
    return compiled.regex.test(NORMAL_ABSOLUTE.test(filePath) ? filePath : posix.resolve(context.cwd ?? '/', filePath))
  }
}

/** `git *` globs (a trailing ` *` also matches the bare word); legacy `npm test:*` is a word prefix. */
function commandMatches(specifier: string, command: string): boolean {
  const cmd = command.trim()
  if (specifier.endsWith(':*')) {
    const prefix = specifier.slice(0, -2)
    return cmd === prefix || (cmd.startsWith(prefix) && /\s/.test(cmd.charAt(prefix.length)))
  }
  let regex = commandRegexCache.get(specifier)
  if (regex === undefined) {
    const trailing = specifier.endsWith(' *')
    const body = trailing ? specifier.slice(0, -2) : specifier
    const pattern = body.split('*').map(escapeRegex).join('[\\s\\S]*') + (trailing ? '(?:\\s[\\s\\S]*)?' : '')
    if (commandRegexCache.size >= PARSED_CACHE_LIMIT) commandRegexCache.clear()
    commandRegexCache.set(specifier, (regex = new RegExp(`^${pattern}$`)))
  }
  return regex.test(cmd)
}

const commandRegexCache = new Map<string, RegExp>()

function urlMatches(specifier: string, url: string): boolean {
  if (!specifier.startsWith('domain:')) return new RegExp(`^${specifier.split('*').map(escapeRegex).join('.*')}$`).test(url)
  const domain = specifier.slice('domain:'.length).toLowerCase()
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return false // not a URL: nothing to compare the domain with
  }
  return host === domain || host.endsWith(`.${domain}`)
}

/**
 * gitignore-style path patterns: `//abs` absolute, `~/x` home, `/x` project-relative, `./x` and
 * `dir/x` cwd-relative, a pattern without `/` (`*.ts`) matches at any depth. `*` stays within a
 * path segment, `**` crosses them, `dir/` means everything below `dir`.
 */
function pathMatches(specifier: string, filePath: string, context: PermissionRuleContext): boolean {
  if (filePath === '') return false
  return pathPatternMatcher(specifier, context)(filePath)
}

/** The compiled pattern depends only on the specifier and the directories it resolves against. */
function compiledPathRule(specifier: string, context: PermissionRuleContext): { regex: RegExp; anyTail: boolean } | null {
  const key = `${specifier}\0${context.cwd ?? ''}\0${context.projectDir ?? ''}\0${context.home ?? ''}`
  let compiled = compiledPathRules.get(key)
  if (compiled === undefined) {
    compiled = compilePathRule(specifier, context)
    if (compiledPathRules.size >= PARSED_CACHE_LIMIT) compiledPathRules.clear()
    compiledPathRules.set(key, compiled)
  }
  return compiled
}

/** An absolute path with nothing for `resolve` to do (no `.`/`..` segments, no `//`, no trailing `/`). */
const NORMAL_ABSOLUTE = /^\/(?!.*(?:\/\/|\/\.\.?(?:\/|$)|\/$))/

const compiledPathRules = new Map<string, { regex: RegExp; anyTail: boolean } | null>()

function compilePathRule(specifier: string, context: PermissionRuleContext): { regex: RegExp; anyTail: boolean } | null {
  let pattern = specifier.endsWith('/') ? `${specifier}**` : specifier
  let anchored = true // false: relative pattern, resolved against `base`
  let base: string | undefined
  if (pattern.startsWith('//')) pattern = pattern.slice(1)
  else if (pattern.startsWith('~/')) {
    if (!context.home) return null
    pattern = posix.join(context.home, pattern.slice(2))
  } else if (pattern.startsWith('/')) {
    anchored = false
    base = context.projectDir ?? context.cwd
  } else {
    if (pattern.startsWith('./')) pattern = pattern.slice(2)
    else if (!pattern.includes('/')) pattern = `**/${pattern}`
    anchored = false
    base = context.cwd
  }
  if (!anchored && base === undefined) {
    // No directory to anchor to: match the pattern against any tail of the path.
    return { regex: new RegExp(`(?:^|/)${globToRegex(pattern.replace(/^\/+/, ''))}$`), anyTail: true }
  }
  const absolutePattern = base !== undefined ? posix.join(base, pattern) : pattern
  return { regex: new RegExp(`^${globToRegex(absolutePattern)}$`), anyTail: false }
}

function globToRegex(glob: string): string {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/'
      out += slashAfter ? '(?:.*/)?' : '.*'
      i += slashAfter ? 2 : 1
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else out += escapeRegex(c)
  }
  return out
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
