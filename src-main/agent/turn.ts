// One turn: opened before prompt policy (S6), then steps until the model stops on its own and
// continuation policy agrees (S7), a stop is decided (S8), the step limit is hit, the turn is
// cancelled, or something outside the tool pipeline fails (S20). Every opened turn gets exactly
// one turn/end; the log is written at its end and synced there in the background (README "Durability").
import { errorText } from '../../src-shared/kernel'
import type { PromptExpansionInfo, PromptSource, TurnFailure, TurnInfo, TurnModelOptions } from '../../src-shared/host/agent'
import type { ToolExecutionResult } from '../../src-shared/host/tools'
import type { TurnEndReason } from '../../src-shared/session/events'
import { checkContinuationDecision, checkPromptDecision, checkToolBatchDecision } from './decisions'
import type { TurnControl } from './handle'
import type { CommandExpansion, QueuedPrompt } from './inbox'
import { runStep, TurnCalls, type LoopDeps } from './step'
import { compact, wouldOverflow } from './compaction'
import { ModelError, type ReasoningEffort } from '../../src-shared/model'
import { expandMentions, parseMentions } from './mentions'

/** A policy decision the turn stopped waiting for because it was cancelled. */
class TurnCancelledError extends Error {
  constructor() {
    super('the turn was cancelled')
    this.name = 'TurnCancelledError'
  }
}

export interface TurnEnd {
  reason: TurnEndReason
  error?: string
  steps: number
}

/** `opening`: the batch is not dequeued yet (a send joins it); `running`: a send steers; `closing`: a send waits for the next turn. */
export type TurnPhase = 'opening' | 'running' | 'closing'

export class Turn implements TurnControl {
  private readonly controller = new AbortController()
  private stopped: { reason: string; by: string } | undefined
  private steps = 0
  private continuations = 0
  private lastAssistantText = ''
  private revokeAllowedTools: (() => void) | undefined
  private calls: TurnCalls | undefined
  phase: TurnPhase = 'opening'

