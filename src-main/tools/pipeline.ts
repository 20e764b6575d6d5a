// The tool pipeline (S9-S18), one power per stage, in this order:
//
//   identity check -> tools/input-rewrite (S18) -> validate (zod) -> seal (S9) -> onSealed
//   -> tools/pre-execute (S10) -> approval on ask (S11) -> guards (S12)
//   -> tools/execute wrappers around core dispatch (S13; beforeRun, then the tool) -> tools/post-execute (S14)
//   -> tools/result (S15)
//
// Every failure on the way is an isError result (S16), and every call that got an identity,
// allowed or denied, reaches tools/post-execute and tools/result. execute() never rejects.
import type { ExecuteOptions } from '../../src-shared/host/services'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type {
  ApprovalAnswer,
  CallVerdict,
  ExecControl,
  JsonObject,
  PermissionAsk,
  PermissionRequestDecision,
  PostToolDecision,
  PreToolDecision,
  RewriteDecision,
  SealedCall,
  ToolCallRequest,
  ToolDefinition,
  ToolErrorCode,
  ToolExec,
  ToolExecutionResult,
  ToolResult,
  UnsealedCall
} from '../../src-shared/host/tools'
import { errorText, type Kernel } from '../../src-shared/kernel'
import { formatZodError } from '../../src-shared/validation'
import { ABANDONED, abandonment, type Abandonment } from './abandon'
import { permissionRequestProblem, postDecisionProblem, preDecisionProblem, rewriteDecisionProblem } from './decisions'
import { failure, materializeObject, normalizeResult } from './normalize'
import { identityProblem, reseal, seal, sealMalformed } from './seal'
import { NestedContext } from './nested-context'
import { abandonedIn, applyPostDecision, approvalDenyReason, denied, resultListenerNotice, type DecidedCall } from './verdicts'

type AnyTool = ToolDefinition<unknown>

/** The signal of a call that has none: it never aborts. */
const NEVER: AbortSignal = new AbortController().signal
const NO_OPTIONS: ExecuteOptions = Object.freeze({})
const EMPTY_ARGS: Readonly<JsonObject> = Object.freeze({})
const EMPTY_ENV: Readonly<Record<string, string>> = Object.freeze({})
const NO_CONTEXT: readonly string[] = Object.freeze([])
const ALLOWED: CallVerdict = Object.freeze({ outcome: 'allowed', stage: 'pre-execute' })

// Fallbacks of the waterfalls: shared, frozen, already resolved.
const KEEP: Promise<RewriteDecision> = Promise.resolve(Object.freeze({ action: 'keep' }))
const ALLOW: Promise<PreToolDecision> = Promise.resolve(Object.freeze({ action: 'allow' }))
const ACCEPT: Promise<PostToolDecision> = Promise.resolve(Object.freeze({ action: 'accept' }))
const keep = (): Promise<RewriteDecision> => KEEP
const allow = (): Promise<PreToolDecision> => ALLOW
const accept = (): Promise<PostToolDecision> => ACCEPT
const ASK_USER: Promise<PermissionRequestDecision> = Promise.resolve(Object.freeze({ action: 'ask' }))
const askUser = (): Promise<PermissionRequestDecision> => ASK_USER
const noProgress = (): void => {}

/** After a caller's cancel, how long a call may take to wind down before the pipeline stops waiting for it. */
export const DEFAULT_ABANDON_AFTER_CANCEL_MS = 5_000

/**
 * The host's own callers (the agent loop) may pass more than plugins can: `beforeRun` is awaited
 * after policy allowed the call and the tools/execute wrappers ran, right before the tool's own
 * execute; the loop makes the call's record durable there. A throw fails the call
 * (LISTENER_THREW) without running the tool. Not part of the plugin API.
 */
export interface HostExecuteOptions extends ExecuteOptions {
  beforeRun?(call: SealedCall): void | Promise<void>
}

/** Where the pipeline finds tools (a subagent's call: its own tools first); the registry owns them. */
export type ToolLookup = (name: string, agentId?: string) => AnyTool | undefined

