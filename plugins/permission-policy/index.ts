// The approval mode and permission rules, as a tools/pre-execute policy (S10). It asks the rest
// of the chain first and only ever strengthens its answer (deny > ask > allow), so it can add a
// deny or an ask but never lift one that an inner listener decided. The one thing an inner allow
// can answer is the mode's default ask, and only when it says so (`answersAsk`, a Claude Code
// PreToolUse hook's allow): explicit deny and ask rules still win (claude-code-hooks.md §5.1, §7).
//
// Rules come from this plugin's config and, while the `claude-settings` plugin runs, from Claude
// Code's settings files (`permissions.allow/deny/ask`, `defaultMode`).
import { homedir } from 'node:os'
import { z } from 'zod'
import type { PermissionUpdate, PreToolDecision, SealedCall, ToolDefinition } from '@seam/sdk'
import { definePlugin } from '@seam/sdk'
import { bashParserLoaded, loadBashParser, matchesPermissionRule, parsePermissionRule, type PermissionRuleContext } from '../hook-protocol/index'
import type { ClaudeSettingsSnapshot } from '../claude-settings/read'
import { APPROVAL_MODES, EDIT_TOOLS } from './modes'
import { bashVerdict } from './bash'
import { SEAM_RULES_FILE, modeInForce, rulesInForce, type ModeInForce, type PolicyInForce, type RuleInForce } from './in-force'
import { SESSION_RULES_FILE, SessionPermissions, type SessionOverrides } from './session-overrides'
import '@seam/sdk'
import type {} from '../claude-settings/index'

export { APPROVAL_MODES, MODE_FROM_CLAUDE, MODE_TO_CLAUDE, type ApprovalMode } from './modes'
export type { ModeInForce, PolicyInForce, RuleInForce } from './in-force'

const PermissionRule = z.string().superRefine((rule, issue) => {
  const parsed = parsePermissionRule(rule)
  if (!parsed.ok) issue.addIssue({ code: 'custom', message: parsed.error })
})

export const PermissionPolicyConfigSchema = z
  .object({
    /** Which calls ask the user when no rule matches. */
    mode: z.enum(APPROVAL_MODES).default('ask-side-effects'),
    /** The mode was given on the command line (`--approve`): Claude Code's `defaultMode` does not override it. */
    modeFromCommandLine: z.boolean().default(false),
    /** Rules such as `Read` or `Bash(git status*)` whose calls run without asking. */
    allow: z.array(PermissionRule).default([]),
    /** Rules whose calls ask first, whatever the mode; ask wins over allow. */
    ask: z.array(PermissionRule).default([]),
    /** Rules whose calls are denied; deny wins over ask and allow. */
    deny: z.array(PermissionRule).default([]),
    /** Also apply `permissions` from Claude Code's settings files (the `claudeSettings` service). */
    claudeSettings: z.boolean().default(true)
  })
  .strict()
  .prefault({})

export type PermissionPolicyConfig = z.output<typeof PermissionPolicyConfigSchema>

/** The rules and mode the policy applies right now, with where each came from (the settings page lists them). */
export interface PermissionPolicyService {
  /** What applies; with a session, what applies to it (its own mode, folders and rules included). */
  inForce(sessionId?: string): PolicyInForce
  /**
   * A permission update for one session only (Claude Code's `destination: "session"`): its mode,
   * its directories, deny and ask rules. Returns what changed in words, or undefined for what the
   * policy does not keep (allow rules: the approval service grants them).
   */
  updateSession(sessionId: string, update: PermissionUpdate, cwd: string): string | undefined
  /** The folders added for a session, absolute (the workspace guard allows them too). */
  sessionDirectories(sessionId: string): readonly string[]
  /**
   * Why a deny rule refuses a call of `name` with `args` in `cwd`, or undefined: for reads that do
   * not go through the tool pipeline (a file mentioned with `@path` is read with Read's logic).
   */
  denial(name: string, args: Readonly<Record<string, unknown>>, cwd: string): string | undefined
}

