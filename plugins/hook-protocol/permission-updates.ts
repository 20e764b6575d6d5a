// A PermissionRequest hook's `updatedPermissions` (Claude Code's PermissionUpdate list): rules to
// add, remove or replace, the mode to set, directories to add or remove, each with its destination
// (the session, or a settings file). Every entry and every rule is checked before anything is
// applied: one malformed entry makes the whole list invalid, with the field named
// (`updatedPermissions[0].rules[1].ruleContent: …`), so nothing is written.
import { z } from 'zod'
import type { PermissionUpdate, RuleDestination } from '@seam/sdk'
import { parsePermissionRule } from './permission-rule'
import { ruleText } from './rule-suggestions'

export type RuleUpdateDestination = RuleDestination
export type RuleUpdate = PermissionUpdate

const RuleValue = z.object({ toolName: z.string().min(1), ruleContent: z.string().optional() })
const Destination = z.enum(['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg'])
const Behavior = z.enum(['allow', 'deny', 'ask'])
const Entry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('addRules'), rules: z.array(RuleValue).min(1), behavior: Behavior, destination: Destination }),
  z.object({ type: z.literal('removeRules'), rules: z.array(RuleValue).min(1), behavior: Behavior, destination: Destination }),
  // An empty list clears the behavior's rules at the destination.
  z.object({ type: z.literal('replaceRules'), rules: z.array(RuleValue), behavior: Behavior, destination: Destination }),
  z.object({ type: z.literal('setMode'), mode: z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk']), destination: Destination }),
  z.object({ type: z.literal('addDirectories'), directories: z.array(z.string().min(1)).min(1), destination: Destination }),
  z.object({ type: z.literal('removeDirectories'), directories: z.array(z.string().min(1)).min(1), destination: Destination })
])
const TYPES = ['addRules', 'replaceRules', 'removeRules', 'setMode', 'addDirectories', 'removeDirectories']

export type ParsedUpdates = { ok: true; updates: PermissionUpdate[] } | { ok: false; problem: string }

export function parsePermissionUpdates(value: unknown, where = 'updatedPermissions'): ParsedUpdates {
  if (!Array.isArray(value)) return { ok: false, problem: `${where}: expected a list, got ${describe(value)}` }
  const updates: PermissionUpdate[] = []
  for (const [index, entry] of value.entries()) {
    const at = `${where}[${index}]`
    const type = (entry as { type?: unknown } | null)?.type
    if (typeof type !== 'string' || !TYPES.includes(type)) return { ok: false, problem: `${at}.type: expected one of ${TYPES.join(', ')}, got ${describe(type)}` }
    const parsed = Entry.safeParse(entry)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return { ok: false, problem: `${[at, ...(issue?.path ?? []).map(String)].join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]')}: ${issue?.message ?? 'invalid'}` }
    }
    const data = parsed.data
    // `cliArg` lasts as long as the run: in Seam, the session.
    const destination = data.destination === 'cliArg' ? 'session' : data.destination
    if (data.type === 'setMode') {
      updates.push({ type: 'setMode', mode: data.mode, destination })
    } else if (data.type === 'addDirectories' || data.type === 'removeDirectories') {
      updates.push({ type: data.type, directories: [...data.directories], destination })
    } else {
      const rules: string[] = []
      for (const [ruleIndex, rule] of data.rules.entries()) {
        const text = ruleText(rule)
        const problem = ruleProblem(text)
        if (problem !== undefined) return { ok: false, problem: `${at}.rules[${ruleIndex}]: ${problem}` }
        rules.push(text)
      }
      updates.push({ ...(data.type === 'addRules' ? {} : { type: data.type }), behavior: data.behavior, rules, destination })
    }
  }
  return { ok: true, updates }
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
