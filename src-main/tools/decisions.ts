// S2: each waterfall of the tool pipeline returns its own Decision union. A value outside the
// union is a listener failure, never a silent allow. These checks run on every call, so they
// are plain comparisons rather than schema parses.
import { describeValue } from './normalize'

/** Returns a problem in words, or undefined when `value` is a PreToolDecision. */
export function preDecisionProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `returned ${describeValue(value)}, not a PreToolDecision`
  switch (value.action) {
    case 'allow':
      return optionalString(value, 'reason') ?? optionalString(value, 'by') ?? optionalBoolean(value, 'answersAsk')
    case 'deny':
      return requiredString(value, 'reason') ?? optionalString(value, 'by') ?? optionalString(value, 'modelText')
    case 'ask':
      return requiredString(value, 'reason') ?? optionalString(value, 'by')
    default:
      return `returned action ${describeValue(value.action)}, not one of allow, deny, ask`
  }
}

export function rewriteDecisionProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `returned ${describeValue(value)}, not a RewriteDecision`
  switch (value.action) {
    case 'keep':
      return undefined
    case 'rewrite':
      if (!isRecord(value.args)) return `returned a rewrite whose args is ${describeValue(value.args)}, not an object`
      return requiredString(value, 'by') ?? optionalString(value, 'reason') ?? optionalString(value, 'invalidText')
    default:
      return `returned action ${describeValue(value.action)}, not one of keep, rewrite`
  }
}

export function postDecisionProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `returned ${describeValue(value)}, not a PostToolDecision`
  switch (value.action) {
    case 'accept':
      return optionalString(value, 'content') ?? contextProblem(value.additionalContext)
    case 'block':
      return requiredString(value, 'feedback') ?? optionalString(value, 'content') ?? contextProblem(value.additionalContext)
    default:
      return `returned action ${describeValue(value.action)}, not one of accept, block`
  }
}

export function permissionRequestProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `returned ${describeValue(value)}, not a PermissionRequestDecision`
  switch (value.action) {
    case 'ask':
      return undefined
    case 'allow':
      if (value.updatedArgs !== undefined && !isRecord(value.updatedArgs)) return `returned updatedArgs: ${describeValue(value.updatedArgs)} where an object or nothing is allowed`
      return requiredString(value, 'by') ?? optionalString(value, 'reason') ?? optionalString(value, 'invalidText') ?? ruleUpdatesProblem(value.updatedPermissions)
    case 'deny':
      return requiredString(value, 'by') ?? requiredString(value, 'reason')
    default:
      return `returned action ${describeValue(value.action)}, not one of ask, allow, deny`
  }
}

const BEHAVIORS = new Set(['allow', 'deny', 'ask'])
const DESTINATIONS = new Set(['session', 'localSettings', 'projectSettings', 'userSettings'])
const MODES = new Set(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'])
const RULE_TYPES = new Set([undefined, 'addRules', 'removeRules', 'replaceRules'])

/** A listener's `updatedPermissions`: a list of PermissionUpdate (rules, a mode or directories, each with a destination). */
function ruleUpdatesProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) return `returned updatedPermissions: ${describeValue(value)} where a list or nothing is allowed`
  for (const [index, update] of value.entries()) {
    const at = `returned updatedPermissions[${index}]`
    if (!isRecord(update) || !DESTINATIONS.has(update.destination as string)) return `${at}: ${describeValue(update)}, not a permission update with a destination`
    if (update.type === 'setMode') {
      if (!MODES.has(update.mode as string)) return `${at}.mode: ${describeValue(update.mode)}, not one of ${[...MODES].join(', ')}`
    } else if (update.type === 'addDirectories' || update.type === 'removeDirectories') {
      if (!Array.isArray(update.directories) || !update.directories.every((dir) => typeof dir === 'string')) return `${at}.directories that is not a list of strings`
    } else {
      if (!RULE_TYPES.has(update.type as string | undefined) || !BEHAVIORS.has(update.behavior as string)) return `${at}: ${describeValue(update)}, not {type?, behavior, rules, destination}`
      if (!Array.isArray(update.rules) || !update.rules.every((rule) => typeof rule === 'string')) return `${at}.rules that is not a list of strings`
    }
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function requiredString(value: Record<string, unknown>, field: string): string | undefined {
  const item = value[field]
  return typeof item === 'string' ? undefined : `returned ${field}: ${describeValue(item)} where a string is required`
}

function optionalString(value: Record<string, unknown>, field: string): string | undefined {
  const item = value[field]
  return item === undefined || typeof item === 'string' ? undefined : `returned ${field}: ${describeValue(item)} where a string or nothing is allowed`
}

function optionalBoolean(value: Record<string, unknown>, field: string): string | undefined {
  const item = value[field]
  return item === undefined || typeof item === 'boolean' ? undefined : `returned ${field}: ${describeValue(item)} where a boolean or nothing is allowed`
}

function contextProblem(context: unknown): string | undefined {
  if (context === undefined) return undefined
  if (!Array.isArray(context)) return `returned additionalContext: ${describeValue(context)} where an array of strings is allowed`
  for (let i = 0; i < context.length; i++) {
    if (typeof context[i] !== 'string') return `returned additionalContext[${i}]: ${describeValue(context[i])} where a string is required`
  }
  return undefined
}