/** `call`: the call as it goes on when an answer rewrote its input (PermissionRequest `updatedInput`). */
type Decided = DecidedCall & { call?: SealedCall }

/** A sealed call and its tool, or the sealed call and why it goes no further. */
type Prepared = { call: SealedCall; tool?: AnyTool; failed?: Required<DecidedCall> }

/** Who asked for a call, as it is sealed. */
type Identity = Pick<ToolCallRequest, 'name' | 'callId' | 'sessionId' | 'cwd' | 'turnId' | 'parent' | 'agent'>

export class ToolPipeline {
  private readonly nested = new NestedContext()

  constructor(
    private readonly kernel: Kernel,
    private readonly lookup: ToolLookup,
    private readonly toolNames: () => string[],
    private readonly abandonAfterCancelMs: number = DEFAULT_ABANDON_AFTER_CANCEL_MS,
    /** Why a tool is not offered to the model (the `tools/offer` guards), or undefined. */
    private readonly withheld: (name: string, sessionId?: string) => string | undefined = () => undefined
  ) {}

  async execute(request: ToolCallRequest, options: HostExecuteOptions = NO_OPTIONS): Promise<ToolExecutionResult> {
    const started = performance.now()
    let call: SealedCall | undefined
    let verdict: CallVerdict = ALLOWED
    let result: ToolResult | undefined
    // Once the caller cancels, the stages up to dispatch share one grace; post-execute gets its own.
    const given: unknown = (request as { signal?: unknown } | null | undefined)?.signal
    const signal = given instanceof AbortSignal ? given : undefined
    const abandon = abandonment(signal, this.abandonAfterCancelMs)
    try {
      // ---- identity, rewrite, validation, seal -------------------------------------------
      // The stages below answer at once (no promise, no await) when no listener is on their seam.
      let preparing = this.prepare(request, abandon)
      if (preparing instanceof Promise) preparing = await preparing
      const prepared = preparing
      call = prepared.call
      if (prepared.failed) {
        verdict = prepared.failed.verdict
        result = prepared.failed.result
      }
      if (options.onSealed) {
        try {
          const pending = options.onSealed(call)
          if (pending) await pending
        } catch (error) {
          this.kernel.reportError(error, { plugin: 'tools', phase: 'onSealed' })
          verdict = denied('seal', `recording the call failed: ${errorText(error)}`)
          result = failure('LISTENER_THREW', `Tool "${call.name}" was not run: recording the call failed: ${errorText(error)}`)
        }
      }
      // ---- policy: pre-execute, approval, guards -----------------------------------------
      if (result === undefined) {
        const decided = this.kernel.listenerCount('tools/pre-execute') > 0 ? await this.decide(call, prepared.tool, request, options, abandon) : this.guarded(call, call, ALLOWED)
        verdict = decided.verdict
        result = decided.result
        if (decided.call !== undefined) call = decided.call
      }
      // ---- dispatch ----------------------------------------------------------------------
      if (result === undefined) {
        const signal = request.signal
        if (signal !== undefined && signal.aborted) {
          result = failure('CANCELLED', `Tool "${call.name}" was not run: the call was cancelled.`)
        } else {
          this.nested.open(call)
          result = await this.dispatch(call, prepared.tool as AnyTool, request, abandon, options.beforeRun)
        }
      }
      // ---- transform, then observe -------------------------------------------------------
      abandon.dispose()
      const concluded = this.conclude(call, result, verdict, started, signal, options.record)
      return concluded instanceof Promise ? await concluded : concluded
    } catch (error) {
      // The outer boundary: a fault in the pipeline itself still ends as an isError result.
      this.kernel.reportError(error, { plugin: 'tools', phase: 'pipeline' })
      if (call) this.nested.close(call.token)
      call ??= sealMalformed(request, EMPTY_ARGS)
      const fault = failure('LISTENER_THREW', `Tool "${call.name}" failed inside the tool pipeline: ${errorText(error)}`)
      return { call, result: fault, verdict: denied('seal', errorText(error)), additionalContext: [], durationMs: performance.now() - started }
    } finally {
      abandon.dispose()
    }
  }

