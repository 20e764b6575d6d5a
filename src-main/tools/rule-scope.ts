// What "Allow for this session" and "Always allow" grant (S11): Claude Code permission rules
// generalised from the call (plugins/hook-protocol/rule-suggestions.ts): `Bash(npm test:*)`, one per
// simple command of a compound command, `Edit(/src/**)` for an edit, `WebFetch(domain:x)`, an MCP
// tool's name. The dialog shows exactly these rules, and a later call is covered when one of them
// matches it, as the permission policy would match a settings file's allow rule.
import { homedir } from 'node:os'
import { rulesCover, ruleText, suggestRules, type BashSplitter } from '../../plugins/hook-protocol/index'
import type { GrantScope, JsonObject } from '../../src-shared/host/tools'
import { scopeFor } from './grant-scope'

export interface RuleScopeContext {
  cwd: string
  /** The workspace root (`/x` rules are relative to it); null without a workspace. */
  projectDir: string | null
  splitBash?: BashSplitter
}

/** The rule-based scope of a call; its description is the rules as they will be saved. */
export async function ruleScopeFor(tool: string, args: Readonly<JsonObject>, context: RuleScopeContext): Promise<GrantScope> {
  const rules = (await suggestRules(tool, args, { cwd: context.cwd, projectDir: context.projectDir, ...(context.splitBash ? { splitBash: context.splitBash } : {}) })).map(ruleText)
  // A Bash line the shell parser cannot read has no rule: the session grant is that exact command.
  if (rules.length === 0) return scopeFor(tool, args)
  return Object.freeze({
    tool,
    pattern: Object.freeze({}),
    description: rules.join(', '),
    rules: Object.freeze(rules) as string[],
    ...(context.projectDir !== null ? { projectDir: context.projectDir } : {})
  })
}

/** Whether the scope's rules cover a call of `tool` run in `cwd` (for Bash: every part of the command). */
export function rulesMatch(scope: Pick<GrantScope, 'rules' | 'projectDir'>, tool: string, args: Readonly<JsonObject>, cwd: string | undefined): boolean {
  const context = { ...(cwd !== undefined ? { cwd } : {}), ...(scope.projectDir !== undefined ? { projectDir: scope.projectDir } : {}), home: homedir() }
  return rulesCover(scope.rules ?? [], tool, args, context)
}