declare module '@seam/sdk' {
  interface Services {
    permissionPolicy: PermissionPolicyService
  }
}

const BY = 'permission-policy'

export default definePlugin({
  name: BY,
  schema: PermissionPolicyConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const tools = ctx.get('tools')
    const home = homedir()
    // Read per call: the Claude settings reload on edits, and the policy must not wait for them.
    const claude = (): ClaudeSettingsSnapshot | undefined => (config.claudeSettings ? ctx.maybe('claudeSettings')?.snapshot() : undefined)
    // The merged rule list changes only with the settings snapshot (replaced on every edit).
    const sessions = new SessionPermissions()
    let cached: { snapshot: ClaudeSettingsSnapshot | undefined; rules: RuleInForce[]; bareDenies: RuleInForce[] } | undefined
    const current = () => {
      const snapshot = claude()
      if (cached === undefined || cached.snapshot !== snapshot) {
        const rules = rulesInForce(config, snapshot)
        cached = { snapshot, rules, bareDenies: rules.filter((rule) => rule.behavior === 'deny' && isBare(rule.rule)) }
      }
      return cached
    }
    ctx.on('tools/pre-execute', async (call, next) => {
      const inner = await next()
      // Bash rules judge each part of the line: the shell parser loads once, on the first Bash call.
      // A failed load leaves every line unreadable (asked, never allowed by a rule), with the reason.
      if (call.name === 'Bash' && !bashParserLoaded()) await loadBashParser().catch(() => undefined)
      const { snapshot, rules } = current()
      const session = sessions.get(call.sessionId)
      const commandAllows = ctx.maybe('turnPermissions')?.allowedFor(call.sessionId, call.turnId)
      return combine(inner, policyDecision(call, tools.get(call.name), config, home, snapshot, withSession(rules, session), commandAllows, session))
    })
    ctx.on('agent/session-end', (agent) => sessions.forget(agent.sessionId))
    // A bare deny rule (`Bash`, `mcp__server`) disables the tool: off the model's tool list, and a
    // call to it is unavailable before any hook runs (claude-code-hooks.md §6 PreToolUse).
    ctx.guard('tools/offer', (name) => disabledBy(name, current().bareDenies))
    ctx.provide('permissionPolicy', {
      inForce: (sessionId) => {
        const snapshot = claude()
        const session = sessionId === undefined ? undefined : sessions.get(sessionId)
        const mode: ModeInForce = session?.mode !== undefined ? { mode: session.mode, source: 'session' } : modeInForce(config, snapshot)
        return {
          mode,
          rules: withSession(rulesInForce(config, snapshot), session),
          additionalDirectories: snapshot?.additionalDirectories.slice() ?? [],
          warnings: snapshot?.warnings.slice() ?? []
        }
      },
      updateSession: (sessionId, update, cwd) => sessions.apply(sessionId, update, cwd),
      sessionDirectories: (sessionId) => sessions.get(sessionId)?.directories ?? [],
      denial: (name, args, cwd) => {
        const { snapshot, rules } = current()
        const context: PermissionRuleContext = { cwd, home }
        if (snapshot?.workspaceRoot) context.projectDir = snapshot.workspaceRoot
        const deny = rules.find((r) => r.behavior === 'deny' && matchesPermissionRule(r.rule, name, args, context))
        return deny ? `the permission policy denies calls matching "${deny.rule}"${where(deny)}` : undefined
      }
    })
  }
})

/** A decision of the policy's own: from a rule, or the mode's default for the tool. */
export interface OwnDecision {
  decision: PreToolDecision
  /** The mode's default ask (or dont-ask's deny in its place): an inner `answersAsk` allow answers it. Never a rule's. */
  answerable: boolean
}