  // ---- stages ------------------------------------------------------------------------------

  /** Identity check, input rewrite (S18), zod validation and sealing (S9). */
  private prepare(request: ToolCallRequest, abandon: Abandonment): Prepared | Promise<Prepared> {
    const problem = identityProblem(request)
    if (problem !== undefined) {
      const args = materializeObject((request as { args?: unknown } | null)?.args)
      const call = sealMalformed(request, args.ok ? args.value : EMPTY_ARGS)
      return { call, failed: { verdict: denied('seal', problem), result: failure('INVALID_IDENTITY', `The tool call's identity is malformed: ${problem}.`) } }
    }
    const { name, callId, sessionId, cwd, turnId, parent, agent } = request
    const raw = materializeObject(request.args)
    if (!raw.ok) {
      // Text in place of arguments is the caller's account of why they are missing (the loop
      // passes the model adapter's parse error): the model reads it whole.
      const detail = typeof request.args === 'string' ? request.args : `${raw.path}: ${raw.problem}`
      const reason = `Invalid arguments for tool "${name}": ${detail}`
      const call = seal({ name, args: EMPTY_ARGS, callId, sessionId, cwd, turnId, parent, agent })
      return { call, failed: { verdict: denied('seal', reason), result: failure('INVALID_ARGS', reason) } }
    }
    const tool = this.lookup(name, agent?.agentId)
    const withheld = tool === undefined ? undefined : this.withheld(name, sessionId)
    if (withheld !== undefined) {
      // Not on the model's tool list: refused as Claude Code refuses a disabled tool, before any hook.
      const call = seal({ name, args: raw.value, callId, sessionId, cwd, turnId, parent, agent })
      return { call, failed: { verdict: denied('seal', withheld), result: failure('UNKNOWN_TOOL', `No such tool available: ${name}`) } }
    }
    if (tool === undefined) {
      const reason = `Unknown tool "${name}". Available tools: ${this.toolNames().join(', ') || '(none)'}.`
      const call = seal({ name, args: raw.value, callId, sessionId, cwd, turnId, parent, agent })
      return { call, failed: { verdict: denied('seal', `unknown tool "${name}"`), result: failure('UNKNOWN_TOOL', reason) } }
    }

    // As Claude Code does, the input the rewrite stage (hooks) and the tool see has the schema's
    // defaults filled in (Edit gains replace_all: false); input that does not parse stays as sent.
    const withDefaults = tool.inputSchema.safeParse(raw.value)
    const filled = withDefaults.success ? materializeObject(withDefaults.data) : undefined
    const args = filled?.ok ? filled.value : raw.value
    const rewriters = this.kernel.listenerCount('tools/input-rewrite')
    if (rewriters === 0 && filled?.ok) {
      // Nothing can rewrite the input: the schema's output just parsed (and copied, frozen) is what
      // the tool runs with; parsing it again would apply a transform twice and cost a second
      // parse and copy per call.
      return { call: seal({ name, args: filled.value, callId, sessionId, cwd, turnId, parent, agent }), tool }
    }
    const identity: Identity = { name, callId, sessionId, cwd, turnId, parent, agent }
    if (rewriters > 0) return this.rewriteThenSeal(tool, identity, args, abandon)
    return this.validateAndSeal(tool, identity, args)
  }

  /** S18 before validation: the rewrite waterfall, then the (possibly rewritten) input validated and sealed. */
  private async rewriteThenSeal(tool: AnyTool, identity: Identity, args: Readonly<JsonObject>, abandon: Abandonment): Promise<Prepared> {
    const { name, callId, sessionId, cwd, agent } = identity
    const rewrite = await this.rewrite({ name, args, callId, sessionId, cwd, ...(agent ? { agent } : {}) }, abandon)
    if (!rewrite.ok) return { call: seal({ ...identity, args }), failed: rewrite.failed }
    if (rewrite.args === undefined) return this.validateAndSeal(tool, identity, args)
    return this.validateAndSeal(tool, identity, rewrite.args, { originalArgs: args, rewrittenBy: rewrite.by, invalidText: rewrite.invalidText })
  }

