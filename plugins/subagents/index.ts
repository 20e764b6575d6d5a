// @seam/subagents: Claude Code's subagents on Seam's loop. Finds agent definitions (definitions.ts),
// offers them through the `Agent` tool (`Task` accepted) and the `subagents` service, and runs each
// as a child turn of the calling session through the host's `childTurns` (own history, system
// prompt, tools and model; the same tool pipeline, with the Agent call as its calls' parent).
// Project agents are workspace code: listed in the trust dialog and pinned by content. See README.md.
import { homedir } from 'node:os'
import { definePlugin } from '@seam/sdk'
import type { AgentHandle, Context, Disposable, SubagentRunRequest, SubagentService, ToolExec } from '@seam/sdk'
import type { AgentFieldServices } from './agent-fields'
import '@seam/sdk'
import type {} from '../permission-policy/index'
import { matchesPermissionRule } from '../hook-protocol/index'
import { agentTool, agentToolDescription, DEFAULT_AGENT_TYPE, type AgentInput, type AgentRunOutcome } from './agent-tool'
import { SubagentsConfigSchema, type SubagentsConfig } from './config'
import { DefinitionCache, discoverAgents, projectTrustItems, type Discovery } from './definitions'
import { BackgroundAgents } from './background'
import { newAgentId, resolveAgent, runSubagent, Slots, SubagentError, type RunContext, type RunningAgent } from './runner'

export { SubagentsConfigSchema, type SubagentsConfig } from './config'
export { discoverAgents, DefinitionCache, projectFolders, type AgentDefinition, type Discovery } from './definitions'
export { BUILTIN_AGENTS, READ_ONLY_TOOLS } from './builtins'
export { toolAccess } from './tool-access'
export { AgentInputSchema } from './agent-tool'

