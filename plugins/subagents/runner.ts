// Starting a subagent: pick its definition, check the depth and concurrency caps, work out its
// tools, model and system prompt, and run its child turn through the host's `childTurns`.
import { randomBytes } from 'node:crypto'
import type { ApprovalMode, ChildTurnService, SubagentRunRequest, SubagentRunResult, WorktreeRecord, WorktreeService } from '@seam/sdk'
import type { AgentDefinition } from './definitions'
import { applyAgentFields, type AgentFieldServices } from './agent-fields'
import { toolAccess, type ToolAccess } from './tool-access'

/** A subagent that is running, by the token of the Agent call that started it (its calls' parent). */
export interface RunningAgent {
  agentId: string
  agentType: string
  depth: number
  access: ToolAccess
  /** `Tool(specifier)` rules its caller took away (a forked skill's `disallowed-tools`): a matching call is refused. */
  refusedCalls?: readonly string[]
}

export class SubagentError extends Error {}

/** Claude Code's tool result for a call the user interrupted. */
export const INTERRUPTED_TEXT = '[Request interrupted by user for tool use]'

/** Claude Code compares `subagent_type` case- and separator-insensitively (2.1.140). */
export function findAgent(agents: readonly AgentDefinition[], type: string): AgentDefinition | undefined {
  const exact = agents.find((agent) => agent.name === type)
  if (exact) return exact
  const key = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '')
  return agents.find((agent) => key(agent.name) === key(type))
}

export function newAgentId(): string {
  return `a${randomBytes(8).toString('hex')}`
}

/** A counting gate: at most `limit` holders; waiting is abortable. */
export class Slots {
  private used = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly limit: () => number) {}

  async take(signal: AbortSignal | undefined): Promise<() => void> {
    while (this.used >= this.limit()) {
      if (signal?.aborted) throw new SubagentError('cancelled while waiting for a subagent slot')
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener('abort', wake)
          resolve()
        }
        this.waiting.push(wake)
        signal?.addEventListener('abort', wake, { once: true })
      })
    }
    this.used++
    let released = false
    return () => {
      if (released) return
      released = true
      this.used--
      this.waiting.shift()?.()
    }
  }
}

export interface RunContext {
  childTurns: ChildTurnService
  agents: readonly AgentDefinition[]
  /** The running agent that makes this call (its Agent call's token is this call's parent), if any. */
  caller: RunningAgent | undefined
  maxDepth: number
  running: Map<string, RunningAgent>
  slots: Slots
  /** The workspace (where an isolated agent's worktree is made from). */
  workspace: string
  /** For `isolation: worktree` (plugins/worktrees). */
  worktrees?: WorktreeService
  /** Lets the session's tools work in (or stops them working in) a folder outside the workspace: an isolated agent's worktree. */
  sessionFolder?(sessionId: string, folder: string, allowed: boolean): void
  /** What applies the agent file's `skills`, `mcpServers` and `hooks`, and tells the calling session what could not be. */
  fields(sessionId: string): AgentFieldServices
}

/** How a run goes beyond the request: its id chosen ahead (a background launch names it first), an isolation asked by the call. */
export interface RunOptions {
  agentId?: string
  isolation?: 'worktree'
  /** A background launch's output file (recorded with the agent's start). */
  outputFile?: string
}

/** The definition a request names, among those its caller may start, within the depth cap. */
export function resolveAgent(context: RunContext, request: Pick<SubagentRunRequest, 'agentType'>): { agent: AgentDefinition; depth: number } {
  const { caller } = context
  const available = context.agents.filter((agent) => !caller?.access.spawnable || caller.access.spawnable.includes(agent.name))
  const agent = findAgent(available, request.agentType)
  if (!agent) {
    throw new SubagentError(`Agent type '${request.agentType}' not found. Available agents: ${available.map((a) => a.name).join(', ')}`)
  }
  const depth = (caller?.depth ?? 0) + 1
  if (depth > context.maxDepth) throw new SubagentError(`Subagents may nest ${context.maxDepth} level(s) deep (subagents.maxDepth); this one would be level ${depth}`)
  return { agent, depth }
}

