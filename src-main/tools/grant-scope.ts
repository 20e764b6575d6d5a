// What "Allow for this session" grants (S11): exactly what the dialog showed, never more.
//   Bash            -> the exact command          `Bash commands exactly "git status"`
//   file tools      -> the exact file path        `Edit on the file exactly "/w/src/a.ts"`
//   any other tool  -> the exact arguments        `WebFetch calls with exactly {"url":"..."}`
// Scopes made here match by exact equality, even when a value ends with `*`. A scope supplied by
// a caller (a bridge) follows GrantScope's documented pattern: exact, or a trailing-`*` prefix.
import type { GrantScope, JsonObject, JsonValue } from '../../src-shared/host/tools'

type ArgsMatcher = (args: Readonly<JsonObject>) => boolean

/** Matchers of the scopes made by scopeFor; other scopes fall back to their pattern. */
const exactMatchers = new WeakMap<GrantScope, ArgsMatcher>()

/** Arguments that name the one file a file tool touches. */
const FILE_ARGUMENTS = ['file_path', 'notebook_path'] as const

export function scopeFor(tool: string, args: Readonly<JsonObject>): GrantScope {
  let scope: GrantScope
  let matches: ArgsMatcher
  const command = args.command
  const fileArgument = FILE_ARGUMENTS.find((name) => typeof args[name] === 'string')
  if (tool === 'Bash' && typeof command === 'string') {
    scope = { tool, pattern: { command }, description: `Bash commands exactly ${JSON.stringify(command)}` }
    matches = (other) => other.command === command
  } else if (fileArgument !== undefined) {
    const file = args[fileArgument] as string
    scope = { tool, pattern: { [fileArgument]: file }, description: `${tool} on the file exactly ${JSON.stringify(file)}` }
    matches = (other) => other[fileArgument] === file
  } else {
    const exact = canonicalJson(args)
    const pattern: Record<string, string> = {}
    for (const key of Object.keys(args).sort()) pattern[key] = canonicalJson(args[key])
    scope = { tool, pattern, description: `${tool} calls with exactly ${preview(exact)}` }
    matches = (other) => canonicalJson(other) === exact
  }
  Object.freeze(scope.pattern)
  Object.freeze(scope)
  exactMatchers.set(scope, matches)
  return scope
}

/** How a scope decides whether a later call of its tool is covered. */
export function scopeMatcher(scope: GrantScope): ArgsMatcher {
  const exact = exactMatchers.get(scope)
  if (exact) return exact
  const entries = Object.entries(scope.pattern)
  return (args) => entries.every(([name, pattern]) => patternMatches(pattern, args[name]))
}

/** GrantScope.pattern semantics: a string argument compares as is, any other value as JSON. */
function patternMatches(pattern: string, value: JsonValue | undefined): boolean {
  if (value === undefined) return false
  const text = typeof value === 'string' ? value : canonicalJson(value)
  return pattern.endsWith('*') ? text.startsWith(pattern.slice(0, -1)) : text === pattern
}

/** JSON with object keys sorted, so equal values have equal text. */
export function canonicalJson(value: JsonValue | Readonly<JsonObject>): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map((item: JsonValue) => canonicalJson(item)).join(',')}]`
  const object = value as Readonly<JsonObject>
  const keys = Object.keys(object).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`
}

function preview(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}