  /** Validates the input against the tool's schema and seals what the tool will run with (S9). */
  private validateAndSeal(tool: AnyTool, identity: Identity, args: Readonly<JsonObject>, rewritten?: { originalArgs: Readonly<JsonObject>; rewrittenBy?: string; invalidText?: string }): Prepared {
    const { name, callId, sessionId, cwd, turnId, parent, agent } = identity
    const originalArgs = rewritten?.originalArgs
    const rewrittenBy = rewritten?.rewrittenBy
    const invalidText = rewritten?.invalidText
    const parsed = tool.inputSchema.safeParse(args)
    if (!parsed.success) {
      const where = invalidText ?? (rewrittenBy !== undefined ? `Arguments for tool "${name}" as rewritten by "${rewrittenBy}" are invalid` : `Invalid arguments for tool "${name}"`)
      const reason = formatZodError(where, parsed.error)
      const call = seal({ name, args, callId, sessionId, cwd, turnId, parent, agent, originalArgs, rewrittenBy })
      return { call, failed: { verdict: denied(rewrittenBy !== undefined ? 'rewrite' : 'seal', reason), result: failure('INVALID_ARGS', reason) } }
    }
    // Seal what the tool will run with: the schema's output (defaults applied), as frozen JSON.
    const sealedArgs = materializeObject(parsed.data)
    if (!sealedArgs.ok) {
      const reason = `Tool "${name}": its inputSchema produced arguments that are not JSON: ${sealedArgs.path}: ${sealedArgs.problem}`
      const call = seal({ name, args, callId, sessionId, cwd, turnId, parent, agent, originalArgs, rewrittenBy })
      return { call, failed: { verdict: denied('seal', reason), result: failure('INVALID_ARGS', reason) } }
    }
    const call = seal({ name, args: sealedArgs.value, callId, sessionId, cwd, turnId, parent, agent, originalArgs, rewrittenBy })
    return { call, tool }
  }

  /** S18: the rewrite waterfall; a rewrite must be a JSON object (validated by the caller). */
  private async rewrite(
    unsealed: UnsealedCall,
    abandon: Abandonment
  ): Promise<{ ok: true; args?: Readonly<JsonObject>; by?: string; invalidText?: string } | { ok: false; failed: Required<DecidedCall> }> {
    let decision: RewriteDecision | typeof ABANDONED
    try {
      decision = await abandon.race(this.kernel.waterfall('tools/input-rewrite', Object.freeze(unsealed), keep))
    } catch (error) {
      return { ok: false, failed: this.listenerFailed('rewrite', 'tools/input-rewrite listener', unsealed.name, error) }
    }
    if (decision === ABANDONED) return { ok: false, failed: abandonedIn('rewrite', 'tools/input-rewrite', unsealed.name) }
    const problem = rewriteDecisionProblem(decision)
    if (problem !== undefined) return { ok: false, failed: this.listenerFailed('rewrite', 'tools/input-rewrite listener', unsealed.name, problem) }
    if (decision.action === 'keep') return { ok: true }
    const args = materializeObject(decision.args)
    if (!args.ok) {
      const reason = `Arguments for tool "${unsealed.name}" as rewritten by "${decision.by}" are not JSON: ${args.path}: ${args.problem}`
      return { ok: false, failed: { verdict: denied('rewrite', reason, decision.by), result: failure('INVALID_ARGS', reason) } }
    }
    return { ok: true, args: args.value, by: decision.by, ...(decision.invalidText !== undefined ? { invalidText: decision.invalidText } : {}) }
  }