  /**
   * `opening`, for a subagent's child turn: writes the turn's first message itself (no queue, no
   * prompt policy: the parent's call already passed the pipeline), then the steps run as usual.
   */
  constructor(
    private deps: LoopDeps,
    readonly id: string,
    private readonly opening?: (turn: Turn) => Promise<void>
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get isStopped(): boolean {
    return this.stopped !== undefined
  }

  /** S8: terminal and monotonic. The first stop wins; the turn ends after the current operation. */
  stop(reason: string, by: string): void {
    if (this.stopped || this.phase === 'closing') return
    this.stopped = { reason, by }
    this.deps.log.append({ type: 'notice', turnId: this.id, level: 'info', text: `Turn stopped by ${by}: ${reason}`, source: by })
    // A listener that fails is a notice in the session (and a log record), like the other notifications'.
    this.deps.kernel.emitObserved('agent/turn-stop', this.deps.handle.listenerFailureNotice('agent/turn-stop'), this.deps.handle, this.id, reason, by)
  }

  /** Aborts the model stream and running tools; the turn ends `cancelled`. */
  cancel(): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error('the turn was cancelled'))
  }

  async run(): Promise<TurnEnd> {
    const { log, kernel } = this.deps
    log.appendOwn({ type: 'turn/start', turnId: this.id })
    let end: TurnEnd
    try {
      // turn/start is not synced: nothing outside the log depends on it, and the next sync covers it.
      end = { reason: await this.body(), steps: this.steps }
    } catch (error) {
      end = this.signal.aborted ? { reason: 'cancelled', steps: this.steps } : { reason: 'error', error: errorText(error), steps: this.steps }
      // The model request failed (not a policy, not a cancel): listeners run before the turn ends, as Claude Code's StopFailure does.
      if (!this.signal.aborted && error instanceof ModelError && error.kind !== 'aborted') {
        const failure: TurnFailure = { turnId: this.id, kind: error.kind, message: error.message, lastAssistantText: this.lastAssistantText }
        if (error.status !== undefined) failure.status = error.status
        await kernel.parallelObserved('agent/turn-failure', this.deps.handle.listenerFailureNotice('agent/turn-failure'), this.deps.handle, failure)
      }
    }
    this.phase = 'closing'
    this.revokeAllowedTools?.()
    log.appendOwn({ type: 'turn/end', turnId: this.id, reason: end.reason, ...(end.error !== undefined ? { error: end.error } : {}), steps: end.steps })
    // Written now (listeners hear of turn/end); synced off the loop's path: the next turn need not
    // wait for the device, close() waits for the sync, and a failed sync fails the log (onFailure).
    await log.flush({ durable: 'background' })
    kernel.emitObserved('agent/turn-end', this.deps.handle.listenerFailureNotice('agent/turn-end'), this.deps.handle, this.id, end.reason)
    return end
  }

  private async body(): Promise<TurnEndReason> {
    const { settings } = this.deps
    if (this.opening) {
      this.phase = 'running'
      await this.unlessCancelled(this.opening(this)).catch((error: unknown) => {
        if (!(error instanceof TurnCancelledError)) throw error
      })
      if (this.signal.aborted) return 'cancelled'
    } else {
      const opened = await this.openFromQueue()
      if (opened !== undefined) return opened
    }

    for (;;) {
      if (this.signal.aborted) return 'cancelled'
      if (this.stopped) return 'completed'
      if (this.steps >= settings.maxSteps) return 'max_steps'
      // Most steps find nothing to drain: no async call and no await for them.
      if (this.deps.inbox.steering > 0) {
        await this.drainSteering()
        if (this.signal.aborted) return 'cancelled'
        if (this.stopped) return 'completed'
      }

      // Compact before a request that would fill too much of the context window.
      if (wouldOverflow(this.deps)) await this.compactFor('auto', 'the next request would pass the compaction threshold of the context window')
      if (this.signal.aborted) return 'cancelled'

      // A step counts from its request on, also when it fails or is cancelled.
      const index = this.steps++
      // Made at the first step, after prompt policy (a command's model may have changed the deps).
      this.calls ??= new TurnCalls(this.deps, this.id, this.signal)
      let step
      try {
        step = await runStep(this.deps, this.id, index, this.signal, this.calls)
      } catch (error) {
        // The provider refused the request as too long: compact and retry the step once.
        if (!(error instanceof ModelError && error.kind === 'context_length') || this.signal.aborted) throw error
        const compacted = await this.compactFor('auto', `the provider refused the request as too long (${error.message})`)
        if (!compacted) throw error
        step = await runStep(this.deps, this.id, index, this.signal, this.calls)
      }
      if (step.text) this.lastAssistantText = step.text
      if (step.cancelled || this.signal.aborted) return 'cancelled'

      if (step.results.length > 0) {
        // Nobody listening decides `continue`: no waterfall and no abort race (a cancel is seen at the top of the next step).
        if (this.deps.kernel.listenerCount('agent/tool-batch') > 0) await this.afterToolBatch(step.results)
        continue
      }
      if (this.stopped) return 'completed'
      if (!(await this.continueAfterStop())) return 'completed'
    }
  }

  /** The queued batch through prompt policy (S5, S6); an end reason when nothing may go on. */
  private async openFromQueue(): Promise<TurnEndReason | undefined> {
    const batch = this.deps.inbox.takeQueued()
    this.phase = 'running'
    let allowed = 0
    for (const [index, prompt] of batch.entries()) {
      if (prompt.notice !== undefined) {
        // News that opened the turn (a background agent ended): no prompt, so no prompt policy.
        this.deps.log.append({ type: 'context/message', turnId: this.id, text: prompt.content, source: prompt.notice, ...(prompt.channel ? { channel: prompt.channel } : {}) })
        allowed++
        continue
      }
      try {
        if (await this.submit(prompt, 'prompt')) allowed++
      } catch (error) {
        // S20: the turn ends `error`; no message of the batch is lost: the one whose policy
        // failed and every later one are kept as prompt/blocked with the reason.
        this.blockRest(batch.slice(index), error)
        throw error
      }
    }
    if (this.signal.aborted) return 'cancelled'
    if (allowed === 0) return 'rejected'
    return undefined
  }

  /** Runs an automatic compaction inside this turn; a failed one is reported and the turn goes on with the history as it was. */
  private async compactFor(trigger: 'auto', why: string): Promise<boolean> {
    const { log } = this.deps
    log.append({ type: 'notice', turnId: this.id, level: 'info', text: `Compacting the conversation: ${why}`, source: 'compaction' })
    try {
      const outcome = await compact(this.deps, { trigger, turnId: this.id, signal: this.signal })
      return outcome.compacted
    } catch (error) {
      if (this.signal.aborted) return false
      log.append({ type: 'notice', turnId: this.id, level: 'warn', text: `Compaction failed: ${errorText(error)}`, source: 'compaction' })
      return false
    }
  }

  /**
   * S5: one dequeued message through prompt policy. Returns whether it was allowed. A message the
   * policy has not decided when the turn is cancelled is kept as prompt/blocked (never lost, never
   * let through undecided).
   */
  private async submit(prompt: QueuedPrompt, as: 'prompt' | 'steering'): Promise<boolean> {
    const { kernel, log, handle } = this.deps
    const source: PromptSource = as === 'steering' ? 'steering' : prompt.source
    const decision = await this.promptPolicy(prompt.content, () => {
      if (this.signal.aborted) throw new TurnCancelledError()
      return kernel.waterfall('agent/prompt-submit', handle, prompt.content, source, async () => ({ action: 'allow' as const }))
    })
    if (!decision) return false
    // A slash command whose typed text prompt policy left alone is expanded now (UserPromptExpansion).
    if (as === 'prompt' && prompt.expansion && (decision.content === undefined || decision.content === prompt.content)) {
      return this.submitExpansion(prompt, prompt.expansion, decision.additionalContext ?? [])
    }
    const content = decision.content ?? prompt.content
    if (as === 'steering') {
      log.append({ type: 'steering/message', turnId: this.id, text: content, source: 'user', ...(prompt.images?.length ? { images: prompt.images } : {}) })
    } else {
      log.append({
        type: 'user/message',
        turnId: this.id,
        content,
        ...(content !== prompt.content ? { originalContent: prompt.content } : {}),
        source: prompt.source,
        ...(prompt.images?.length ? { images: prompt.images } : {})
      })
    }
    await this.attachMentions(content)
    for (const text of decision.additionalContext ?? []) log.append({ type: 'context/message', turnId: this.id, text, source: 'agent/prompt-submit' })
    return true
  }

  /**
   * Runs a prompt-policy waterfall for `prompt` (submit or expansion) and checks its decision; a
   * block, or a cancel before policy decided, is logged as `prompt/blocked` and answers undefined.
   */
  private async promptPolicy(prompt: string, decide: () => Promise<unknown>): Promise<Exclude<ReturnType<typeof checkPromptDecision>, { action: 'block' }> | undefined> {
    let value: unknown
    try {
      value = await this.unlessCancelled(decide())
    } catch (error) {
      if (!(error instanceof TurnCancelledError)) throw error
      this.deps.log.append({ type: 'prompt/blocked', turnId: this.id, prompt, reason: 'the turn was cancelled before prompt policy decided' })
      return undefined
    }
    const decision = checkPromptDecision(value)
    if (decision.action === 'block') {
      this.deps.log.append({ type: 'prompt/blocked', turnId: this.id, prompt, reason: decision.reason, ...(decision.by !== undefined ? { by: decision.by } : {}) })
      return undefined
    }
    return decision
  }

  /** The files the message mentions with `@path`, read and logged right after it (mentions.ts). */
  private async attachMentions(text: string): Promise<void> {
    if (parseMentions(text).length === 0) return
    const { log, handle } = this.deps
    const tools = this.deps.tools()
    // Read withheld from the model (a bare deny rule) reads no mentioned file either, nor one a `Read(path)` deny rule covers.
    const read = tools.specs().some((spec) => spec.name === 'Read') ? tools.get('Read') : undefined
    const policy = this.deps.kernel.getService('permissionPolicy')
    const denied = policy ? (path: string) => policy.denial('Read', { file_path: path }, handle.workspace) : undefined
    const files = await expandMentions(text, { workspace: handle.workspace, sessionId: handle.sessionId, read, signal: this.signal, ...(denied ? { denied } : {}) })
    if (files.length > 0) log.append({ type: 'mentions/attached', turnId: this.id, files })
  }

  /** A custom command after prompt policy: agent/prompt-expansion decides, then the expansion is the user message (the typed text kept beside it). */
  private async submitExpansion(prompt: QueuedPrompt, expansion: CommandExpansion, submitContext: readonly string[]): Promise<boolean> {
    const { kernel, log, handle } = this.deps
    const info: PromptExpansionInfo = {
      expansionType: 'slash_command',
      commandName: expansion.command.name,
      commandArgs: expansion.command.args,
      commandSource: expansion.command.source,
      prompt: prompt.content,
      expanded: expansion.content
    }
    const decision = await this.promptPolicy(prompt.content, () => kernel.waterfall('agent/prompt-expansion', handle, info, async () => ({ action: 'allow' as const })))
    if (!decision) return false
    log.append({ type: 'user/message', turnId: this.id, content: decision.content ?? expansion.content, originalContent: prompt.content, command: expansion.command, source: prompt.source })
    for (const text of submitContext) log.append({ type: 'context/message', turnId: this.id, text, source: 'agent/prompt-submit' })
    for (const text of decision.additionalContext ?? []) log.append({ type: 'context/message', turnId: this.id, text, source: 'agent/prompt-expansion' })
    if (expansion.model) this.useModel(expansion.model)
    if (expansion.allowedTools?.length) this.allowTools(`/${expansion.command.name}`, expansion.allowedTools)
    return true
  }

  /** The command's `allowed-tools` run without asking until this turn ends (the permission policy reads them). */
  private allowTools(command: string, rules: readonly string[]): void {
    const service = this.deps.kernel.getService('turnPermissions')
    if (!service) {
      this.deps.log.append({ type: 'notice', turnId: this.id, level: 'warn', text: `${command}'s allowed-tools are not applied: this host has no turnPermissions service`, source: 'agent' })
      return
    }
    this.revokeAllowedTools?.()
    this.revokeAllowedTools = service.grant(this.deps.handle.sessionId, this.id, command, rules)
  }

  get effort(): ReasoningEffort | undefined {
    return this.deps.effort
  }

  /** A plugin's model and effort for the rest of this turn (a skill's front matter, loaded by the Skill tool). */
  useForTurn(options: TurnModelOptions): void {
    if (options.model !== undefined) this.useModel(options.model, options.by ?? 'A skill')
    if (options.effort !== undefined) this.deps = { ...this.deps, effort: options.effort }
  }

  /** The command's `model` runs this turn from now on (its requests, usage and compaction). */
  private useModel(model: string, who = 'The command'): void {
    const { modelFor } = this.deps
    const keep = (why: string): void => {
      this.deps.log.append({ type: 'notice', turnId: this.id, level: 'warn', text: `${who} asked for the model "${model}", but ${why}; the session's model answers`, source: 'agent' })
    }
    if (!modelFor) return keep('this host cannot switch models per turn')
    try {
      this.deps = { ...this.deps, ...modelFor(model) }
    } catch (error) {
      keep(errorText(error))
    }
  }

  /** The prompt whose policy threw and the rest of its batch: logged as blocked, never submitted. */
  private blockRest(prompts: readonly QueuedPrompt[], error: unknown): void {
    const why = `prompt policy failed: ${errorText(error)}`
    for (const [index, prompt] of prompts.entries()) {
      const reason = index === 0 ? why : `not submitted: ${why} (on an earlier message of the same batch)`
      this.deps.log.append({ type: 'prompt/blocked', turnId: this.id, prompt: prompt.content, reason })
    }
  }

  /** Settles like `work`, or rejects with TurnCancelledError when the turn is cancelled first: a listener that never settles cannot hold a cancel. */
  private unlessCancelled<T>(work: Promise<T>): Promise<T> {
    const signal = this.signal
    if (signal.aborted) {
      work.catch(() => {})
      return Promise.reject(new TurnCancelledError())
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(new TurnCancelledError())
      signal.addEventListener('abort', onAbort, { once: true })
      work.then(
        (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
        (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error))
      )
    })
  }

  /** S7: steering is drained at the top of a step and recorded as steering of this turn. */
  private async drainSteering(): Promise<void> {
    const items = this.deps.inbox.takeSteering()
    for (const [index, item] of items.entries()) {
      // Cancelled on the way: what is left was never handled, so it stays undrained (README: it opens the next turn).
      if (this.signal.aborted) return this.deps.inbox.restoreSteering(items.slice(index))
      if (item.kind === 'continuation') {
        this.deps.log.append({
          type: 'steering/message',
          turnId: this.id,
          text: item.text,
          source: 'continuation',
          ...(item.by !== undefined ? { by: item.by } : {})
        })
        for (const text of item.context ?? []) this.deps.log.append({ type: 'context/message', turnId: this.id, text, source: item.by ?? 'agent/turn-continuation' })
      } else if (item.kind === 'notice') {
        this.deps.log.append({ type: 'context/message', turnId: this.id, text: item.text, source: item.source, ...(item.channel ? { channel: item.channel } : {}) })
      } else {
        await this.submit({ content: item.content, source: item.source, ...(item.images?.length ? { images: item.images } : {}) }, 'steering')
      }
    }
  }

  private async afterToolBatch(results: readonly ToolExecutionResult[]): Promise<void> {
    const { kernel, log, handle } = this.deps
    const decision = checkToolBatchDecision(
      await this.unlessCancelled(kernel.waterfall('agent/tool-batch', handle, results, async () => ({ action: 'continue' as const })))
    )
    if (decision.action === 'stop') {
      this.stop(decision.reason, decision.by ?? 'agent/tool-batch')
      return
    }
    for (const text of decision.additionalContext ?? []) log.append({ type: 'context/message', turnId: this.id, text, source: 'agent/tool-batch' })
  }

  /** The model stopped asking for tools. Returns true when another step is forced (S7). */
  private async continueAfterStop(): Promise<boolean> {
    const { kernel, log, handle, inbox, settings } = this.deps
    const info: TurnInfo = { turnId: this.id, steps: this.steps, continuations: this.continuations, lastAssistantText: this.lastAssistantText }
    const decision = checkContinuationDecision(
      await this.unlessCancelled(kernel.waterfall('agent/turn-continuation', handle, info, async () => ({ action: 'stop' as const })))
    )
    // S8: a stop decided while the continuation ran (or before) is final.
    if (this.stopped || decision.action === 'stop') return false
    if (this.continuations >= settings.maxContinuations) {
      log.append({
        type: 'notice',
        turnId: this.id,
        level: 'warn',
        text: `Continuation refused: ${settings.maxContinuations} continuations already forced in this turn (maxContinuations)`,
        source: 'agent'
      })
      return false
    }
    this.continuations++
    if (decision.reason !== undefined && decision.reason !== '') {
      const context = decision.additionalContext?.filter((text) => text !== '') ?? []
      inbox.steer({ kind: 'continuation', text: decision.reason, ...(decision.by !== undefined ? { by: decision.by } : {}), ...(context.length > 0 ? { context } : {}) })
    }
    return true
  }
}
