// A PermissionRequest hook's `updatedPermissions` (Claude Code's PermissionUpdate list): the
// `addRules` entries become rules to add, every rule checked before anything is applied. One
// malformed entry or rule makes the whole list invalid, with the field named
// (`updatedPermissions[0].rules[1].ruleContent: …`), so nothing is written. Entries of the other
// kinds (`setMode`, `addDirectories`, `replaceRules`, `removeRules`, …) are well-formed but not
// applied by Seam: they are listed in `ignored`.
import { z } from 'zod'
import { parsePermissionRule } from './permission-rule'
import { ruleText } from './rule-suggestions'

export type RuleUpdateDestination = 'session' | 'localSettings' | 'projectSettings' | 'userSettings'

export interface RuleUpdate {
  behavior: 'allow' | 'deny' | 'ask'
  rules: string[]
  destination: RuleUpdateDestination
}

const RuleValue = z.object({ toolName: z.string().min(1), ruleContent: z.string().optional() })
const Destination = z.enum(['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg'])
const AddRules = z.object({
  type: z.literal('addRules'),
  rules: z.array(RuleValue).min(1),
  behavior: z.enum(['allow', 'deny', 'ask']),
  destination: Destination
})
const OTHER_TYPES = ['replaceRules', 'removeRules', 'setMode', 'addDirectories', 'removeDirectories'] as const
const Other = z.object({ type: z.enum(OTHER_TYPES) })

export type ParsedUpdates = { ok: true; updates: RuleUpdate[]; ignored: string[] } | { ok: false; problem: string }

export function parsePermissionUpdates(value: unknown, where = 'updatedPermissions'): ParsedUpdates {
  if (!Array.isArray(value)) return { ok: false, problem: `${where}: expected a list, got ${describe(value)}` }
  const updates: RuleUpdate[] = []
  const ignored: string[] = []
  for (const [index, entry] of value.entries()) {
    const at = `${where}[${index}]`
    const type = (entry as { type?: unknown } | null)?.type
    if (type !== 'addRules') {
      const other = Other.safeParse(entry)
      if (!other.success) return { ok: false, problem: `${at}.type: expected one of addRules, ${OTHER_TYPES.join(', ')}, got ${describe(type)}` }
      ignored.push(`${at} (${other.data.type})`)
      continue
    }
    const parsed = AddRules.safeParse(entry)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return { ok: false, problem: `${[at, ...(issue?.path ?? []).map(String)].join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]')}: ${issue?.message ?? 'invalid'}` }
    }
    const rules: string[] = []
    for (const [ruleIndex, rule] of parsed.data.rules.entries()) {
      const text = ruleText(rule)
      const problem = ruleProblem(text)
      if (problem !== undefined) return { ok: false, problem: `${at}.rules[${ruleIndex}]: ${problem}` }
      rules.push(text)
    }
    // `cliArg` rules last as long as the run: in Seam, the session.
    const destination = parsed.data.destination === 'cliArg' ? 'session' : parsed.data.destination
    updates.push({ behavior: parsed.data.behavior, rules, destination })
  }
  return { ok: true, updates, ignored }
}

/** Why a rule text is not a Claude Code permission rule (the shape, and a tool name Claude Code accepts). */
function ruleProblem(rule: string): string | undefined {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok) return parsed.error
  if (!parsed.tool.startsWith('mcp__') && !/^[A-Z]/.test(parsed.tool)) return `invalid permission rule ${JSON.stringify(rule)}: tool names start with an uppercase letter (or are mcp__server__tool)`
  return undefined
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  return JSON.stringify(value) ?? String(value)
}