  /** S10-S12: pre-execute policy, approval on ask, then the deny-only guards. */
  private async decide(sealed: SealedCall, tool: AnyTool | undefined, request: ToolCallRequest, options: ExecuteOptions, abandon: Abandonment): Promise<Decided> {
    let call = sealed
    let verdict = ALLOWED
    if (this.kernel.listenerCount('tools/pre-execute') > 0) {
      let decision: PreToolDecision | typeof ABANDONED
      try {
        decision = await abandon.race(this.kernel.waterfall('tools/pre-execute', call, allow))
      } catch (error) {
        return this.listenerFailed('pre-execute', 'tools/pre-execute listener', call.name, error)
      }
      if (decision === ABANDONED) return abandonedIn('pre-execute', 'tools/pre-execute', call.name)
      const problem = preDecisionProblem(decision)
      if (problem !== undefined) return this.listenerFailed('pre-execute', 'tools/pre-execute listener', call.name, problem)
      if (decision.action === 'deny') {
        return { verdict: denied('pre-execute', decision.reason, decision.by), result: failure('DENIED', decision.modelText ?? `Permission denied: ${decision.reason}`) }
      }
      if (decision.action === 'ask') {
        const asked = await this.ask(call, tool, decision, request, options, abandon)
        if (asked.result) return asked
        verdict = asked.verdict
        // An answer that rewrote the input (PermissionRequest `updatedInput`): the new call goes on.
        if (asked.call !== undefined) call = asked.call
      } else if (decision.reason !== undefined || decision.by !== undefined) {
        verdict = Object.freeze({ outcome: 'allowed', stage: 'pre-execute', reason: decision.reason, by: decision.by })
      }
    }
    return this.guarded(sealed, call, verdict)
  }

  /** S12: the deny-only guards, last word of policy. `call` is `sealed` unless an answer rewrote it. */
  private guarded(sealed: SealedCall, call: SealedCall, verdict: CallVerdict): Decided {
    const guardReason = this.kernel.checkGuards('tools', call)
    if (guardReason !== undefined) {
      const refused: Decided = { verdict: denied('guard', guardReason), result: failure('DENIED', `Permission denied: ${guardReason}`) }
      if (call !== sealed) refused.call = call
      return refused
    }
    return call !== sealed ? { verdict, call } : { verdict }
  }

  /**
   * S11: an existing session grant answers without a dialog; then tools/permission-request may
   * answer (Claude Code's PermissionRequest hooks); otherwise the approval service asks.
   */
  private async ask(call: SealedCall, tool: AnyTool | undefined, decision: { reason: string; by?: string }, request: ToolCallRequest, options: ExecuteOptions, abandon: Abandonment): Promise<Decided> {
    const approval = this.kernel.getService('approval')
    const grant = this.nested.backedByAgent(call) ? approval?.matchGrant(call.sessionId, call.name, call.args, call.cwd) : undefined
    if (grant) {
      return { verdict: Object.freeze({ outcome: 'allowed', stage: 'approval', approval: 'allowed-session', reason: `allowed for this session: ${grant.description}`, by: grant.id }) }
    }
    if (this.nested.backedByAgent(call) && this.kernel.listenerCount('tools/permission-request') > 0) {
      const answered = await this.permissionRequest(call, tool, decision, options, abandon)
      if (answered !== undefined) return answered
    }
    const signal = request.signal ?? NEVER
    let answer: ApprovalAnswer & { reason?: string }
    if (!this.nested.backedByAgent(call)) {
      // S11: nobody to ask on behalf of; the answerer never sees it.
      answer = { outcome: 'unavailable', reason: 'no agent turn is behind this call' }
    } else if (!approval) {
      answer = { outcome: 'unavailable', reason: 'no approval service is running' }
    } else {
      const record = options.record
      const recordWithTurn =
        record && call.turnId !== undefined
          ? (event: SessionEventInput) => record(event.type === 'approval/asked' ? { ...event, turnId: call.turnId } : event)
          : record
      try {
        answer = await approval.request(
          {
            sessionId: call.sessionId, tool: call.name, args: call.args, token: call.token, reason: decision.reason, signal, cwd: call.cwd,
            ...(decision.by ? { askedBy: decision.by } : {}),
            ...(call.agent ? { agent: call.agent } : {})
          },
          recordWithTurn
        )
      } catch (error) {
        this.kernel.reportError(error, { plugin: 'tools', phase: 'approval.request' })
        answer = { outcome: 'denied', reason: `asking for approval failed: ${errorText(error)}` }
      }
    }
    if (answer.outcome === 'allowed-once' || answer.outcome === 'allowed-session' || answer.outcome === 'allowed-always') {
      return { verdict: Object.freeze({ outcome: 'allowed', stage: 'approval', approval: answer.outcome, reason: decision.reason, by: answer.by ?? decision.by }) }
    }
    const reason = approvalDenyReason(answer, decision.reason)
    const code: ToolErrorCode = signal.aborted ? 'CANCELLED' : 'DENIED'
    return {
      verdict: Object.freeze({ outcome: 'denied', stage: 'approval', approval: answer.outcome, reason, by: answer.by }),
      result: failure(code, `Permission denied: ${reason}`)
    }
  }

