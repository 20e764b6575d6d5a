// Permission rules on a Bash call, part by part (the line split by hook-protocol's bash-command):
// a deny or ask rule that matches ANY part decides for the whole line; allow rules cover the line
// only when EVERY part is allowed, each by some rule. Read(...) and Edit(...) rules reach the files
// a part reads or writes. A line that cannot be read is never allowed by a rule.
import { posix } from 'node:path'
import { bashPatternMatches, parsePermissionRule, pathPatternMatcher, splitBashCommandSync, type PermissionRuleContext, type SimpleCommand } from '../hook-protocol/index'
import type { PreToolDecision } from '@seam/sdk'
import { fileAccess, type FileAccess } from './bash-files'
import type { RuleInForce } from './in-force'

export interface BashContext extends PermissionRuleContext {
  cwd: string
  /** The workspace and `additionalDirectories`: where accept-edits lets filesystem commands work. */
  roots: readonly string[]
  mode: string
  /** A slash command's `allowed-tools` for this turn. */
  commandAllows?: { command: string; rules: readonly string[] }
  where: (rule: RuleInForce) => string
  by: string
}

export type BashVerdict =
  | { kind: 'decided'; decision: PreToolDecision }
  /** No rule decided: the mode's default applies; `unreadable` is why no rule could allow the line. */
  | { kind: 'mode'; unreadable?: string }

/** What Claude Code's acceptEdits also runs without asking, when every path is inside the roots. */
export const ACCEPT_EDITS_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed'])

export function bashVerdict(command: string, rules: readonly RuleInForce[], context: BashContext): BashVerdict {
  // Nothing here would read the parts: leave the line to the mode, unparsed.
  if (!readsParts(rules, context)) return { kind: 'mode' }
  const split = splitBashCommandSync(command)
  const parts = split.readable ? split.commands : undefined
  const located = parts ? locate(parts, context.cwd, context.home) : undefined
  for (const behavior of ['deny', 'ask'] as const) {
    const action = behavior
    for (const rule of rules) {
      if (rule.behavior !== behavior) continue
      const hit = refusalMatch(rule.rule, command, located, context)
      if (hit === undefined) continue
      const what = behavior === 'deny' ? `the permission policy denies calls matching "${rule.rule}"` : `calls matching "${rule.rule}" ask first`
      return { kind: 'decided', decision: { action, reason: `${what}${context.where(rule)}${hit}`, by: context.by } }
    }
  }
  if (!split.readable) {
    const why = `cannot read the command: ${split.reason}`
    // A deny or ask rule might be hiding in what cannot be read: ask, whatever the mode.
    const guarded = rules.find((r) => r.behavior !== 'allow' && limitsBash(r.rule))
    if (guarded) return { kind: 'decided', decision: { action: 'ask', reason: `${why} (so the rule "${guarded.rule}"${context.where(guarded)} cannot be checked)`, by: context.by } }
    return { kind: 'mode', unreadable: why }
  }
  const unknownFile = located!.find((p) => p.unknown !== undefined)
  if (unknownFile) {
    const fileRule = rules.find((r) => r.behavior !== 'allow' && isPathRule(r.rule))
    if (fileRule) {
      const reason = `cannot tell which files \`${unknownFile.part.text}\` reads or writes (${unknownFile.unknown}), so the rule "${fileRule.rule}"${context.where(fileRule)} cannot be checked`
      return { kind: 'decided', decision: { action: 'ask', reason, by: context.by } }
    }
  }
  const allowed = allowedBy(located!, rules, context)
  if (allowed) return { kind: 'decided', decision: { action: 'allow', reason: allowed, by: context.by } }
  if (context.mode === 'accept-edits' && located!.length > 0 && located!.every((p) => acceptsEdit(p, context.roots))) {
    return { kind: 'decided', decision: { action: 'allow', reason: 'filesystem commands inside the workspace run without asking (mode "accept-edits")', by: context.by } }
  }
  return { kind: 'mode' }
}

/** A part with the directories it may run in (after `cd`s) and its files. */
interface LocatedPart {
  part: SimpleCommand
  /** Directories relative paths may resolve against; empty when a `cd` went somewhere unknown. */
  cwds: string[]
  reads: string[]
  writes: string[]
  /** The same files resolved against each of `cwds` (and `~` expanded), what rules are matched against. */
  absolute: { reads: string[]; writes: string[] }
  unknown?: string
}

/**
 * Follows `cd`: a part's relative paths resolve against the call's cwd and every directory an
 * earlier `cd` in the line went to (subshells and pipelines make the order a guess, so all count).
 */
function locate(parts: readonly SimpleCommand[], cwd: string, home: string | undefined): LocatedPart[] {
  const cwds = [cwd]
  let lost: string | undefined
  return parts.map((part) => {
    const access = filesOf(part)
    const here = lost ? [] : cwds.slice()
    const resolve = (files: string[]) => files.flatMap((file) => here.map((dir) => posix.resolve(dir, expandHome(file, home))))
    const absolute = { reads: resolve(access.reads), writes: resolve(access.writes) }
    const located: LocatedPart = { part, cwds: here, reads: access.reads, writes: access.writes, absolute, ...(access.unknown !== undefined ? { unknown: access.unknown } : {}) }
    const relative = [...access.reads, ...access.writes].find((p) => !posix.isAbsolute(p) && !p.startsWith('~'))
    if (lost && relative !== undefined) located.unknown ??= `${relative} after ${lost}`
    if (part.argv[0] === 'cd' || part.argv[0] === 'pushd') {
      const target = part.argv[1]
      if (target === undefined || part.computed.includes(1) || target === '-' || target.startsWith('~')) lost = `\`${part.text}\``
      else cwds.push(posix.resolve(cwds[cwds.length - 1], target))
    }
    return located
  })
}

