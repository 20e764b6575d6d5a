// One step: one model request built from the log alone, the assistant message it streams, and
// the tool calls it asks for (S17, S19). Deltas are live pushes; the log keeps the final message.
import type { Kernel } from '../../src-shared/kernel'
import type { ToolRegistry } from '../../src-shared/host/services'
import type { SubagentIdentity } from '../../src-shared/host/extensions'
import type { HostExecuteOptions } from '../tools/pipeline'
import type { SealedCall, ToolCallRequest, ToolExecutionResult } from '../../src-shared/host/tools'
import type { ModelClient, ModelMessage, ModelRequest, ModelToolCall, ModelToolSpec, ReasoningEffort } from '../../src-shared/model'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'
import type { SessionLog } from '../session/store'
import type { ModelInfo } from '../llm/model-table'
import { IncrementalHistory } from '../session/history'
import { historyOf, type HistoryView } from '../session/history-cache'
import type { AgentHandleImpl } from './handle'
import type { Inbox } from './inbox'
import type { AgentSettings } from './settings'
import { readModelStream, StreamAbortedError, StreamAborts } from './stream'
import { runCalls, type CallRunner } from './tool-calls'
import { logUsage } from './usage'
import './events'

/** An event of the loop's own before the log gives it seq and ts; optional fields are set only when present. */
type EventDraft<T extends SessionEvent['type']> = Omit<SessionEventOf<T>, 'seq' | 'ts'>

/** What the loop works with; shared by the agent, its turns and their steps. */
export interface LoopDeps {
  readonly kernel: Kernel
  readonly log: SessionLog
  readonly model: ModelClient
  readonly handle: AgentHandleImpl
  readonly settings: AgentSettings
  readonly inbox: Inbox
  systemPrompt(): string
  tools(): ToolRegistry
  /** The context window and prices of the model in use. */
  modelInfo(): ModelInfo
  /** The effort the turn's requests ask for (a skill's `effort`); absent: the provider's default. */
  readonly effort?: ReasoningEffort
  /** The model client and info for a named model (a custom command's `model`); absent: the session's model only. */
  modelFor?(model: string): Pick<LoopDeps, 'model' | 'modelInfo'>
  /** Set for a subagent's child turn: its calls are sealed under the Agent call's token and carry who it is. */
  readonly subagent?: { parentToken: string; identity: SubagentIdentity }
}

export interface StepOutcome {
  /** The assistant's text in this step (may be empty). */
  text: string
  /** The results of the calls the model asked for, in call order; empty when it stopped on its own. */
  results: ToolExecutionResult[]
  /** The step was cut short by cancel (the partial message and every started call are logged). */
  cancelled: boolean
}

/**
 * "Model-visible means logged": a request is a function of the log alone. The system prompt and
 * the tools come from the latest model/context event; the messages from the rest of the log.
 * Pure: derives from `events` from scratch (use `buildModelRequestFor` for a live log).
 */
export function buildModelRequest(events: readonly SessionEvent[]): ModelRequest {
  return requestFrom(new IncrementalHistory().sync(events))
}

/**
 * The same request as `buildModelRequest(log.events)`, from the log's cached history: each call
 * consumes only the events appended since the previous one. The request object and its messages
 * array are the caller's own; the messages and the tool specs are frozen and shared (changing them
 * throws rather than reaching the cache or the log).
 */
export function buildModelRequestFor(log: SessionLog): ModelRequest {
  return requestFrom(historyOf(log))
}

/** The tool specs of each model/context event, copied and frozen once: every step under that context shares them. */
const toolSpecsOf = new WeakMap<SessionEventOf<'model/context'>, ModelToolSpec[]>()
const NO_TOOLS: ModelToolSpec[] = Object.freeze([]) as unknown as ModelToolSpec[]

function contextTools(context: SessionEventOf<'model/context'> | undefined): ModelToolSpec[] {
  if (context === undefined) return NO_TOOLS
  let specs = toolSpecsOf.get(context)
  if (specs === undefined) {
    specs = Object.freeze(context.tools.map((t) => Object.freeze({ ...t }))) as unknown as ModelToolSpec[]
    toolSpecsOf.set(context, specs)
  }
  return specs
}

function requestFrom(history: HistoryView): ModelRequest {
  const context = history.context
  return new StepRequest(context?.system ?? '', history.messagesLater(), contextTools(context))
}

/**
 * A step's request. Its messages are those as of now, copied when first read: building a step's
 * request stays O(1) in the history's length; reading it (a client serialising the conversation)
 * is the client's cost. `messages` is an own, enumerable accessor, so a spread copy has them; the
 * accessor pair is one for every request (an object literal's `get`/`set` made new functions and a
 * new hidden class per step: about 0.8 us of the step, issue 26), and its state is private.
 */
class StepRequest implements ModelRequest {
  #later: () => ModelMessage[]
  #messages: ModelMessage[] | undefined
  declare messages: ModelMessage[]