  /**
   * tools/permission-request: an answer before the user is asked. `undefined` when nobody
   * answered (the user is asked). An allow may rewrite the input (validated against the tool's
   * schema, then sealed again with the same token) and save rules; a deny refuses the call.
   */
  private async permissionRequest(call: SealedCall, tool: AnyTool | undefined, asked: { reason: string; by?: string }, options: ExecuteOptions, abandon: Abandonment): Promise<Decided | undefined> {
    const approval = this.kernel.getService('approval')
    let suggestions: readonly string[] = []
    try {
      suggestions = (await approval?.ruleScope(call.name, call.args, call.cwd))?.rules ?? []
    } catch (error) {
      this.kernel.reportError(error, { plugin: 'tools', phase: 'approval.ruleScope' })
    }
    const ask: PermissionAsk = Object.freeze({ call, reason: asked.reason, ...(asked.by !== undefined ? { askedBy: asked.by } : {}), suggestions: Object.freeze([...suggestions]) })
    let answer: PermissionRequestDecision | typeof ABANDONED
    try {
      answer = await abandon.race(this.kernel.waterfall('tools/permission-request', ask, askUser))
    } catch (error) {
      return this.listenerFailed('pre-execute', 'tools/permission-request listener', call.name, error)
    }
    if (answer === ABANDONED) return abandonedIn('pre-execute', 'tools/permission-request', call.name)
    const problem = permissionRequestProblem(answer)
    if (problem !== undefined) return this.listenerFailed('pre-execute', 'tools/permission-request listener', call.name, problem)
    if (answer.action === 'ask') return undefined
    if (answer.action === 'deny') {
      return { verdict: denied('approval', answer.reason, answer.by), result: failure('DENIED', `Permission denied: ${answer.reason}`) }
    }
    let allowed = call
    if (answer.updatedArgs !== undefined && tool !== undefined) {
      const parsed = tool.inputSchema.safeParse(answer.updatedArgs)
      const args = parsed.success ? materializeObject(parsed.data) : undefined
      if (!parsed.success || !args?.ok) {
        const head = answer.invalidText ?? `Arguments for tool "${call.name}" as rewritten by "${answer.by}" are invalid`
        const reason = parsed.success ? `${head}: ${args && !args.ok ? `${args.path}: ${args.problem}` : 'not JSON'}` : formatZodError(head, parsed.error)
        return { verdict: denied('rewrite', reason, answer.by), result: failure('INVALID_ARGS', reason) }
      }
      allowed = reseal(call, args.value, answer.by)
    }
    if (answer.updatedPermissions !== undefined && answer.updatedPermissions.length > 0) approval?.applyRuleUpdates(call.sessionId, answer.updatedPermissions, options.record)
    const verdict: CallVerdict = Object.freeze({ outcome: 'allowed', stage: 'approval', reason: answer.reason ?? `allowed by ${answer.by} (${asked.reason})`, by: answer.by })
    return { verdict, ...(allowed !== call ? { call: allowed } : {}) }
  }