/** What the rules and the mode say about one call, on their own. */
export function policyDecision(
  call: SealedCall,
  tool: ToolDefinition<unknown> | undefined,
  config: PermissionPolicyConfig,
  home?: string,
  claude?: ClaudeSettingsSnapshot,
  rules: readonly RuleInForce[] = rulesInForce(config, claude),
  /** A slash command's `allowed-tools` for the call's turn: allow rules below deny and ask rules (as Claude Code's). */
  commandAllows?: { command: string; rules: readonly string[] },
  /** What the session's own permission updates changed (its mode, folders; its rules are in `rules`). */
  session?: SessionOverrides
): OwnDecision {
  const context: PermissionRuleContext = { cwd: call.cwd, home }
  if (claude?.workspaceRoot) context.projectDir = claude.workspaceRoot
  if (call.name === 'Bash' && typeof call.args.command === 'string') return bashDecision(call, call.args.command, tool, config, context, claude, rules, commandAllows, session)
  const matching = (behavior: RuleInForce['behavior']) => rules.find((r) => r.behavior === behavior && matchesPermissionRule(r.rule, call.name, call.args, context))
  const deny = matching('deny')
  if (deny) return { answerable: false, decision: { action: 'deny', reason: `the permission policy denies calls matching "${deny.rule}"${where(deny)}`, by: BY } }
  const ask = matching('ask')
  if (ask) return { answerable: false, decision: { action: 'ask', reason: `calls matching "${ask.rule}" ask first${where(ask)}`, by: BY } }
  const commandRule = commandAllows?.rules.find((rule) => matchesPermissionRule(rule, call.name, call.args, context))
  if (commandRule !== undefined && commandAllows) {
    return { answerable: false, decision: { action: 'allow', reason: `allowed by ${commandAllows.command}'s allowed-tools "${commandRule}"`, by: BY } }
  }
  const allow = matching('allow')
  if (allow) return { answerable: false, decision: { action: 'allow', reason: `allowed by the rule "${allow.rule}"${where(allow)}`, by: BY } }
  const mode = callMode(call, session?.mode ?? modeInForce(config, claude).mode)
  const decision = modeDecision(call, tool, mode)
  // Plan mode stays read-only even for a hook's allow (Claude Code refused the call there, §5.1).
  return { decision, answerable: decision.action === 'ask' || (decision.action === 'deny' && mode === 'dont-ask') }
}

/**
 * The mode a call runs under: a subagent's own (`permissionMode` in its definition) over the
 * session's, except that a session in never-ask keeps it (Claude Code: a parent's bypassPermissions
 * cannot be overridden by a subagent).
 */
function callMode(call: SealedCall, sessionMode: PermissionPolicyConfig['mode']): PermissionPolicyConfig['mode'] {
  const own = call.agent?.permissionMode
  return own === undefined || sessionMode === 'never-ask' ? sessionMode : own
}

/** A Bash call: its rules part by part (`bash.ts`), else the mode's default, saying when the line could not be read. */
function bashDecision(
  call: SealedCall,
  command: string,
  tool: ToolDefinition<unknown> | undefined,
  config: PermissionPolicyConfig,
  context: PermissionRuleContext,
  claude: ClaudeSettingsSnapshot | undefined,
  rules: readonly RuleInForce[],
  commandAllows: { command: string; rules: readonly string[] } | undefined,
  session: SessionOverrides | undefined
): OwnDecision {
  const mode = callMode(call, session?.mode ?? modeInForce(config, claude).mode)
  const roots = [claude?.workspaceRoot ?? call.cwd, ...(claude?.additionalDirectories.map((dir) => dir.resolved) ?? []), ...(session?.directories ?? [])]
  const verdict = bashVerdict(command, rules, { ...context, cwd: call.cwd, roots, mode, ...(commandAllows ? { commandAllows } : {}), where, by: BY })
  if (verdict.kind === 'decided') return { answerable: false, decision: verdict.decision }
  const decision = modeDecision(call, tool, mode)
  const answerable = decision.action === 'ask' || (decision.action === 'deny' && mode === 'dont-ask')
  if (verdict.unreadable === undefined || decision.action === 'allow') return { decision, answerable }
  return { answerable, decision: { ...decision, reason: `${verdict.unreadable}; ${decision.reason}` } }
}