export async function runSubagent(context: RunContext, request: SubagentRunRequest, options: RunOptions = {}): Promise<SubagentRunResult> {
  const { agent, depth } = resolveAgent(context, request)
  const release = await context.slots.take(request.signal)
  const agentId = options.agentId ?? newAgentId()
  let isolated: Isolated | undefined
  try {
    if ((options.isolation ?? agent.isolation) === 'worktree') isolated = await makeWorktree(context, request.sessionId, agentId)
  } catch (error) {
    release()
    throw error
  }
  let fields
  try {
    fields = await applyAgentFields(context.fields(request.sessionId), agent, { sessionId: request.sessionId, agentId, workspace: context.workspace }, request.hooks)
  } catch (error) {
    if (isolated) await keepIfChanged(isolated, request.sessionId).catch(() => undefined)
    release()
    throw error
  }
  const denied = [...(agent.disallowedTools ?? []), ...(request.disallowedTools ?? [])]
  const access = toolAccess({ ...agent, disallowedTools: denied }, { canSpawn: depth < context.maxDepth, servers: fields.servers, ...(request.allowedTools ? { narrowedTo: request.allowedTools } : {}) })
  const refusedCalls = (request.disallowedTools ?? []).filter((rule) => rule.includes('('))
  context.running.set(request.parentToken, { agentId, agentType: agent.name, depth, access, ...(refusedCalls.length ? { refusedCalls } : {}) })
  try {
    const environment = context.childTurns.environment(request.sessionId, isolated?.worktree.path)
    const systemPrompt = environment ? `${agent.prompt}\n\n${environment}` : agent.prompt
    const model = request.model && request.model !== 'inherit' ? request.model : agent.model && agent.model !== 'inherit' ? agent.model : undefined
    const effort = request.effort ?? agent.effort
    const outcome = await context.childTurns.run({
      sessionId: request.sessionId,
      parentToken: request.parentToken,
      agent: { agentId, agentType: agent.name, ...(approvalMode(agent.permissionMode) ? { permissionMode: approvalMode(agent.permissionMode) } : {}) },
      description: request.description,
      systemPrompt,
      prompt: request.prompt,
      allowTool: (name) => access.allows(name),
      ...(model ? { model } : {}),
      ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}),
      ...(isolated ? { cwd: isolated.worktree.path } : {}),
      ...(fields.skills.length ? { skills: fields.skills } : {}),
      ...(options.outputFile !== undefined ? { backgroundOutputFile: options.outputFile } : {}),
      ...(effort !== undefined ? { effort } : {}),
      ...(request.signal ? { signal: request.signal } : {})
    })
    const kept = isolated ? await keepIfChanged(isolated, request.sessionId) : undefined
    const failed = outcome.reason !== 'completed'
    const why = outcome.reason === 'max_steps' ? `reached its turn limit (${outcome.steps})` : `failed: ${outcome.error ?? outcome.reason}`
    // A stopped subagent (its card's Stop, or the parent's cancel) answers as Claude Code answers an interrupted tool call.
    const text = outcome.reason === 'cancelled' ? INTERRUPTED_TEXT : failed && outcome.text === '' ? `Subagent ${agent.name} ${why}` : outcome.text
    return {
      agentId,
      agentType: agent.name,
      text,
      isError: failed && outcome.reason !== 'max_steps',
      durationMs: outcome.durationMs,
      toolUseCount: outcome.toolUseCount,
      usage: { inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens },
      model: outcome.model,
      ...(kept ? { worktree: kept } : {}),
      ...(outcome.reason === 'cancelled' ? { stopped: true } : {})
    }
  } catch (error) {
    if (isolated) await keepIfChanged(isolated, request.sessionId).catch(() => undefined)
    throw error
  } finally {
    context.running.delete(request.parentToken)
    await fields.release().catch(() => undefined)
    release()
  }
}

/**
 * An agent's `permissionMode` as the approval mode its calls run under. `auto` (Claude Code's
 * classifier mode, which Seam does not have) leaves the session's mode; `manual` asks for every call.
 */
export function approvalMode(mode: string | undefined): ApprovalMode | undefined {
  switch (mode) {
    case 'default':
      return 'ask-side-effects'
    case 'acceptEdits':
      return 'accept-edits'
    case 'bypassPermissions':
      return 'never-ask'
    case 'dontAsk':
      return 'dont-ask'
    case 'plan':
      return 'plan'
    case 'manual':
      return 'ask-all'
    default:
      return undefined
  }
}

/** `isolation: worktree`: a temporary git worktree of the workspace's repository, named after the agent. */
interface Isolated {
  service: WorktreeService
  worktree: WorktreeRecord
  release?(): void
}

async function makeWorktree(context: RunContext, sessionId: string, agentId: string): Promise<Isolated> {
  const service = context.worktrees
  if (!service) throw new SubagentError('isolation: worktree needs the worktrees plugin, which is not enabled')
  const availability = await service.availability(context.workspace)
  if (!availability.available) throw new SubagentError(`isolation: worktree: ${availability.reason}`)
  const { worktree } = await service.create({ workspace: context.workspace, sessionId, name: `agent-${agentId}` })
  // The worktree sits outside the workspace: the session's tools (the agent's) may work there.
  context.sessionFolder?.(sessionId, worktree.path, true)
  return { service, worktree, ...(context.sessionFolder ? { release: () => context.sessionFolder?.(sessionId, worktree.path, false) } : {}) }
}

/** Removed when the agent changed nothing (no file, no commit); otherwise kept and named in the result. */
async function keepIfChanged(isolated: Isolated, sessionId: string): Promise<{ path: string; branch: string } | undefined> {
  const { service, worktree } = isolated
  const diff = await service.diff(worktree)
  if (diff.files.length === 0 && diff.commits === 0) {
    isolated.release?.()
    await service.discard(worktree, { sessionId, confirmed: true })
    return undefined
  }
  return { path: worktree.path, branch: worktree.branch }
}