  /**
   * S13: the wrapper waterfall around core dispatch; whatever comes out is normalized (S16).
   * Once the caller cancels, the tool (and its wrappers) get the grace to stop; then it is abandoned.
   */
  private async dispatch(call: SealedCall, tool: AnyTool, request: ToolCallRequest, abandon: Abandonment, beforeRun: HostExecuteOptions['beforeRun']): Promise<ToolResult> {
    const control: ExecControl = Object.seal({ signal: request.signal ?? NEVER })
    if (this.kernel.listenerCount('tools/execute') === 0) {
      const out = await abandon.race(this.core(call, tool, control, request, beforeRun))
      return out === ABANDONED ? this.abandoned(call.name) : out
    }
    let out: unknown
    try {
      out = await abandon.race(Promise.resolve(this.kernel.waterfall('tools/execute', call, control, () => this.core(call, tool, control, request, beforeRun))))
    } catch (error) {
      this.kernel.reportError(error, { plugin: 'tools', phase: 'tools/execute wrapper' })
      return failure('LISTENER_THREW', `A tools/execute wrapper around "${call.name}" failed: ${errorText(error)}`)
    }
    return out === ABANDONED ? this.abandoned(call.name) : normalizeResult(call.name, out, 'wrapper')
  }

  /** The result of a call whose tool did not stop within the grace (made only then). */
  private abandoned(name: string): ToolResult {
    return failure('CANCELLED', `Tool "${name}" did not stop within ${this.abandonAfterCancelMs} ms of the cancel; it was abandoned and may still be running.`)
  }

  /** Core dispatch, inside the normalization boundary (S16). Never rejects. */
  private async core(call: SealedCall, tool: AnyTool, control: ExecControl, request: ToolCallRequest, beforeRun: HostExecuteOptions['beforeRun']): Promise<ToolResult> {
    // The tool may have been unregistered while the call waited (an approval dialog, a wrapper).
    if (this.lookup(call.name, call.agent?.agentId) !== tool) return failure('UNKNOWN_TOOL', `Tool "${call.name}" was unregistered before it could run.`)
    const signal = (control.signal as AbortSignal | undefined | null) ?? NEVER
    if (!(signal instanceof AbortSignal)) {
      return failure('LISTENER_THREW', `A tools/execute wrapper set exec.signal to something that is not an AbortSignal; "${call.name}" was not run.`)
    }
    if (signal.aborted) return failure('CANCELLED', `Tool "${call.name}" was not run: the call was cancelled.`)
    if (beforeRun !== undefined) {
      // The caller's last word before the tool changes anything (the loop makes the call durable here).
      try {
        const pending = beforeRun(call)
        if (pending) await pending
      } catch (error) {
        this.kernel.reportError(error, { plugin: 'tools', phase: 'beforeRun' })
        return failure('LISTENER_THREW', `Tool "${call.name}" was not run: recording the call failed: ${errorText(error)}`)
      }
      if (signal.aborted) return failure('CANCELLED', `Tool "${call.name}" was not run: the call was cancelled.`)
    }
    const exec: ToolExec = {
      signal,
      token: call.token,
      parent: call.parent,
      cwd: call.cwd,
      sessionId: call.sessionId,
      env: request.env ?? EMPTY_ENV,
      progress: request.progress ?? noProgress
    }
    // Set only when given (no spread of a conditional object per call).
    if (request.moveCwd) exec.moveCwd = request.moveCwd
    try {
      let out: unknown = tool.execute(call.args, exec)
      if (out instanceof Promise) out = await out
      return normalizeResult(call.name, out, 'tool')
    } catch (error) {
      if (signal.aborted) return failure('CANCELLED', `Tool "${call.name}" was cancelled: ${errorText(error)}`)
      return failure('TOOL_THREW', `Tool "${call.name}" failed: ${errorText(error)}`)
    }
  }