function modeDecision(call: SealedCall, tool: ToolDefinition<unknown> | undefined, mode: PermissionPolicyConfig['mode']): PreToolDecision {
  const sideEffects = tool?.sideEffects === true
  switch (mode) {
    case 'ask-all':
      return { action: 'ask', reason: `every tool call needs approval (mode "ask-all")`, by: BY }
    case 'never-ask':
      return { action: 'allow', by: BY }
    case 'ask-side-effects':
      return sideEffects ? { action: 'ask', reason: `${call.name} can change files or run programs`, by: BY } : { action: 'allow', by: BY }
    case 'accept-edits':
      if (EDIT_TOOLS.has(call.name)) return { action: 'allow', reason: 'file edits run without asking (mode "accept-edits")', by: BY }
      return sideEffects ? { action: 'ask', reason: `${call.name} can change files or run programs`, by: BY } : { action: 'allow', by: BY }
    case 'dont-ask':
      return sideEffects
        ? { action: 'deny', reason: `${call.name} is not pre-approved by an allow rule, and mode "dont-ask" denies instead of asking`, by: BY }
        : { action: 'allow', by: BY }
    case 'plan':
      return sideEffects ? { action: 'deny', reason: `mode "plan" is read-only: ${call.name} can change files or run programs`, by: BY } : { action: 'allow', by: BY }
  }
}

/**
 * The policy's answer given the inner chain's: the stronger of the two (deny > ask > allow), except
 * that an inner allow marked `answersAsk` (a PreToolUse hook's allow) answers the mode's default
 * ask — or the deny `dont-ask` puts in its place — and is recorded as the one that allowed the call.
 * It never answers a rule, nor plan mode (Claude Code refused it there too, §5.1).
 */
export function combine(inner: PreToolDecision, own: OwnDecision): PreToolDecision {
  const mine = own.decision
  if (own.answerable && mine.action !== 'allow' && inner.action === 'allow' && inner.answersAsk === true) {
    const who = inner.reason ?? `allowed by ${inner.by ?? 'an inner policy'}`
    return { action: 'allow', reason: `${who}; this answered the permission policy's ${mine.action === 'ask' ? 'ask' : 'deny'} (${mine.reason})`, ...(inner.by !== undefined ? { by: inner.by } : {}) }
  }
  return strongest(inner, mine)
}

const STRENGTH: Record<PreToolDecision['action'], number> = { allow: 0, ask: 1, deny: 2 }

/**
 * The stronger of two decisions. On a tie the inner one stands (it keeps its own wording), unless
 * it is nobody's (the chain's default allow): then the policy's own says which rule allowed the call.
 */
export function strongest(inner: PreToolDecision, mine: PreToolDecision): PreToolDecision {
  if (STRENGTH[mine.action] === STRENGTH[inner.action]) return inner.by === undefined && mine.reason !== undefined ? mine : inner
  return STRENGTH[mine.action] > STRENGTH[inner.action] ? mine : inner
}

/** The reason a bare deny rule takes `toolName` off the tool list, or undefined. */
export function disabledBy(toolName: string, rules: readonly RuleInForce[]): string | undefined {
  const rule = rules.find((r) => r.behavior === 'deny' && isBare(r.rule) && matchesPermissionRule(r.rule, toolName, {}))
  return rule ? `${toolName} is disabled by the deny rule "${rule.rule}"${where(rule)}` : undefined
}

function isBare(rule: string): boolean {
  const parsed = parsePermissionRule(rule)
  return parsed.ok && parsed.specifier === undefined
}

/** ` (permissions.deny[0] in /w/.claude/settings.json)` for a settings rule; nothing for the plugin's own. */
function where(rule: RuleInForce): string {
  if (rule.file === SESSION_RULES_FILE) return ' (added to this session by a hook)'
  return rule.file === SEAM_RULES_FILE ? '' : ` (permissions.${rule.behavior}[${rule.index}] in ${rule.file})`
}

/** The session's own deny and ask rules first, then the rest. */
function withSession(rules: RuleInForce[], session: SessionOverrides | undefined): RuleInForce[] {
  return session !== undefined && session.rules.length > 0 ? [...session.rules, ...rules] : rules
}
