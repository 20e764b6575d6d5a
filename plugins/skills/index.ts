// @seam/skills: Agent Skills (`SKILL.md` folders) as Claude Code runs them. The model is told only
// the skills' names and descriptions (a listing within ~1% of its context window); a skill's body
// enters the conversation when the model calls the `Skill` tool or the user types `/name`, and is
// re-attached after a compaction. Skills are read from Claude Code's and the Agents/Codex folders
// and from installed Claude Code plugins (`claudePlugins` service), re-read when they change.
// See README.md.
import { homedir } from 'node:os'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { definePlugin } from '@seam/sdk'
import type { AgentHandle, Context, PluginCommand, PluginCommandResult, SlashCommandProvider, ToolOutput, TrustItem } from '@seam/sdk'
import { codexHomePath } from '@seam/sdk/node'
import { SkillActivation } from './activation'
import { SkillFinder, type Skill, type SkillCatalog } from './discover'
import { LISTING_HEADER, renderListing } from './listing'
import { loadedSinceCompaction, loadsToReattach } from './reattach'
import { renderSkill, SkillError } from './render'
import { trustItemOf } from './trust'
import { launchingText, skillTool, type SkillInput } from './tool'
import { SkillUsage } from './usage'

export { SkillFinder, skillRoots, foldersToRepoRoot, type Skill, type SkillCatalog, type SkillProblem, type SkillScope } from './discover'
export { parseSkillText, SkillFrontMatterSchema, MAX_DESCRIPTION_CHARS } from './front-matter'
export { renderListing, LISTING_HEADER } from './listing'
export { renderSkill, skillHeader } from './render'
export { SKILL_TOOL_DESCRIPTION, launchingText } from './tool'
export { TRUST_SOURCE } from './trust'

export const SkillsConfigSchema = z.object({
  /** The user's home (`~/.claude/skills`, `~/.agents/skills`); default `$HOME`. */
  home: z.string().min(1).optional(),
  /** Codex's home (`skills/` in it); default `$CODEX_HOME`, else `~/.codex`. */
  codexHome: z.string().min(1).optional(),
  /** The listing's share of the model's context window (Claude Code's 1%). */
  listingBudgetFraction: z.number().min(0).max(1).default(0.01),
  /** The context window in tokens when the session has not learnt the model's yet. */
  contextWindow: z.number().int().positive().default(200_000),
  /** Tokens kept of each skill re-attached after a compaction, and for all of them. */
  reattachTokensPerSkill: z.number().int().nonnegative().default(5_000),
  reattachTokensTotal: z.number().int().nonnegative().default(25_000),
  /** Where invocation counts are kept; default `<Seam home>/skills/usage.json`. */
  usageFile: z.string().min(1).optional(),
  /** Where parsed SKILL.md files are kept across processes (by content hash); default `<Seam home>/skills/parsed.json`. */
  parseCacheFile: z.string().min(1).optional()
}).prefault({})
export type SkillsConfig = z.output<typeof SkillsConfigSchema>

/** What a subagent's `skills` field needs of this plugin (plugins/subagents). */
export interface SkillsService {
  /**
   * Each named skill's message as the Skill tool loads it (no arguments, the same substitutions and
   * shell lines), for preloading into a subagent. A name that is not a skill, or whose rendering
   * fails, is in `problems` with why.
   */
  preload(request: { sessionId: string; workspace: string; names: readonly string[] }): Promise<{
    loaded: Array<{ skill: string; file: string; text: string }>
    problems: Array<{ skill: string; reason: string }>
  }>
}

declare module '@seam/sdk' {
  interface Services {
    skills: SkillsService
  }
}

const SOURCE = 'skills'
/** Claude Code's rough count: four characters a token. */
const CHARS_PER_TOKEN = 4

