// Matcher rules of both protocols, and the per-event value a matcher is tested against.
//
// Claude Code (claude-code-hooks.md §2.3): omitted, "" or "*" match all; a matcher made only of
// letters, digits, `_`, spaces, `,` and `|` is a list of exact, case-sensitive names (split on
// `|` and `,`, items trimmed, empty items ignored); anything else is a JavaScript regular
// expression searched anywhere in the target. Codex (codex-hooks.md §2.2): the same two modes,
// but the name list allows only letters, digits, `_` and `|`, and regexes follow Rust syntax.

export type MatcherProtocol = 'claude' | 'codex'

export type CompiledMatcher =
  | { ok: true; mode: 'all' | 'names' | 'regex'; test: (target: string) => boolean }
  | { ok: false; error: string; test: (target: string) => boolean }

/** Called when a matcher cannot be compiled (it then matches nothing). */
export type MatcherErrorReport = (matcher: string, error: string) => void

const CLAUDE_NAME_LIST = /^[A-Za-z0-9_ ,|]*$/
const CODEX_NAME_LIST = /^[A-Za-z0-9_|]*$/

const cache: Record<MatcherProtocol, Map<string, CompiledMatcher>> = { claude: new Map(), codex: new Map() }
const MAX_CACHED = 500

export function compileMatcher(protocol: MatcherProtocol, matcher: string | undefined): CompiledMatcher {
  if (matcher === undefined || matcher === '' || matcher === '*') return MATCH_ALL
  const known = cache[protocol].get(matcher)
  if (known) return known
  const compiled = protocol === 'claude' ? compileClaude(matcher) : compileCodex(matcher)
  if (cache[protocol].size >= MAX_CACHED) cache[protocol].clear()
  cache[protocol].set(matcher, compiled)
  return compiled
}

/** The error text for a matcher that cannot be compiled, else `undefined`. For config loaders. */
export function matcherError(protocol: MatcherProtocol, matcher: string | undefined): string | undefined {
  const compiled = compileMatcher(protocol, matcher)
  return compiled.ok ? undefined : compiled.error
}

export function matchesClaude(matcher: string | undefined, target: string, report?: MatcherErrorReport): boolean {
  return matchWith('claude', matcher, [target], report)
}

/** `targets`: the value and its aliases (see `codexMatchTargets`); true when any of them matches. */
export function matchesCodex(matcher: string | undefined, targets: string | readonly string[], report?: MatcherErrorReport): boolean {
  return matchWith('codex', matcher, typeof targets === 'string' ? [targets] : targets, report)
}

function matchWith(protocol: MatcherProtocol, matcher: string | undefined, targets: readonly string[], report?: MatcherErrorReport): boolean {
  const compiled = compileMatcher(protocol, matcher)
  if (!compiled.ok) {
    report?.(matcher ?? '', compiled.error)
    return false
  }
  return targets.some(compiled.test)
}

const MATCH_ALL: CompiledMatcher = { ok: true, mode: 'all', test: () => true }

function nameList(matcher: string, separators: RegExp): CompiledMatcher {
  const names = new Set(
    matcher
      .split(separators)
      .map((name) => name.trim())
      .filter((name) => name !== '')
  )
  return { ok: true, mode: 'names', test: (target) => names.has(target) }
}

function compileClaude(matcher: string): CompiledMatcher {
  if (CLAUDE_NAME_LIST.test(matcher)) return nameList(matcher, /[|,]/)
  return regexMatcher(matcher, '')
}

function compileCodex(matcher: string): CompiledMatcher {
  if (CODEX_NAME_LIST.test(matcher)) return nameList(matcher, /\|/)
  // Rust's `regex` crate has no look-around and no backreferences: reject them as Codex would.
  if (/\(\?<?[=!]/.test(matcher) || /\\[1-9]/.test(matcher)) {
    return invalid(`unsupported regex feature in matcher ${JSON.stringify(matcher)} (look-around and backreferences are not Rust regex syntax)`)
  }
  // A leading inline flag group such as `(?i)` is Rust syntax; JavaScript takes flags separately.
  const inline = /^\(\?([ims]+)\)/.exec(matcher)
  if (inline) return regexMatcher(matcher.slice(inline[0].length), [...new Set(inline[1])].join(''))
  return regexMatcher(matcher, '')
}

function regexMatcher(source: string, flags: string): CompiledMatcher {
  try {
    const regex = new RegExp(source, flags)
    return { ok: true, mode: 'regex', test: (target) => regex.test(target) }
  } catch (error) {
    return invalid(`invalid matcher regex ${JSON.stringify(source)}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function invalid(error: string): CompiledMatcher {
  return { ok: false, error, test: () => false }
}
