// The approval mode and permission rules, as a tools/pre-execute policy (S10). It asks the rest
// of the chain first and only ever strengthens its answer (deny > ask > allow), so it can add a
// deny or an ask but never lift one that an inner listener decided.
import { homedir } from 'node:os'
import { z } from 'zod'
import type { PreToolDecision, SealedCall, ToolDefinition } from '../../src-shared/host/tools'
import { definePlugin } from '../../src-shared/kernel'
import { matchesPermissionRule, parsePermissionRule } from '../hook-protocol/index'
import '../../src-shared/host/services'

const PermissionRule = z.string().superRefine((rule, issue) => {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok) issue.addIssue({ code: 'custom', message: parsed.error })
})

export const PermissionPolicyConfigSchema = z
  .object({
    /** Which calls ask the user when no rule matches. */
    mode: z.enum(['ask-side-effects', 'ask-all', 'never-ask']).default('ask-side-effects'),
    /** Rules such as `Read` or `Bash(git status*)` whose calls run without asking. */
    allow: z.array(PermissionRule).default([]),
    /** Rules whose calls are denied; deny wins over allow. */
    deny: z.array(PermissionRule).default([])
  })
  .strict()
  .prefault({})

export type PermissionPolicyConfig = z.output<typeof PermissionPolicyConfigSchema>

const BY = 'permission-policy'

export default definePlugin({
  name: BY,
  schema: PermissionPolicyConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const tools = ctx.get('tools')
    const home = homedir()
    ctx.on('tools/pre-execute', async (call, next) => {
      const inner = await next()
      return strongest(inner, policyDecision(call, tools.get(call.name), config, home))
    })
  }
})

/** What the rules and the mode say about one call, on their own. */
export function policyDecision(call: SealedCall, tool: ToolDefinition<unknown> | undefined, config: PermissionPolicyConfig, home?: string): PreToolDecision {
  const context = { cwd: call.cwd, home }
  const denyRule = config.deny.find((rule) => matchesPermissionRule(rule, call.name, call.args, context))
  if (denyRule !== undefined) return { action: 'deny', reason: `the permission policy denies calls matching "${denyRule}"`, by: BY }
  const allowRule = config.allow.find((rule) => matchesPermissionRule(rule, call.name, call.args, context))
  if (allowRule !== undefined) return { action: 'allow', reason: `allowed by the rule "${allowRule}"`, by: BY }
  switch (config.mode) {
    case 'ask-all':
      return { action: 'ask', reason: `every tool call needs approval (mode "ask-all")`, by: BY }
    case 'never-ask':
      return { action: 'allow', by: BY }
    case 'ask-side-effects':
      return tool?.sideEffects === true ? { action: 'ask', reason: `${call.name} can change files or run programs`, by: BY } : { action: 'allow', by: BY }
  }
}

const STRENGTH: Record<PreToolDecision['action'], number> = { allow: 0, ask: 1, deny: 2 }

/** The stronger of two decisions; on a tie the inner one stands (it keeps its own wording). */
export function strongest(inner: PreToolDecision, mine: PreToolDecision): PreToolDecision {
  return STRENGTH[mine.action] > STRENGTH[inner.action] ? mine : inner
}