export default definePlugin({
  name: 'skills',
  schema: SkillsConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const skills = new SkillsRuntime(ctx, config)
    ctx.tools.register(skillTool((input, exec) => skills.invokeByModel(input, exec)))
    ctx.on('agent/session-start', async (agent, source) => {
      skills.track(agent)
      if (source === 'compact') skills.reattach(agent)
      skills.deliverListing(agent, source !== 'resume')
    })
    ctx.on('agent/prompt-submit', async (agent, _content, source, next) => {
      const decision = await next()
      // Steering joins a running turn; the skills are looked at again when a prompt opens a turn.
      if (decision.action === 'allow' && source !== 'steering') {
        skills.track(agent)
        skills.deliverListing(agent, false)
      }
      return decision
    })
    // `/name`: its turn opens on the skill's model (the command result); the rest applies once the expansion is allowed.
    ctx.on('agent/prompt-expansion', async (agent, info, next) => {
      const decision = await next()
      if (decision.action === 'allow' && info.commandSource !== 'codex') skills.expanded(agent, info.commandName)
      return decision
    })
    ctx.on('agent/tool-batch', async (agent, results, next) => {
      skills.recordLoads(agent, results.map((r) => ({ token: r.call.token, callId: r.call.callId, ok: !r.result.isError })))
      return next()
    })
    ctx.on('agent/turn-end', (agent, turnId) => skills.endTurn(agent.sessionId, turnId))
    ctx.on('agent/session-end', (agent) => skills.forget(agent.sessionId))
    ctx.maybe('slashCommands')?.register(ctx, skills.commandProvider())
    const workspace = ctx.maybe('workspace')
    if (workspace) ctx.onDispose(workspace.contributeTrustItems(ctx, (root) => skills.trustItems(root)))
    ctx.provide('skills', { preload: (request) => skills.preload(request) } satisfies SkillsService)
  }
})

interface PendingLoad {
  skill: Skill
  args: string
  text: string
}

class SkillsRuntime {
  private readonly finder: SkillFinder
  private readonly usage: SkillUsage
  private readonly agents = new Map<string, AgentHandle>()
  /** Rendered skills waiting for their step's results to be appended, by tool call token. */
  private readonly pending = new Map<string, PendingLoad>()
  /** Turn grants of skills' allowed-tools, revoked when the turn ends. */
  private readonly grants = new Map<string, () => void>()
  /** The workspace skills' trust items as last read, so the host re-counts unapproved items when they change. */
  private trustKey: string | undefined
  private readonly activation: SkillActivation

  constructor(
    private readonly ctx: Context,
    private readonly config: SkillsConfig
  ) {
    const seamHome = ctx.maybe('workspace')?.seamHome
    this.usage = new SkillUsage(config.usageFile ?? (seamHome ? join(seamHome, 'skills', 'usage.json') : undefined))
    this.finder = new SkillFinder(config.parseCacheFile ?? (seamHome ? join(seamHome, 'skills', 'parsed.json') : undefined))
    this.activation = new SkillActivation(ctx)
  }

  catalog(workspace: string | null): SkillCatalog {
    const home = this.config.home ?? (process.env.HOME || homedir())
    const codexHome = codexHomePath(this.config.codexHome, process.env, home)
    const plugins = workspace !== null ? (this.ctx.maybe('claudePlugins')?.list(workspace) ?? []) : []
    return this.finder.discover({ home, codexHome, workspace, plugins })
  }

  track(agent: AgentHandle): void {
    this.agents.set(agent.sessionId, agent)
  }

  forget(sessionId: string): void {
    this.agents.delete(sessionId)
    this.activation.forget(sessionId)
  }

  /** `/name` of a skill passed its expansion: its effort, disallowed-tools and hooks apply (its model already runs the turn). */
  expanded(agent: AgentHandle, name: string): void {
    const skill = this.catalog(agent.workspace).skills.find((s) => s.name === name)
    if (!skill || skill.front.context === 'fork') return
    this.activation.activate(agent, skill, { model: false, approved: this.isApproved(skill) })
  }

  /** Tells the model the skills it may use when that differs from what it was last told (`fresh`: nothing was told yet). */
  deliverListing(agent: AgentHandle, fresh: boolean): void {
    const catalog = this.catalog(agent.workspace)
    this.reportProblems(agent, catalog)
    this.noticeTrustChanges(catalog)
    const listed = catalog.skills.filter((skill) => !skill.front['disable-model-invocation'] && this.pathsAllow(skill, agent))
    const window = lastContextWindow(agent) ?? this.config.contextWindow
    const { text } = renderListing(listed, { budgetChars: Math.floor(window * this.config.listingBudgetFraction * CHARS_PER_TOKEN), uses: (name) => this.usage.uses(name) })
    const before = fresh ? undefined : lastListing(agent)
    if (text === (before ?? '')) return
    agent.inject(text || `${LISTING_HEADER}\n\n(none: the skills listed earlier are no longer available)`, SOURCE)
  }