  static readonly #messagesProperty: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: StepRequest): ModelMessage[] {
      return (this.#messages ??= this.#later())
    },
    set(this: StepRequest, value: ModelMessage[]): void {
      this.#messages = value
    }
  }

  constructor(
    public system: string,
    later: () => ModelMessage[],
    public tools: ModelToolSpec[]
  ) {
    this.#later = later
    Object.defineProperty(this, 'messages', StepRequest.#messagesProperty)
  }
}

/** What each session's log last recorded as its model context, to skip unchanged steps cheaply. */
const loggedContext = new WeakMap<SessionLog, { key: string; system: string; specs: readonly ModelToolSpec[] }>()

/** Appends a model/context event when the system prompt or the tools differ from what the log holds. */
export function logModelContext(log: SessionLog, system: string, tools: Pick<ToolRegistry, 'specs'>, sessionId?: string): void {
  // The tools as offered to this session (a `tools/offer` guard may follow its provider).
  const specs = tools.specs(sessionId)
  const last = loggedContext.get(log)
  // The registry hands out the same spec objects until a tool is added or removed: an identical
  // prompt and identical spec objects need no serialisation at all.
  if (last && last.system === system && sameSpecs(last.specs, specs)) return
  const key = JSON.stringify([system, specs])
  let lastKey = last?.key
  if (lastKey === undefined) {
    const previous = historyOf(log).context
    lastKey = previous !== undefined ? JSON.stringify([previous.system, previous.tools]) : ''
  }
  if (key !== lastKey) log.append({ type: 'model/context', system, tools: specs })
  loggedContext.set(log, { key, system, specs })
}

