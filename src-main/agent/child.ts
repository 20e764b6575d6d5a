// A subagent's child turn (the `childTurns` service): the parent session's loop, run again with
// the child's own history (a log beside the parent's, session/child-log.ts), system prompt, tool
// set and model, through the same tool pipeline. Every call the child makes is sealed with the
// Agent call's token as its parent (S9) and carries the child's identity (`SealedCall.agent`), so
// hooks get `agent_id`/`agent_type`. The parent's log records the child's start and end.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { definePlugin, type Kernel } from '../../src-shared/kernel'
import type { ChildTurnRequest, ChildTurnResult, ChildTurnService } from '../../src-shared/host/extensions'
import type { ToolRegistry } from '../../src-shared/host/services'
import type { ToolCallRequest, ToolExecutionResult } from '../../src-shared/host/tools'
import { childLogFileName, createChildLog } from '../session/child-log'
import { AgentHandleImpl } from './handle'
import { Inbox } from './inbox'
import type { LoopDeps } from './step'
import { Turn } from './turn'
import type { SessionEvent } from '../../src-shared/session/events'

/** What a child turn needs of its parent: the loop's dependencies as the parent's turn has them. */
export interface ChildParent {
  deps(): LoopDeps
  /** The parent's working directory now. */
  readonly cwd: string
  readonly workspace: string
}

/** Running agents by kernel and session id: how the service finds the parent loop of a call. */
const parents = new WeakMap<Kernel, Map<string, ChildParent>>()

/** Running child turns by kernel and agent id: what the UI's Stop on a subagent card cancels. */
const runningChildren = new WeakMap<Kernel, Map<string, { sessionId: string; stop(): void }>>()

/**
 * Stops one running subagent of a session (its child turn is cancelled; the parent's Agent call
 * then ends with Claude Code's interrupted result and the parent's turn goes on). False when no
 * such subagent is running.
 */
export function stopChildTurn(kernel: Kernel, sessionId: string, agentId: string): boolean {
  const child = runningChildren.get(kernel)?.get(agentId)
  if (!child || child.sessionId !== sessionId) return false
  child.stop()
  return true
}

export function attachChildParent(kernel: Kernel, sessionId: string, parent: ChildParent): () => void {
  let bySession = parents.get(kernel)
  if (!bySession) parents.set(kernel, (bySession = new Map()))
  bySession.set(sessionId, parent)
  return () => {
    if (bySession.get(sessionId) === parent) bySession.delete(sessionId)
  }
}

/** Provides `childTurns` for the agents of this kernel. */
export const childTurnsPlugin = definePlugin({
  name: 'child-turns',
  apply(ctx) {
    const kernel = ctx.kernel
    const parentOf = (sessionId: string): ChildParent => {
      const parent = parents.get(kernel)?.get(sessionId)
      if (!parent) throw new Error(`no running session ${sessionId} to start a subagent in`)
      return parent
    }
    const service: ChildTurnService = {
      run: (request) => runChildTurn(parentOf(request.sessionId), request),
      environment(sessionId, cwd) {
        const parent = parents.get(kernel)?.get(sessionId)
        return parent ? environmentDetails(cwd ?? parent.cwd) : undefined
      }
    }
    ctx.provide('childTurns', service)
  }
})

/**
 * Claude Code gives a subagent its own prompt plus environment details, not the main system
 * prompt (claude-code-extensions.md 1(a) "Body").
 */
export function environmentDetails(cwd: string, now: Date = new Date()): string {
  return [
    'Here is useful information about the environment you are running in:',
    '<env>',
    `Working directory: ${cwd}`,
    `Is directory a git repo: ${insideGitRepo(cwd) ? 'Yes' : 'No'}`,
    `Platform: ${process.platform}`,
    `Today's date: ${now.toISOString().slice(0, 10)}`,
    '</env>'
  ].join('\n')
}

function insideGitRepo(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return true
    if (dirname(current) === current) return false
  }
}

