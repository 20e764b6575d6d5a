// What an agent file brings with it beyond its prompt and tools (claude-code-extensions.md 1(a)):
// `skills` preloaded whole into its history, its own `mcpServers` (configured ones by name, or
// inline definitions started for it alone) and its `hooks`, active only while it runs. Each is
// set up before the child turn starts and undone when it ends. What cannot be applied is a notice
// in the calling session naming the agent file, never a silent drop.
import type {} from '../skills/index'
import type {} from '../mcp/index'
import type { Services, SubagentRunRequest } from '@seam/sdk'
import type { AgentDefinition } from './definitions'

export interface AgentFieldServices {
  skills?: Services['skills']
  mcp?: Services['mcp']
  hooks?: Services['scopedHooks']
  /** A notice in the calling session's transcript. */
  notify(level: 'warn' | 'error', text: string): void
}

export interface AppliedFields {
  /** The preloaded skills' messages, in the order the agent names them. */
  skills: Array<{ skill: string; file: string; text: string }>
  /** The MCP servers whose tools the agent may call even outside its `tools` list. */
  servers: string[]
  /** Stops its own servers and removes its hooks. */
  release(): Promise<void>
}

/** `extraHooks`: hooks its caller adds for this run (a forked skill's `hooks`), scoped to the agent as its own are. */
export async function applyAgentFields(services: AgentFieldServices, agent: AgentDefinition, ids: { sessionId: string; agentId: string; workspace: string }, extraHooks?: SubagentRunRequest['hooks']): Promise<AppliedFields> {
  const where = agent.file ? `Agent file ${agent.file}` : `Agent ${agent.name}`
  const undo: Array<() => Promise<void> | void> = []
  const release = async (): Promise<void> => {
    for (const step of undo.splice(0).reverse()) await step()
  }
  try {
    const hooks = agent.hooks ? scopeHooks(services, { file: agent.file ?? agent.name, hooks: agent.hooks }, where, ids) : undefined
    if (hooks) undo.push(hooks)
    const callerHooks = extraHooks ? scopeHooks(services, { ...extraHooks, honourOnce: extraHooks.honourOnce ?? true }, extraHooks.file, ids) : undefined
    if (callerHooks) undo.push(callerHooks)
    const servers = agent.mcpServers?.length ? await startServers(services, agent, where, ids, undo) : []
    const skills = agent.skills?.length ? await preloadSkills(services, agent.skills, where, ids) : []
    return { skills, servers, release }
  } catch (error) {
    await release()
    throw error
  }
}

function scopeHooks(services: AgentFieldServices, request: NonNullable<SubagentRunRequest['hooks']>, where: string, ids: { sessionId: string; agentId: string }): (() => void) | undefined {
  if (!services.hooks) {
    services.notify('warn', `${where}: its hooks do not run: the Claude Code hooks plugin is not loaded`)
    return undefined
  }
  const scoped = services.hooks.add({ ...request, sessionId: ids.sessionId, agentId: ids.agentId })
  for (const problem of scoped.problems) services.notify('warn', `${where}: hooks: ${problem}`)
  return () => scoped.remove()
}

async function startServers(services: AgentFieldServices, agent: AgentDefinition, where: string, ids: { sessionId: string; agentId: string }, undo: Array<() => Promise<void> | void>): Promise<string[]> {
  const declared = agent.mcpServers ?? []
  const mcp = services.mcp
  if (!mcp) {
    services.notify('warn', `${where}: MCP servers ${declared.map((s) => `"${s.name}"`).join(', ')} not started: the MCP plugin is not loaded`)
    return []
  }
  const servers: string[] = []
  const configured = mcp.servers().filter((server) => server.agentId === undefined && (server.sessionId === undefined || server.sessionId === ids.sessionId))
  for (const { name } of declared.filter((server) => server.entry === undefined)) {
    const server = configured.find((candidate) => candidate.name === name)
    if (!server) {
      services.notify('warn', `${where}: MCP server "${name}" is not configured (configured: ${configured.map((s) => s.name).join(', ') || 'none'}); the agent runs without it`)
      continue
    }
    if (server.state !== 'connected') services.notify('warn', `${where}: MCP server "${name}" is ${server.state}${server.reason ? `: ${server.reason}` : ''}`)
    servers.push(name)
  }
  const inline = declared.filter((server) => server.entry !== undefined).map((server) => ({ name: server.name, ...server.entry }))
  if (inline.length > 0) {
    undo.push(() => mcp.stopForAgent(ids.agentId))
    // A Codex agent file writes its servers as config.toml's `[mcp_servers.NAME]` tables.
    const shape = agent.source.startsWith('codex-') ? 'codex' : 'mcp.json'
    const started = await mcp.startForAgent({ sessionId: ids.sessionId, agentId: ids.agentId, file: agent.file ?? agent.name, servers: inline, shape })
    for (const status of started) {
      if (status.state === 'failed') services.notify('error', `${where}: MCP server "${status.name}" failed: ${status.reason ?? 'unknown reason'}`)
      for (const problem of status.problems) services.notify('warn', `${where}: MCP server "${status.name}": ${problem}`)
      servers.push(status.name)
    }
  }
  return servers
}

async function preloadSkills(services: AgentFieldServices, names: readonly string[], where: string, ids: { sessionId: string; workspace: string }): Promise<AppliedFields['skills']> {
  if (!services.skills) {
    services.notify('warn', `${where}: skills ${names.map((name) => `"${name}"`).join(', ')} not preloaded: the skills plugin is not loaded`)
    return []
  }
  const { loaded, problems } = await services.skills.preload({ sessionId: ids.sessionId, workspace: ids.workspace, names })
  for (const problem of problems) services.notify('warn', `${where}: skill "${problem.skill}" not preloaded: ${problem.reason}`)
  return loaded
}