function sameSpecs(a: readonly ModelToolSpec[], b: readonly ModelToolSpec[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export async function runStep(deps: LoopDeps, turnId: string, step: number, signal: AbortSignal, calls: TurnCalls = new TurnCalls(deps, turnId, signal)): Promise<StepOutcome> {
  const { kernel, log } = deps
  logModelContext(log, deps.systemPrompt(), deps.tools(), deps.handle.sessionId)
  const request = buildModelRequestFor(log)
  if (deps.effort !== undefined) request.effort = deps.effort
  const reply = await readModelStream(deps.model, request, signal, (kind, text) => kernel.emit('agent/delta', log.id, { turnId, step, kind, text }), calls.streamAborts)

  if (reply.error !== undefined) {
    // Keep what arrived. Tool calls of an unfinished stream never run, so they are not logged.
    if (reply.text || reply.thinking) {
      log.appendOwn({
        type: 'assistant/message',
        turnId,
        step,
        text: reply.text,
        ...(reply.thinking ? { thinking: reply.thinking } : {}),
        toolCalls: [],
        partial: true
      })
    }
    if (reply.error instanceof StreamAbortedError || signal.aborted) return { text: reply.text, results: [], cancelled: true }
    throw reply.error
  }

  reply.toolCalls = uniqueCallIds(reply.toolCalls)
  // The loop's own events skip the per-event zod pass (SessionLog.appendOwn): every field here was
  // checked where it came in (readModelStream, the tool pipeline's seal and normalization).
  const message: EventDraft<'assistant/message'> = { type: 'assistant/message', turnId, step, text: reply.text, toolCalls: reply.toolCalls }
  if (reply.thinking) message.thinking = reply.thinking
  if (reply.stopReason !== undefined) message.stopReason = reply.stopReason
  log.appendOwn(message)
  if (reply.usage !== undefined) logUsage(deps, turnId, step, reply.usage, 'step')
  if (reply.toolCalls.length === 0) return { text: reply.text, results: [], cancelled: false }

  const results = await calls.run(deps.tools(), reply.toolCalls)
  return { text: reply.text, results, cancelled: signal.aborted }
}

/**
 * Runs the calls of a turn's steps. What does not change from step to step (the callbacks the
 * pipeline and the call runner are handed, the streams' abort listener) is made once per turn,
 * not per step.
 */
export class TurnCalls {
  private tools: ToolRegistry | undefined
  /** The step being run has a single call (nothing else is sealed with it). */
  private oneCall = false
  private readonly options: HostExecuteOptions
  private readonly runner: CallRunner<ModelToolCall, ToolExecutionResult>
  private readonly moveCwd: (dir: string) => string
  /** The abort listener of the turn's model streams. */
  readonly streamAborts: StreamAborts

  constructor(
    private readonly deps: LoopDeps,
    private readonly turnId: string,
    private readonly signal: AbortSignal
  ) {
    const { log, handle } = deps
    this.streamAborts = new StreamAborts(signal)
    this.moveCwd = (dir) => handle.moveCwd(dir)
    this.options = {
      onSealed: (sealed) => {
        // Optional fields set only when present (no spread of a conditional object per call).
        const event: EventDraft<'tool/call'> = { type: 'tool/call', turnId, callId: sealed.callId, token: sealed.token, name: sealed.name, args: sealed.args }
        if (sealed.originalArgs) event.originalArgs = sealed.originalArgs
        if (sealed.rewrittenBy) event.rewrittenBy = sealed.rewrittenBy
        if (sealed.parent) event.parent = sealed.parent
        log.appendOwn(event)
        // In the file before anything the call does: a crash of Seam mid-tool leaves the call in the
        // log. A tool declared free of side effects rides the next group write instead.
        if (this.tools?.get(sealed.name)?.sideEffects === false) return undefined
        // The one call of a step is written at once; the concurrent calls of a step sealed
        // together share one write at the end of the current run of microtasks.
        if (this.oneCall) return log.writeNow()
        return log.written()
      },
      // On the device before the world changes, for a tool that declares side effects: a power loss
      // cannot keep what the tool did (a command's effects outside this machine) and lose the call.
      // This comes after policy and the execute wrappers, so a denied call syncs nothing and the
      // checkpoints wrapper's sync (the file's content before the change) covers the call too.
      beforeRun: (sealed) => (this.tools?.get(sealed.name)?.sideEffects === true ? log.flush({ durable: true }) : undefined),
      record: (event) => void log.append(event)
    }
    this.runner = {
      limit: deps.settings.maxParallelToolCalls,
      signal,
      // An unknown tool has no body to overlap with; the registry answers it at once.
      concurrent: (call) => {
        const definition = this.tools?.get(call.name)
        return definition === undefined || definition.concurrent === true
      },
      run: (call) => (this.tools as ToolRegistry).execute(this.request(call), this.options),
      skip: async (call) => notStarted(call, log.id, turnId, handle.cwd)
    }
  }

  /** Runs one step's calls with `tools`; logs their results in call order, then the context they carried (S17). */
  async run(tools: ToolRegistry, calls: ModelToolCall[]): Promise<ToolExecutionResult[]> {
    const { log } = this.deps
    this.tools = tools
    this.oneCall = calls.length === 1
    const outcome = await runCalls(calls, this.runner)
    const results: ToolExecutionResult[] = []
    for (let index = 0; index < outcome.results.length; index++) {
      const result = outcome.results[index]
      if (!result) continue
      results.push(result)
      const { code, structured } = result.result
      const event: EventDraft<'tool/result'> = {
        type: 'tool/result',
        turnId: this.turnId,
        callId: calls[index].id,
        token: result.call.token,
        name: result.call.name,
        content: result.result.content,
        isError: result.result.isError,
        verdict: result.verdict,
        durationMs: Math.max(0, result.durationMs)
      }
      if (code !== undefined) event.code = code
      if (structured !== undefined) event.structured = structured
      log.appendOwn(event)
    }
    // S17: buffered context goes after all of the step's results, never between them.
    for (const result of results) {
      for (const text of result.additionalContext) log.append({ type: 'context/message', turnId: this.turnId, text, source: `tool:${result.call.name}` })
    }
    if (outcome.errors.length > 0) throw outcome.errors[0]
    return results
  }

  private request(call: ModelToolCall): ToolCallRequest {
    const { kernel, log, handle, subagent } = this.deps
    const turnId = this.turnId
    const request: ToolCallRequest = {
      name: call.name,
      // A call whose arguments did not parse still goes through the registry: handing it the parse
      // error instead of an object makes it fail INVALID_ARGS, so the call gets a logged result
      // (and the tool never runs with the `{}` the adapter put in place of the arguments).
      args: call.argsError === undefined ? call.args : call.argsError,
      callId: call.id,
      sessionId: handle.sessionId,
      turnId,
      signal: this.signal,
      cwd: handle.cwd,
      moveCwd: this.moveCwd,
      // The handle's snapshot is frozen: shared, not copied per call.
      env: handle.env as Record<string, string>,
      progress: (update) => kernel.emit('agent/tool-progress', log.id, { ...update, turnId, callId: call.id })
    }
    if (subagent) {
      request.parent = subagent.parentToken
      request.agent = subagent.identity
    }
    return request
  }
}

/**
 * Results pair with calls by id, so ids must be unique within a step. A model (or an adapter)
 * that repeats one gets the repeat renamed `<id>_<n>`, avoiding every id of the step; the
 * logged assistant message carries the new id, so the history the model sees stays paired.
 */
function uniqueCallIds(calls: ModelToolCall[]): ModelToolCall[] {
  if (calls.length < 2) return calls
  const taken = new Set(calls.map((call) => call.id))
  if (taken.size === calls.length) return calls
  const seen = new Set<string>()
  return calls.map((call) => {
    if (!seen.has(call.id)) {
      seen.add(call.id)
      return call
    }
    let n = 2
    while (taken.has(`${call.id}_${n}`)) n++
    const id = `${call.id}_${n}`
    taken.add(id)
    return { ...call, id }
  })
}

/**
 * The result of a call that never started because the turn was cancelled while it waited for a
 * slot. It never entered the pipeline (no policy ran, no hook saw it), so it has no token.
 */
function notStarted(call: ModelToolCall, sessionId: string, turnId: string, cwd: string): ToolExecutionResult {
  const sealed: SealedCall = Object.freeze({ name: call.name, args: {}, token: '', callId: call.id, sessionId, turnId, cwd })
  return {
    call: sealed,
    result: { content: `Tool "${call.name}" was not run: the turn was cancelled before it started.`, isError: true, code: 'CANCELLED' },
    verdict: { outcome: 'denied', stage: 'seal', reason: 'cancelled before it started' },
    additionalContext: [],
    durationMs: 0
  }
}