  async invokeByModel(input: SkillInput, exec: { sessionId: string; token: string; signal: AbortSignal }): Promise<ToolOutput> {
    const agent = this.agents.get(exec.sessionId)
    if (!agent) return { isError: true, content: 'Skill: this session was not started with the skills plugin loaded' }
    const name = input.skill.trim().replace(/^\//, '')
    const args = input.args?.trim() ?? ''
    const skill = this.catalog(agent.workspace).skills.find((s) => s.name === name)
    if (!skill) return { isError: true, content: `Unknown skill: ${name}` }
    if (skill.front['disable-model-invocation']) return { isError: true, content: `Skill ${name} cannot be used with the Skill tool: it sets disable-model-invocation, so only the user can run it (as /${name})` }
    if (loadedSinceCompaction(agent.events, name, args)) return { content: `Skill ${name} is already loaded in this conversation (its <command-name> message is above): follow its instructions instead of loading it again.` }
    try {
      if (skill.front.context === 'fork') return await this.runForked(skill, args, agent, exec.token, exec.signal)
      const text = await this.render(skill, args, agent)
      this.pending.set(exec.token, { skill, args, text })
      this.usage.record(name)
      this.allowTools(agent, skill)
      this.activation.activate(agent, skill, { model: true, approved: this.isApproved(skill) })
      return { content: launchingText(name) }
    } catch (error) {
      if (error instanceof SkillError) return { isError: true, content: error.message }
      throw error
    }
  }

  async preload(request: { sessionId: string; workspace: string; names: readonly string[] }): ReturnType<SkillsService['preload']> {
    const catalog = this.catalog(request.workspace)
    const agent = this.agents.get(request.sessionId)
    const loaded: Array<{ skill: string; file: string; text: string }> = []
    const problems: Array<{ skill: string; reason: string }> = []
    for (const raw of request.names) {
      const name = raw.trim().replace(/^\//, '')
      const skill = catalog.skills.find((s) => s.name === name)
      if (!skill) {
        problems.push({ skill: name, reason: `no skill named "${name}" was found (available: ${catalog.skills.map((s) => s.name).join(', ') || 'none'})` })
        continue
      }
      try {
        loaded.push({ skill: skill.name, file: skill.file, text: await this.render(skill, '', agent, request.sessionId, request.workspace) })
        this.usage.record(skill.name)
      } catch (error) {
        if (!(error instanceof SkillError)) throw error
        problems.push({ skill: name, reason: error.message })
      }
    }
    return { loaded, problems }
  }

  /** After a step's results: each skill the Skill tool launched in it enters the conversation, in call order. */
  recordLoads(agent: AgentHandle, results: ReadonlyArray<{ token: string; callId: string; ok: boolean }>): void {
    for (const result of results) {
      const load = this.pending.get(result.token)
      if (!load) continue
      this.pending.delete(result.token)
      if (!result.ok) continue
      agent.record({
        type: 'skill/loaded',
        ...(agent.currentTurnId !== undefined ? { turnId: agent.currentTurnId } : {}),
        skill: load.skill.name,
        file: load.skill.file,
        args: load.args,
        trigger: 'model',
        callId: result.callId,
        text: load.text
      })
    }
  }

  /** After a compaction: the most recent invocation of each skill, cut to Claude Code's budget. */
  reattach(agent: AgentHandle): void {
    const events = agent.events
    let at = events.length - 1
    while (at >= 0 && events[at].type !== 'compaction') at--
    if (at < 0) return
    const loads = loadsToReattach(events, at, {
      perSkillChars: this.config.reattachTokensPerSkill * CHARS_PER_TOKEN,
      totalChars: this.config.reattachTokensTotal * CHARS_PER_TOKEN
    })
    for (const load of loads) {
      agent.record({ type: 'skill/loaded', ...(agent.currentTurnId !== undefined ? { turnId: agent.currentTurnId } : {}), skill: load.skill, file: load.file, args: load.args, trigger: 'compact', text: load.text })
    }
  }

  endTurn(sessionId: string, turnId: string): void {
    this.activation.endTurn(sessionId, turnId)
    const key = `${sessionId}\u0000${turnId}`
    this.grants.get(key)?.()
    this.grants.delete(key)
  }

  /** `/name` typed by the user: the skill's message is the turn's user message (or a forked skill's result). */
  commandProvider(): SlashCommandProvider {
    return {
      list: (workspace) => {
        const catalog = this.catalog(workspace || null)
        return {
          commands: catalog.skills.map((skill): PluginCommand => ({
            name: skill.name,
            description: skill.description || `Skill ${skill.name}`,
            kind: 'skill',
            origin: skill.origin,
            file: skill.file,
            userInvocable: skill.front['user-invocable'] !== false,
            modelInvocable: skill.front['disable-model-invocation'] !== true,
            ...(skill.front['argument-hint'] ? { argumentHint: skill.front['argument-hint'].trim() } : {})
          })),
          problems: catalog.problems,
          notices: catalog.clashes
        }
      },
      invoke: async (request): Promise<PluginCommandResult> => {
        const skill = this.catalog(request.workspace).skills.find((s) => s.name === request.name)
        if (!skill) throw new Error(`Unknown skill: ${request.name}`)
        const agent = this.agents.get(request.sessionId)
        this.usage.record(skill.name)
        const source = skill.scope === 'plugin' ? 'plugin' : skill.workspaceContent ? 'project' : 'user'
        if (skill.front.context === 'fork') {
          if (!agent) throw new Error(`/${skill.name} runs as a subagent, which needs a running session`)
          const result = await this.runForked(skill, request.args, agent, `skill:${skill.name}`, agent.turnSignal)
          return { kind: 'prompt', source, content: `${result.content}` }
        }
        const text = await this.render(skill, request.args, agent, request.sessionId, request.workspace)
        const allowedTools = this.approvedAllowedTools(skill, agent)
        return {
          kind: 'prompt',
          source,
          content: text,
          ...(skill.front.model ? { model: skill.front.model } : {}),
          ...(allowedTools.length ? { allowedTools } : {})
        }
      }
    }
  }

  /** A skill of the workspace whose shell lines or allowed-tools act with the user's rights: the trust dialog lists it and approval pins its text. */
  trustItems(workspace: string): TrustItem[] {
    return this.catalog(workspace).skills.flatMap((skill) => trustItemOf(skill) ?? [])
  }

  /** A project skill added or edited since the last read may be unapproved now: the host's badge counts it again. */
  private noticeTrustChanges(catalog: SkillCatalog): void {
    const key = JSON.stringify(catalog.skills.flatMap((skill) => trustItemOf(skill) ?? []))
    if (this.trustKey !== undefined && key !== this.trustKey) this.ctx.maybe('workspace')?.itemsChanged()
    this.trustKey = key
  }

  /** A workspace skill that acts with the user's rights is approved (its text pinned); any other skill is. */
  private isApproved(skill: Skill): boolean {
    const item = trustItemOf(skill)
    const service = this.ctx.maybe('workspace')
    return !item || !service || service.isApproved(item)
  }

  private async render(skill: Skill, args: string, agent: AgentHandle | undefined, sessionId = agent?.sessionId ?? '', workspace = agent?.workspace ?? ''): Promise<string> {
    const service = this.ctx.maybe('workspace')
    const trusted = service ? service.trusted : false
    const approved = this.isApproved(skill)
    const keys = this.ctx.maybe('keys')
    const env = keys ? keys.childEnv({ ...process.env, ...(agent?.env ?? {}) }) : {}
    return renderSkill(skill, {
      args,
      sessionId,
      projectDir: workspace,
      trusted,
      ...((skill.front.effort ?? agent?.turnEffort) !== undefined ? { effort: skill.front.effort ?? agent?.turnEffort } : {}),
      env,
      ...(approved ? {} : { notApproved: `${skill.file} is new or changed since the workspace's items were approved; review and approve it in the workspace's trust dialog` })
    })
  }

  private async runForked(skill: Skill, args: string, agent: AgentHandle, parentToken: string, signal: AbortSignal | undefined): Promise<ToolOutput> {
    const subagents = this.ctx.maybe('subagents')
    if (!subagents) {
      throw new SkillError(`skill "${skill.name}" sets context: fork (run as a subagent), and no subagents service is loaded in this Seam (the subagents plugin is missing or disabled); nothing was run`)
    }
    const prompt = await this.render(skill, args, agent)
    const allowedTools = this.approvedAllowedTools(skill, agent)
    const front = skill.front
    const disallowedTools = front['disallowed-tools'] ?? []
    // The skill's fields act on the subagent that runs it, as they act on a turn that loads it;
    // its hooks run for that subagent only and while it runs (Claude Code: scoped to the component).
    const hooks = front.hooks !== undefined && this.hooksApproved(skill, agent) ? front.hooks : undefined
    const result = await subagents.run({
      sessionId: agent.sessionId,
      parentToken,
      agentType: front.agent ?? 'general-purpose',
      description: `skill ${skill.name}`,
      prompt,
      ...(front.model ? { model: front.model } : {}),
      ...(front.effort ? { effort: front.effort } : {}),
      ...(allowedTools.length ? { allowedTools } : {}),
      ...(disallowedTools.length ? { disallowedTools } : {}),
      ...(hooks ? { hooks: { file: skill.file, hooks, honourOnce: true, ...(skill.plugin ? { env: { CLAUDE_PLUGIN_ROOT: skill.plugin.root, CLAUDE_PLUGIN_DATA: skill.plugin.dataDir } } : {}) } } : {}),
      ...(signal ? { signal } : {})
    })
    this.usage.record(skill.name)
    return { content: result.text, isError: result.isError }
  }

  /** A workspace skill's hooks run only once the user approved its text (else said in a notice). */
  private hooksApproved(skill: Skill, agent: AgentHandle): boolean {
    if (this.isApproved(skill)) return true
    agent.notify('warn', `skill ${skill.name}: its hooks are not registered: ${skill.file} is not approved in the workspace's trust dialog`, SOURCE)
    return false
  }

  /** The skill's allowed-tools, unless it is workspace content whose text the user has not approved (then said in a notice). */
  private approvedAllowedTools(skill: Skill, agent: AgentHandle | undefined): string[] {
    const rules = skill.front['allowed-tools'] ?? []
    if (rules.length === 0) return []
    if (!this.isApproved(skill)) {
      agent?.notify('warn', `skill ${skill.name}: allowed-tools not applied: ${skill.file} is not approved in the workspace's trust dialog`, SOURCE)
      return []
    }
    return rules
  }

  /** The Skill tool's pre-approval: the skill's allowed-tools run without asking for the rest of the turn (added to any command's grant). */
  private allowTools(agent: AgentHandle, skill: Skill): void {
    const rules = this.approvedAllowedTools(skill, agent)
    const turnId = agent.currentTurnId
    if (rules.length === 0 || turnId === undefined) return
    const service = this.ctx.maybe('turnPermissions')
    if (!service) {
      agent.notify('warn', `skill ${skill.name}: allowed-tools not applied: this host has no turnPermissions service`, SOURCE)
      return
    }
    const current = service.allowedFor(agent.sessionId, turnId)
    const label = current ? `${current.command} and skill ${skill.name}` : `skill ${skill.name}`
    const key = `${agent.sessionId}\u0000${turnId}`
    this.grants.get(key)?.()
    this.grants.set(key, service.grant(agent.sessionId, turnId, label, [...(current?.rules ?? []), ...rules]))
  }

  /** A skill with `paths` is listed once the session has touched a file one of its globs matches. */
  private pathsAllow(skill: Skill, agent: AgentHandle): boolean {
    const globs = skill.front.paths
    if (!globs?.length) return true
    const match = picomatch(globs, { dot: true })
    return agent.events.some((event) => {
      if (event.type !== 'tool/call') return false
      const path = event.args.file_path ?? event.args.path ?? event.args.notebook_path
      if (typeof path !== 'string') return false
      const relative = path.startsWith(`${agent.workspace}/`) ? path.slice(agent.workspace.length + 1) : path
      return match(relative)
    })
  }

  private reportProblems(agent: AgentHandle, catalog: SkillCatalog): void {
    const lines = [
      ...catalog.problems.map((p) => `skill ${p.name} skipped: ${p.file}: ${p.message}`),
      ...catalog.clashes,
      ...(this.usage.problem ? [this.usage.problem] : [])
    ]
    for (const line of lines) if (!agent.events.some((e) => e.type === 'notice' && e.source === SOURCE && e.text === line)) agent.notify('warn', line, SOURCE)
  }
}

/** The model's context window as the last request learnt it from the model table. */
function lastContextWindow(agent: AgentHandle): number | undefined {
  const events = agent.events
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'usage/step' && event.contextWindow) return event.contextWindow
  }
  return undefined
}

/** The listing the model has now (since the last compaction), if any. */
function lastListing(agent: AgentHandle): string | undefined {
  const events = agent.events
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'compaction') return undefined
    if (event.type === 'context/message' && event.source === SOURCE) return event.text
  }
  return undefined
}
