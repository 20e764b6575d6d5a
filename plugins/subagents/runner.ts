// Starting a subagent: pick its definition, check the depth and concurrency caps, work out its
// tools, model and system prompt, and run its child turn through the host's `childTurns`.
import { randomBytes } from 'node:crypto'
import type { ChildTurnService, SubagentRunRequest, SubagentRunResult } from '@seam/sdk'
import type { AgentDefinition } from './definitions'
import { toolAccess, type ToolAccess } from './tool-access'

/** A subagent that is running, by the token of the Agent call that started it (its calls' parent). */
export interface RunningAgent {
  agentId: string
  agentType: string
  depth: number
  access: ToolAccess
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
}

export async function runSubagent(context: RunContext, request: SubagentRunRequest): Promise<SubagentRunResult> {
  const { caller } = context
  const available = context.agents.filter((agent) => !caller?.access.spawnable || caller.access.spawnable.includes(agent.name))
  const agent = findAgent(available, request.agentType)
  if (!agent) {
    throw new SubagentError(`Agent type '${request.agentType}' not found. Available agents: ${available.map((a) => a.name).join(', ')}`)
  }
  const depth = (caller?.depth ?? 0) + 1
  if (depth > context.maxDepth) throw new SubagentError(`Subagents may nest ${context.maxDepth} level(s) deep (subagents.maxDepth); this one would be level ${depth}`)
  const release = await context.slots.take(request.signal)
  const agentId = newAgentId()
  const access = toolAccess(agent, { canSpawn: depth < context.maxDepth, ...(request.allowedTools ? { narrowedTo: request.allowedTools } : {}) })
  context.running.set(request.parentToken, { agentId, agentType: agent.name, depth, access })
  try {
    const environment = context.childTurns.environment(request.sessionId)
    const systemPrompt = environment ? `${agent.prompt}\n\n${environment}` : agent.prompt
    const model = request.model && request.model !== 'inherit' ? request.model : agent.model && agent.model !== 'inherit' ? agent.model : undefined
    const outcome = await context.childTurns.run({
      sessionId: request.sessionId,
      parentToken: request.parentToken,
      agent: { agentId, agentType: agent.name },
      description: request.description,
      systemPrompt,
      prompt: request.prompt,
      allowTool: (name) => access.allows(name),
      ...(model ? { model } : {}),
      ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}),
      ...(request.signal ? { signal: request.signal } : {})
    })
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
      model: outcome.model
    }
  } finally {
    context.running.delete(request.parentToken)
    release()
  }
}