  /** S14, S15, S17: post-execute transforms, then the sealed result notification. */
  private conclude(
    call: SealedCall,
    result: ToolResult,
    verdict: CallVerdict,
    started: number,
    signal: AbortSignal | undefined,
    record: ExecuteOptions['record']
  ): ToolExecutionResult | Promise<ToolExecutionResult> {
    // Context carried up from nested calls: kept whatever the tool did (a throw included), dropped
    // when post-execute blocks the call or fails closed (S17).
    const carried = this.nested.close(call.token)
    const additionalContext: readonly string[] = carried.length > 0 ? carried : NO_CONTEXT
    if (this.kernel.listenerCount('tools/post-execute') > 0) return this.postExecute(call, result, verdict, started, signal, record, additionalContext)
    return this.concluded(call, result, verdict, started, record, additionalContext)
  }

  /** S14: the post-execute waterfall transforms the result (fail closed), then it concludes. */
  private async postExecute(
    call: SealedCall,
    result: ToolResult,
    verdict: CallVerdict,
    started: number,
    signal: AbortSignal | undefined,
    record: ExecuteOptions['record'],
    carried: readonly string[]
  ): Promise<ToolExecutionResult> {
    let additionalContext = carried
    let decision: PostToolDecision | typeof ABANDONED | undefined
    let problem: string | undefined
    const abandon = abandonment(signal, this.abandonAfterCancelMs)
    try {
      decision = await abandon.race(this.kernel.waterfall('tools/post-execute', call, result, verdict, accept))
      if (decision !== ABANDONED) problem = postDecisionProblem(decision)
    } catch (error) {
      problem = errorText(error)
      this.kernel.reportError(error, { plugin: 'tools', phase: 'tools/post-execute listener' })
    } finally {
      abandon.dispose()
    }
    if (decision === ABANDONED || problem !== undefined || decision?.action === 'block') additionalContext = NO_CONTEXT
    if (decision === ABANDONED) {
      // Fail closed, as for a failing listener: the unfiltered content is dropped.
      result = failure('CANCELLED', `Tool "${call.name}" was cancelled while a tools/post-execute listener ran; its result was dropped.`)
    } else if (problem !== undefined) {
      // Fail closed: a post-execute listener may exist to redact, so the unfiltered content is dropped.
      result = failure('LISTENER_THREW', `A tools/post-execute listener for "${call.name}" failed: ${problem}`)
    } else if (decision !== undefined) {
      result = applyPostDecision(result, decision)
      if (decision.additionalContext !== undefined && decision.additionalContext.length > 0) {
        additionalContext = [...additionalContext, ...decision.additionalContext]
      }
    }
    return this.concluded(call, result, verdict, started, record, additionalContext)
  }

  /** S15, S17: the context goes up to the parent call, tools/result hears of the call. */
  private concluded(
    call: SealedCall,
    result: ToolResult,
    verdict: CallVerdict,
    started: number,
    record: ExecuteOptions['record'],
    additionalContext: readonly string[]
  ): ToolExecutionResult {
    // A subagent's own call: its loop gives the context to the subagent's model, not to the Agent call.
    if (call.agent === undefined) this.nested.carry(call.parent, additionalContext)
    if (this.kernel.listenerCount('tools/result') > 0) this.kernel.emitObserved('tools/result', record && resultListenerNotice(call, record), call, result, verdict)
    return { call, result, verdict, additionalContext: additionalContext.slice(), durationMs: performance.now() - started }
  }

  private listenerFailed(stage: 'rewrite' | 'pre-execute', phase: string, toolName: string, error: unknown): Required<DecidedCall> {
    const text = typeof error === 'string' ? `a listener ${error}` : errorText(error)
    if (typeof error === 'string') this.kernel.log({ level: 'error', plugin: 'tools', message: `${phase} ${error}`, time: Date.now() })
    else this.kernel.reportError(error, { plugin: 'tools', phase })
    return { verdict: denied(stage, `${phase} failed: ${text}`), result: failure('LISTENER_THREW', `Tool "${toolName}" was not run: a ${phase} failed: ${text}`) }
  }
}