export default definePlugin({
  name: 'subagents',
  schema: SubagentsConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const cache = new DefinitionCache()
    const home = config.home ?? homedir()
    const running = new Map<string, RunningAgent>()
    // The sessions' own handles (not their subagents'): where an agent file's problems are shown.
    const sessions = new Map<string, AgentHandle>()
    ctx.on('agent/session-start', (agent) => {
      if (agent.subagent === undefined) sessions.set(agent.sessionId, agent)
    })
    ctx.on('agent/session-end', (agent) => {
      if (agent.subagent === undefined && sessions.get(agent.sessionId) === agent) sessions.delete(agent.sessionId)
    })
    // A `Tool(specifier)` its caller took away (a forked skill's disallowed-tools) refuses the
    // subagent's matching calls, as the skill's rule does in the calling turn.
    ctx.guard('tools', (call) => {
      const owner = call.parent !== undefined ? running.get(call.parent) : undefined
      const rule = owner?.refusedCalls?.find((candidate) => matchesPermissionRule(candidate, call.name, { ...call.args }, { cwd: call.cwd, home: process.env.HOME || homedir() }))
      return rule !== undefined ? `${call.name} is not allowed for this subagent (its caller's disallowed-tools: ${rule})` : undefined
    })
    const fields = (sessionId: string): AgentFieldServices => {
      const skills = ctx.maybe('skills')
      const mcp = ctx.maybe('mcp')
      const hooks = ctx.maybe('scopedHooks')
      return {
        ...(skills ? { skills } : {}),
        ...(mcp ? { mcp } : {}),
        ...(hooks ? { hooks } : {}),
        notify(level, text) {
          const session = sessions.get(sessionId)
          if (session) session.notify(level, text, 'subagents')
          else ctx.logger.warn(text)
        }
      }
    }
    const slots = new Slots(() => config.maxConcurrent)

    const discover = (workspace: string): Discovery => {
      const service = ctx.maybe('workspace')
      return discoverAgents(
        {
          workspace,
          home,
          plugins: ctx.maybe('claudePlugins')?.list(workspace) ?? [],
          // Without a workspace service nothing vouches for the workspace: its agents stay off.
          approved: (item) => service?.isApproved(item) ?? false
        },
        cache
      )
    }
    const defaultWorkspace = (): string => ctx.maybe('workspace')?.root ?? process.cwd()

    const runContext = (workspace: string, caller: RunningAgent | undefined): RunContext => {
      const childTurns = ctx.maybe('childTurns')
      if (!childTurns) throw new SubagentError('this host cannot run subagents (no childTurns service)')
      const worktrees = ctx.maybe('worktrees')
      const sessionFolder = (sessionId: string, folder: string, allowed: boolean): void => {
        ctx.maybe('permissionPolicy')?.updateSession(sessionId, { type: allowed ? 'addDirectories' : 'removeDirectories', directories: [folder], destination: 'session' }, folder)
      }
      return { childTurns, agents: discover(workspace).agents, caller, maxDepth: config.maxDepth, running, slots, workspace, sessionFolder, fields, ...(worktrees ? { worktrees } : {}) }
    }
    const run = (request: SubagentRunRequest, workspace: string): ReturnType<SubagentService['run']> => runSubagent(runContext(workspace, undefined), request)
    const background = new BackgroundAgents(ctx)

    const service: SubagentService = {
      types: (workspace) =>
        discover(workspace).agents.map((agent) => ({
          name: agent.name,
          description: agent.description,
          source: agent.source,
          ...(agent.file ? { file: agent.file } : {}),
          ...(agent.tools ? { tools: agent.tools } : {}),
          ...(agent.disallowedTools ? { disallowedTools: agent.disallowedTools } : {})
        })),
      skipped: (workspace) => discover(workspace).skipped,
      run: (request) => run(request, defaultWorkspace())
    }
    ctx.provide('subagents', service)

    const runFromTool = async (input: AgentInput, exec: ToolExec): Promise<AgentRunOutcome> => {
      const caller = exec.parent !== undefined ? running.get(exec.parent) : undefined
      const context = runContext(defaultWorkspace(), caller)
      const request = {
        sessionId: exec.sessionId,
        parentToken: exec.token,
        agentType: input.subagent_type ?? DEFAULT_AGENT_TYPE,
        description: input.description,
        prompt: input.prompt,
        ...(input.model ? { model: input.model } : {})
      }
      const options = input.isolation ? { isolation: input.isolation } : {}
      const { agent } = resolveAgent(context, request)
      if (input.run_in_background === true || agent.background === true) {
        // Runs on after this call returns: its own signal (the session's end, a cancelled turn), not the call's.
        const agentId = newAgentId()
        const launched = background.launch(exec.sessionId, { agentId, agentType: agent.name, description: input.description }, (signal, outputFile) =>
          runSubagent(context, { ...request, signal }, { ...options, agentId, outputFile })
        )
        return { kind: 'launched', launched }
      }
      return { kind: 'completed', result: await runSubagent(context, { ...request, signal: exec.signal }, options) }
    }

    // The tool's description lists the agent types: re-registered when the definitions change
    // (checked when a prompt opens a turn, so an edited agent file shows up at the next prompt).
    let registered: { description: string; dispose: Disposable } | undefined
    const refresh = (workspace: string): void => {
      const description = agentToolDescription(discover(workspace).agents)
      if (registered?.description === description) return
      registered?.dispose()
      registered = { description, dispose: ctx.tools.register(agentTool(description, { run: runFromTool }, config.timeoutMs)) }
    }
    refresh(defaultWorkspace())
    ctx.on('agent/prompt-submit', async (agent, _content, _source, next) => {
      const decision = await next()
      if (decision.action === 'allow' && agent.subagent === undefined) refresh(agent.workspace)
      return decision
    })
    warnSkippedOnStart(ctx, discover)
    ctx.maybe('workspace')?.contributeTrustItems(ctx, (workspace) => projectTrustItems(workspace, cache))
  }
})

/** Each session is told once, at its start, which agent files were skipped and why. */
function warnSkippedOnStart(ctx: Context, discover: (workspace: string) => Discovery): void {
  ctx.on('agent/session-start', (agent) => {
    if (agent.subagent !== undefined) return
    for (const skipped of discover(agent.workspace).skipped) agent.notify('warn', `Agent file skipped: ${skipped.file}: ${skipped.reason}`, 'subagents')
  })
}

export type { SubagentsConfig as Config }