/** The files a part reads and writes, and those of what it runs seen through (`sudo cat x` reads `x`). */
function filesOf(part: SimpleCommand): FileAccess {
  const own = fileAccess(part)
  if (!part.alternatives) return own
  const all = [own, ...part.alternatives.map((a) => fileAccess(a))]
  const unknown = all.find((a) => a.unknown !== undefined)?.unknown
  return {
    reads: [...new Set(all.flatMap((a) => a.reads))],
    writes: [...new Set(all.flatMap((a) => a.writes))],
    ...(unknown !== undefined ? { unknown } : {})
  }
}

/** Why a deny/ask rule matches the line (`""` for a plain command match), or undefined. */
function refusalMatch(rule: string, command: string, parts: readonly LocatedPart[] | undefined, context: BashContext): string | undefined {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok) return undefined
  if (parsed.tool === 'Bash') {
    if (parsed.specifier === undefined || bashPatternMatches(parsed.specifier, command)) return ''
    // Deny and ask rules also see what a part runs: `/bin/rm x`, `sudo rm x` and `"rm" x` are `rm x`.
    const texts = (part: SimpleCommand) => [part.text, ...(part.alternatives ?? []).map((a) => a.text)]
    return parts?.some((p) => texts(p.part).some((text) => bashPatternMatches(parsed.specifier!, text))) ? '' : undefined
  }
  if (parsed.specifier === undefined || !parts) return undefined
  const kind = parsed.tool === 'Read' ? 'reads' : parsed.tool === 'Edit' || parsed.tool === 'Write' ? 'writes' : undefined
  if (!kind) return undefined
  // Files resolve against where the part runs; the rule's own pattern against the call's cwd.
  const covers = pathPatternMatcher(parsed.specifier, context)
  for (const located of parts) {
    const hit = located.absolute[kind].find(covers)
    if (hit !== undefined) return `: \`${located.part.text}\` ${kind} ${hit}`
  }
  return undefined
}

/** The reason every part is allowed, each by some allow rule, or undefined. */
function allowedBy(parts: readonly LocatedPart[], rules: readonly RuleInForce[], context: BashContext): string | undefined {
  if (parts.length === 0) return undefined
  const used: string[] = []
  for (const located of parts) {
    // A part that writes outside the workspace through a redirection is not what a command rule allows.
    if (located.part.redirects.some((r) => r.op !== '<' && r.target !== '/dev/null' && !insideRoots(r.target, located.cwds, context.roots))) return undefined
    const commandRule = context.commandAllows?.rules.find((rule) => coversPart(rule, located.part))
    if (commandRule !== undefined) {
      used.push(`${context.commandAllows!.command}'s allowed-tools "${commandRule}"`)
      continue
    }
    const rule = rules.find((r) => r.behavior === 'allow' && coversPart(r.rule, located.part))
    if (!rule) return undefined
    used.push(`the rule "${rule.rule}"${context.where(rule)}`)
  }
  const distinct = [...new Set(used)]
  return `allowed by ${distinct.join(' and ')}`
}

function coversPart(rule: string, part: SimpleCommand): boolean {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok || parsed.tool !== 'Bash') return false
  return parsed.specifier === undefined || bashPatternMatches(parsed.specifier, part.text)
}

function acceptsEdit(located: LocatedPart, roots: readonly string[]): boolean {
  const name = located.part.argv[0]
  if (name === 'cd') return located.part.computed.length === 0 && located.part.argv.slice(1).every((dir) => insideRoots(dir, located.cwds, roots))
  if (!ACCEPT_EDITS_COMMANDS.has(name) || located.unknown !== undefined || located.part.computed.length > 0) return false
  const files = [...located.reads, ...located.writes]
  return files.length > 0 && files.every((file) => insideRoots(file, located.cwds, roots))
}

function insideRoots(file: string, cwds: readonly string[], roots: readonly string[]): boolean {
  if (file.startsWith('~') || cwds.length === 0) return false
  return cwds.every((cwd) => {
    const absolute = posix.resolve(cwd, file)
    return roots.some((root) => absolute === root || absolute.startsWith(root.endsWith('/') ? root : `${root}/`))
  })
}

function expandHome(file: string, home: string | undefined): string {
  if (home && (file === '~' || file.startsWith('~/'))) return posix.join(home, file.slice(1))
  return file
}

/** Whether some rule in force (or the mode) judges a Bash line by its parts. */
function readsParts(rules: readonly RuleInForce[], context: BashContext): boolean {
  if (context.mode === 'accept-edits') return true
  const isBash = (rule: string) => {
    const parsed = parsePermissionRule(rule)
    return parsed.ok && parsed.tool === 'Bash'
  }
  return rules.some((r) => isBash(r.rule) || (r.behavior !== 'allow' && isPathRule(r.rule))) || (context.commandAllows?.rules.some(isBash) ?? false)
}

/** A deny/ask rule that could refuse some Bash line: a Bash pattern or a file rule. */
function limitsBash(rule: string): boolean {
  const parsed = parsePermissionRule(rule)
  return parsed.ok && ((parsed.tool === 'Bash' && parsed.specifier !== undefined) || isPathRule(rule))
}

function isPathRule(rule: string): boolean {
  const parsed = parsePermissionRule(rule)
  return parsed.ok && parsed.specifier !== undefined && (parsed.tool === 'Read' || parsed.tool === 'Edit' || parsed.tool === 'Write')
}