export async function runChildTurn(parent: ChildParent, request: ChildTurnRequest): Promise<ChildTurnResult> {
  const started = performance.now()
  const parentDeps = parent.deps()
  const { kernel } = parentDeps
  const parentLog = parentDeps.log
  const { agentId, agentType } = request.agent
  const identity = { ...request.agent, description: request.description }
  const parentTurnId = parentDeps.handle.currentTurnId
  const turnField = parentTurnId !== undefined ? { turnId: parentTurnId } : {}
  const log = createChildLog(parentLog, agentId, parent.workspace, request.description)
  parentLog.append({
    type: 'subagent/start',
    ...turnField,
    token: request.parentToken,
    agentId,
    agentType,
    description: request.description,
    file: childLogFileName(parentLog.path, agentId),
    ...(request.backgroundOutputFile !== undefined ? { background: true, outputFile: request.backgroundOutputFile } : {})
  })
  let turn: Turn | undefined
  const handle = new AgentHandleImpl(log, parent.workspace, () => turn, () => parentDeps.handle.env, {
    sessionId: parentDeps.handle.sessionId,
    subagent: identity,
    cwd: request.cwd ?? parent.cwd
  })
  let models: Pick<LoopDeps, 'model' | 'modelInfo'> = { model: parentDeps.model, modelInfo: parentDeps.modelInfo }
  let modelProblem: string | undefined
  if (request.model !== undefined) {
    try {
      if (!parentDeps.modelFor) throw new Error('this host cannot switch models for a subagent')
      models = parentDeps.modelFor(request.model)
    } catch (error) {
      modelProblem = `The subagent asked for the model "${request.model}" and runs with the session's model instead: ${(error as Error).message}`
    }
  }
  const deps: LoopDeps = {
    kernel,
    log,
    handle,
    model: models.model,
    modelInfo: models.modelInfo,
    settings: { ...parentDeps.settings, maxSteps: request.maxTurns ?? parentDeps.settings.maxSteps },
    inbox: new Inbox(() => {}),
    systemPrompt: () => request.systemPrompt,
    tools: () => childTools(parentDeps.tools(), request),
    subagent: { parentToken: request.parentToken, identity },
    ...(request.effort !== undefined ? { effort: request.effort } : {})
  }
  turn = new Turn(deps, `${agentId}/turn-1`, async (opened) => {
    if (modelProblem !== undefined) log.append({ type: 'notice', turnId: opened.id, level: 'warn', text: modelProblem, source: 'subagents' })
    // The agent's preloaded skills (its `skills` field): their whole messages, before its task.
    for (const skill of request.skills ?? []) log.append({ type: 'skill/loaded', turnId: opened.id, skill: skill.skill, file: skill.file, args: '', trigger: 'preload', text: skill.text })
    log.append({ type: 'user/message', turnId: opened.id, content: request.prompt, source: 'user' })
    // SubagentStart: cannot block; listeners add context to the child's history (handle.inject).
    await kernel.parallelObserved('agent/subagent-start', handle.listenerFailureNotice('agent/subagent-start'), handle, request.agent)
  })
  const cancel = (): void => turn?.cancel()
  if (request.signal?.aborted) cancel()
  request.signal?.addEventListener('abort', cancel, { once: true })
  // The child's events, live, for the UI's nested transcript and ACP's progress updates.
  const parentSessionId = parentDeps.handle.sessionId
  const stopForwarding = log.onAppend((event) => kernel.emit('agent/subagent-appended', parentSessionId, identity, event))
  let children = runningChildren.get(kernel)
  if (!children) runningChildren.set(kernel, (children = new Map()))
  children.set(agentId, { sessionId: parentSessionId, stop: cancel })
  try {
    const end = await turn.run()
    const outcome = summarize(log.events, end.reason, end.steps, models.model.model, log.path, performance.now() - started, end.error)
    parentLog.append({
      type: 'subagent/end',
      ...turnField,
      token: request.parentToken,
      agentId,
      reason: outcome.reason,
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      steps: outcome.steps,
      toolUseCount: outcome.toolUseCount,
      durationMs: outcome.durationMs,
      usage: outcome.usage,
      ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}),
      model: outcome.model
    })
    return outcome
  } finally {
    children.delete(agentId)
    request.signal?.removeEventListener('abort', cancel)
    // close() writes what is pending at once; the turn's end sync it waits for runs on in the
    // background, as a session's own turn's does (the parent is not held for an fdatasync).
    const closed = log.close()
    stopForwarding()
    closed.catch((error: unknown) => {
      try {
        parentLog.append({ type: 'notice', ...turnField, level: 'warn', text: `subagent ${agentId}: its log could not be closed: ${(error as Error).message}`, source: 'subagents' })
      } catch {
        // The parent's log is closed too: nothing left to tell.
      }
    })
  }
}

function summarize(
  events: readonly SessionEvent[],
  reason: ChildTurnResult['reason'],
  steps: number,
  model: string,
  logPath: string,
  durationMs: number,
  error: string | undefined
): ChildTurnResult {
  let text = ''
  let toolUseCount = 0
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
  let costUsd: number | undefined
  for (const event of events) {
    if (event.type === 'assistant/message' && event.text !== '') text = event.text
    else if (event.type === 'tool/result') toolUseCount++
    else if (event.type === 'usage/step') {
      usage.inputTokens += event.usage.inputTokens
      usage.outputTokens += event.usage.outputTokens
      usage.cachedInputTokens += event.usage.cachedInputTokens
      if (event.costUsd !== undefined) costUsd = (costUsd ?? 0) + event.costUsd
    }
  }
  return {
    text,
    reason,
    ...(error !== undefined ? { error } : {}),
    steps,
    toolUseCount,
    usage,
    ...(costUsd !== undefined ? { costUsd } : {}),
    durationMs,
    model,
    logPath
  }
}

/** The registry as the child sees it: only the tools it may call are listed, and a call to another is refused as Claude Code refuses an unavailable tool. */
function childTools(base: ToolRegistry, request: ChildTurnRequest): ToolRegistry {
  // The child's own tools (its agent file's MCP servers, registered for its agent id) are in its set too.
  const { agentId } = request.agent
  return {
    register: (tool, options) => base.register(tool, options),
    get: (name) => (request.allowTool(name) ? base.get(name, agentId) : undefined),
    list: () => base.list().filter((tool) => request.allowTool(tool.name)),
    specs: (sessionId?: string) => base.specs(sessionId, agentId).filter((spec) => request.allowTool(spec.name)),
    guard: (guard) => base.guard(guard),
    execute: (call, options) => (request.allowTool(call.name) ? base.execute(call, options) : Promise.resolve(unavailable(call)))
  }
}

function unavailable(request: ToolCallRequest): ToolExecutionResult {
  return {
    call: Object.freeze({ name: request.name, args: {}, token: '', callId: request.callId, sessionId: request.sessionId, cwd: request.cwd, ...(request.turnId ? { turnId: request.turnId } : {}) }),
    result: { content: `No such tool available: ${request.name}`, isError: true, code: 'UNKNOWN_TOOL' },
    verdict: { outcome: 'denied', stage: 'seal', reason: `not among the subagent's tools` },
    additionalContext: [],
    durationMs: 0
  }
}
