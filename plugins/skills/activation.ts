// What a loaded skill changes besides its message (issue 29):
// - for the rest of the turn that loaded it: its `model` and `effort` (AgentHandle.useForTurn) and
//   its `disallowed-tools` (a bare `Tool` rule takes the tool off the model's list and refuses a
//   call to it; a `Tool(specifier)` rule refuses the calls it matches);
// - for the rest of the session (Claude Code: "hooks registered for the session once the skill is
//   invoked"): its `hooks`, through the `scopedHooks` service, with `once: true` honoured.
// A workspace skill acts only once the user approved its text (the caller says so: `approved`).
import { homedir } from 'node:os'
import type { AgentHandle, Context, ScopedHooks, SealedCall } from '@seam/sdk'
import { matchesPermissionRule, parsePermissionRule } from '../hook-protocol/index'
import type { Skill } from './discover'

const SOURCE = 'skills'

interface Withheld {
  turnId: string
  /** Each skill's disallowed-tools rules, in load order. */
  rules: Array<{ skill: string; rule: string }>
}

export class SkillActivation {
  private readonly withheld = new Map<string, Withheld>()
  /** The skills whose hooks each session registered, by file and hooks text (a re-invocation adds none). */
  private readonly hooks = new Map<string, Map<string, ScopedHooks>>()

  constructor(private readonly ctx: Context) {
    ctx.guard('tools/offer', (name, sessionId) => (sessionId === undefined ? undefined : this.withheldReason(sessionId, name)))
    ctx.guard('tools', (call) => this.refusal(call))
  }

  /**
   * The skill was loaded in `agent`'s running turn. `model`: whether to switch this turn's model
   * here (the Skill tool; `/name` already opens its turn with it). `approved`: false for a
   * workspace skill whose text the user has not approved (its hooks do not register).
   */
  activate(agent: AgentHandle, skill: Skill, options: { model: boolean; approved: boolean }): void {
    const front = skill.front
    const model = options.model ? front.model : undefined
    if (model !== undefined || front.effort !== undefined) agent.useForTurn({ ...(model !== undefined ? { model } : {}), ...(front.effort !== undefined ? { effort: front.effort } : {}) })
    const turnId = agent.currentTurnId
    const disallowed = front['disallowed-tools'] ?? []
    if (disallowed.length > 0 && turnId !== undefined) {
      let entry = this.withheld.get(agent.sessionId)
      if (entry?.turnId !== turnId) this.withheld.set(agent.sessionId, (entry = { turnId, rules: [] }))
      for (const rule of disallowed) entry.rules.push({ skill: skill.name, rule })
    }
    if (front.hooks !== undefined) this.registerHooks(agent, skill, options.approved)
  }

  endTurn(sessionId: string, turnId: string): void {
    if (this.withheld.get(sessionId)?.turnId === turnId) this.withheld.delete(sessionId)
  }

  forget(sessionId: string): void {
    this.withheld.delete(sessionId)
    for (const registration of this.hooks.get(sessionId)?.values() ?? []) registration.remove()
    this.hooks.delete(sessionId)
  }

  private registerHooks(agent: AgentHandle, skill: Skill, approved: boolean): void {
    const service = this.ctx.maybe('scopedHooks')
    if (!service) {
      agent.notify('warn', `skill ${skill.name}: its hooks are not registered: the Claude Code hooks bridge (scopedHooks service) is not loaded`, SOURCE)
      return
    }
    if (!approved) {
      agent.notify('warn', `skill ${skill.name}: its hooks are not registered: ${skill.file} is not approved in the workspace's trust dialog`, SOURCE)
      return
    }
    const key = `${skill.file}\u0000${JSON.stringify(skill.front.hooks)}`
    let registered = this.hooks.get(agent.sessionId)
    if (registered?.has(key)) return
    if (!registered) this.hooks.set(agent.sessionId, (registered = new Map()))
    const registration = service.add({
      sessionId: agent.sessionId,
      file: skill.file,
      hooks: skill.front.hooks ?? {},
      honourOnce: true,
      ...(skill.plugin ? { env: { CLAUDE_PLUGIN_ROOT: skill.plugin.root, CLAUDE_PLUGIN_DATA: skill.plugin.dataDir } } : {})
    })
    registered.set(key, registration)
    for (const problem of registration.problems) agent.notify('warn', `skill ${skill.name}: ${problem}`, SOURCE)
  }

  /** A bare rule of an active skill's disallowed-tools names the tool: it is not offered, and a call is refused as unavailable. */
  private withheldReason(sessionId: string, toolName: string): string | undefined {
    const entry = this.withheld.get(sessionId)
    const hit = entry?.rules.find(({ rule }) => {
      const parsed = parsePermissionRule(rule)
      return parsed.ok && parsed.specifier === undefined && matchesPermissionRule(rule, toolName, {})
    })
    return hit ? `${toolName} is not available while skill ${hit.skill} is active (its disallowed-tools: ${hit.rule})` : undefined
  }

  /** A `Tool(specifier)` rule refuses the calls it matches (a bare one was refused before, as unavailable). */
  private refusal(call: SealedCall): string | undefined {
    const entry = this.withheld.get(call.sessionId)
    if (!entry || (call.turnId !== undefined && call.turnId !== entry.turnId)) return undefined
    const hit = entry.rules.find(({ rule }) => matchesPermissionRule(rule, call.name, { ...call.args }, { cwd: call.cwd, home: process.env.HOME || homedir() }))
    return hit ? `${call.name} is not allowed while skill ${hit.skill} is active (its disallowed-tools: ${hit.rule})` : undefined
  }
}
