// The agent: one session's loop. It owns the inbox, opens turns one after another while prompts
// are queued, fires agent/session-start once before turn 1 (S4) and agent/session-end on close,
// and publishes its state for the UI. Each turn is a Turn (turn.ts); each step a runStep (step.ts).
import { z } from 'zod'
import type { Kernel } from '../../src-shared/kernel'
import type { AgentHandle, ChannelOrigin, SessionStartSource } from '../../src-shared/host/agent'
import type { ToolRegistry } from '../../src-shared/host/services'
import type { ModelClient } from '../../src-shared/model'
import type { ModelInfo } from '../llm/model-table'
import { parseOrThrow } from '../../src-shared/validation'
import { ImageAttachmentsSchema, type ImageAttachment } from '../../src-shared/session/attachments'
import type { SessionLog } from '../session/store'
import type { AgentState } from './events'
import { AgentHandleImpl } from './handle'
import { Inbox, type CommandExpansion, type PromptOrigin } from './inbox'
import { parseAgentSettings, type AgentSettings, type AgentSettingsInput } from './settings'
import { DEFAULT_BASE_PROMPT, renderSystemPrompt } from './system-prompt'
import type { LoopDeps } from './step'
import { Turn } from './turn'
import { attachChildParent } from './child'
import { sweepInterruptedWrites } from '../tools/builtin/interrupted-writes'
import { compact, type CompactionOutcome } from './compaction'

export interface AgentOptions {
  kernel: Kernel
  log: SessionLog
  model: ModelClient
  /** The project folder; tools run here. */
  workspace: string
  settings?: AgentSettingsInput
  /** S4: `startup` for a new (or forked) session, `resume` for one reloaded from disk, `clear` for the one `/clear` opened. */
  source: 'startup' | 'resume' | 'clear'
  /** The context window and prices of the model in use, asked at each request (the model can be switched); default `settings.model`. */
  modelInfo?: (model: string) => ModelInfo
  /** A client for another model of the same provider (a custom command's `model` runs its turn with it). */
  modelClientFor?: (model: string) => ModelClient
  /** Set when the session cannot run turns (its worktree was deleted outside Seam): every send is refused with this text. */
  refuseTurns?: string
}

export interface SendResult {
  /** `turn`: the message opens (or joins the opening of) a turn. `steering`: it steers the running turn. */
  queued: 'turn' | 'steering'
}

/** `clear`: `/clear` replaced the session with a new one. */
export type SessionEndReason = 'closed' | 'deleted' | 'shutdown' | 'clear'

const SendInput = z.object({ content: z.string(), source: z.enum(['user', 'cli']), images: ImageAttachmentsSchema.optional() }).refine(
  (input) => input.content.trim() !== '' || (input.images?.length ?? 0) > 0,
  { path: ['content'], message: 'must not be empty' }
)

export class Agent {
  readonly settings: AgentSettings
  readonly handle: AgentHandle
  /** The plugin tree the session runs on (its services: tools, slash command providers). */
  readonly kernel: Kernel
  private readonly log: SessionLog
  private readonly source: SessionStartSource
  private readonly inbox: Inbox
  private readonly deps: LoopDeps
  private current: Turn | undefined
  private pumping = false
  private started: Promise<void> | undefined
  private closing: Promise<void> | undefined
  /** Resolves when close() is called: the pump stops waiting for a session-start that never settles. */
  private readonly closeRequested: Promise<void>
  private requestClose: () => void = () => {}
  /** Resolves when cancel() arrives before turn 1 could start. */
  private readonly startAbandoned: Promise<void>
  private abandonStart: () => void = () => {}
  private cancelNextTurn = false
  private idleWaiters: Array<() => void> = []
  private stateWaiters: Array<() => void> = []
  private lastState = ''
  private turnCount: number
  private readonly detachChildParent: () => void

  private readonly refuseTurns: string | undefined
  /** Settles when the temp files of writes an earlier stop interrupted are removed (see closeInterruptedTurn). */
  private interruptedWritesSwept: Promise<void> = Promise.resolve()

  constructor(options: AgentOptions) {
    this.refuseTurns = options.refuseTurns
    this.settings = parseAgentSettings(options.settings)
    this.kernel = options.kernel
    this.log = options.log
    this.source = options.source
    this.inbox = new Inbox(() => this.publishState())
    this.closeRequested = new Promise<void>((resolve) => (this.requestClose = resolve))
    this.startAbandoned = new Promise<void>((resolve) => (this.abandonStart = resolve))
    const handle = new AgentHandleImpl(options.log, options.workspace, () => this.current, () => this.kernel.getService('settingsEnv')?.vars() ?? {}, undefined, (text, source, channel) => this.deliver(text, source, channel))
    this.handle = handle
    this.deps = {
      kernel: options.kernel,
      log: options.log,
      model: options.model,
      handle,
      settings: this.settings,
      inbox: this.inbox,
      systemPrompt: () => {
        const service = this.kernel.getService('prompt')
        return service ? service.render({ workspace: options.workspace }) : renderSystemPrompt(DEFAULT_BASE_PROMPT, [], { workspace: options.workspace })
      },
      tools: () => requireTools(this.kernel),
      modelInfo: () => (options.modelInfo ? options.modelInfo(options.model.model) : this.settings.model),
      ...(options.modelClientFor
        ? {
            modelFor: (model: string) => ({
              model: options.modelClientFor!(model),
              modelInfo: () => (options.modelInfo ? options.modelInfo(model) : this.settings.model)
            })
          }
        : {})
    }
    // Subagents of this session run their child turns with this loop's dependencies (child.ts).
    this.detachChildParent = attachChildParent(options.kernel, this.log.id, { deps: () => this.deps, get cwd() { return handle.cwd }, workspace: options.workspace })
    this.turnCount = this.log.events.filter((e) => e.type === 'turn/start').length
    this.closeInterruptedTurn(options.workspace)
    // A sync nobody awaited (the one after a turn) that failed: said at once, not only at the next append or close.
    this.log.onFailure((error) => this.kernel.reportError(error, { plugin: 'agent', phase: `session ${this.log.id}` }))
  }

  get sessionId(): string {
    return this.log.id
  }

  get state(): AgentState {
    const state: AgentState = { running: this.pumping, queued: this.inbox.queued, steering: this.inbox.steering }
    if (this.current) state.turnId = this.current.id
    return state
  }

  /**
   * Queues a message. Idle, it opens a turn. While a turn runs it goes on the steering channel:
   * the next step of that turn drains it (a steering/message), or, when the turn ends first,
   * it opens the next turn as a normal prompt. See README.md.
   */
  send(content: string, source: PromptOrigin = 'user', expansion?: CommandExpansion, images?: ImageAttachment[]): SendResult {
    if (this.closing) throw new Error(`session ${this.log.id}: the agent is closed`)
    if (this.refuseTurns !== undefined) throw new Error(this.refuseTurns)
    const input = parseOrThrow(SendInput, { content, source, ...(images?.length ? { images } : {}) }, 'agent.send')
    // A slash command opens its own turn (its model applies to a whole turn), never steers.
    if (expansion) {
      this.inbox.enqueue({ content: input.content, source: input.source, expansion })
      this.pump()
      return { queued: 'turn' }
    }
    const turn = this.current
    if (turn && turn.phase === 'running') {
      // Steering (text and images) joins the running turn's next request.
      this.inbox.steer({ kind: 'prompt', content: input.content, source: input.source, ...(input.images?.length ? { images: input.images } : {}) })
      return { queued: 'steering' }
    }
    this.inbox.enqueue({ content: input.content, source: input.source, ...(input.images?.length ? { images: input.images } : {}) })
    this.pump()
    return { queued: 'turn' }
  }

  /**
   * News from outside the turn (`AgentHandle.deliver`: a background agent ended). A running turn
   * gets it at its next step (or, ending first, opens the next turn with it); an idle session
   * opens a turn with it. Dropped once the session is closing, or when it cannot run turns.
   */
  deliver(text: string, source: string, channel?: ChannelOrigin): void {
    if (this.closing || this.refuseTurns !== undefined) return
    const turn = this.current
    const from = channel ? { channel } : {}
    if (turn && turn.phase === 'running') {
      this.inbox.steer({ kind: 'notice', text, source, ...from })
      return
    }
    this.inbox.enqueue({ content: text, source: 'user', notice: source, ...from })
    this.pump()
  }

  /**
   * Manual compaction (`/compact [instructions]`, `seam compact ID`): waits for the running turn
   * to end, then summarises the history while new prompts wait; they open a turn afterwards.
   */
  async compact(instructions?: string): Promise<CompactionOutcome> {
    if (this.closing) throw new Error(`session ${this.log.id}: the agent is closed`)
    while (this.pumping) await this.whenIdle()
    this.pumping = true
    this.publishState()
    try {
      await this.start()
      const outcome = await compact(this.deps, { trigger: 'manual', ...(instructions ? { instructions } : {}), signal: new AbortController().signal })
      await this.log.flush()
      return outcome
    } finally {
      this.pumping = false
      this.publishState()
      for (const resolve of this.idleWaiters.splice(0)) resolve()
      if (this.inbox.queued > 0 && !this.closing) this.pump()
    }
  }

  /** S4: fires agent/session-start once (also done before turn 1). */
  start(): Promise<void> {
    this.started ??= this.kernel.parallelObserved('agent/session-start', this.deps.handle.listenerFailureNotice('agent/session-start'), this.handle, this.source)
    return this.started
  }

  /** Aborts the running turn (model stream and tools). Resolves when that turn has ended. */
  async cancel(): Promise<void> {
    const turn = this.current
    if (!turn) {
      // Still waiting for agent/session-start (e.g. a slow SessionStart hook): stop waiting, and
      // the queued prompt opens a turn that ends cancelled, so it is logged, not lost.
      if (!this.pumping || this.inbox.queued === 0) return
      this.cancelNextTurn = true
      this.abandonStart()
      while (this.pumping && this.cancelNextTurn) await this.nextStateChange()
      return this.cancel()
    }
    turn.cancel()
    while (this.current === turn) await this.nextStateChange()
  }

  /** Resolves when no turn runs and nothing is queued. */
  whenIdle(): Promise<void> {
    if (!this.pumping) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Drops queued messages, cancels the running turn, fires agent/session-end (when it started) and flushes. */
  close(reason: SessionEndReason = 'closed'): Promise<void> {
    this.closing ??= (async () => {
      const dropped = this.inbox.clear()
      if (dropped > 0) {
        try {
          this.handle.notify('warn', `${dropped} queued message(s) dropped: the session closed`, 'agent')
        } catch (error) {
          // The log is already closed or broken; closing the agent must still complete.
          this.kernel.reportError(error, { plugin: 'agent', phase: 'close' })
        }
      }
      this.current?.cancel()
      this.requestClose()
      await this.whenIdle()
      await this.interruptedWritesSwept
      this.detachChildParent()
      if (this.started) await this.kernel.parallelObserved('agent/session-end', this.deps.handle.listenerFailureNotice('agent/session-end'), this.handle, reason)
      await this.log.flush()
    })()
    return this.closing
  }

  // ---- the pump: one turn after another while prompts are queued ----------------------------

  private pump(): void {
    if (this.pumping) return
    this.pumping = true
    this.publishState()
    void this.drive()
  }

  private async drive(): Promise<void> {
    try {
      await Promise.race([this.start(), this.closeRequested, this.startAbandoned])
      while (!this.closing && this.inbox.queued > 0) {
        const turn = new Turn(this.deps, `turn-${++this.turnCount}`)
        if (this.cancelNextTurn) {
          this.cancelNextTurn = false
          turn.cancel()
        }
        this.current = turn
        this.publishState()
        let logFailed = false
        try {
          await turn.run()
        } catch (error) {
          // Only the log itself failing gets here (a turn catches everything else, S20). A log
          // that cannot be written stays so: queued messages cannot be recorded and are dropped.
          logFailed = true
          this.kernel.reportError(error, { plugin: 'agent', phase: `turn ${turn.id}` })
        }
        this.current = undefined
        if (logFailed) {
          const dropped = this.inbox.clear()
          if (dropped > 0) this.kernel.log({ level: 'error', plugin: 'agent', message: `session ${this.log.id}: ${dropped} queued message(s) dropped: the session log failed`, time: Date.now() })
          break
        }
        this.inbox.requeueSteering()
        this.publishState()
      }
    } catch (error) {
      this.kernel.reportError(error, { plugin: 'agent', phase: 'session' })
    } finally {
      // Synchronous with the loop's last check: a send() after this line starts a new pump.
      this.pumping = false
      this.publishState()
      for (const resolve of this.idleWaiters.splice(0)) resolve()
    }
  }

  // ---- state --------------------------------------------------------------------------------

  private nextStateChange(): Promise<void> {
    return new Promise((resolve) => this.stateWaiters.push(resolve))
  }

  private publishState(): void {
    const state = this.state
    const key = JSON.stringify(state)
    for (const resolve of this.stateWaiters.splice(0)) resolve()
    if (key === this.lastState) return
    this.lastState = key
    this.kernel.emit('agent/state', this.log.id, state)
  }

  /** A log that ends inside a turn (the host stopped mid-turn) gets that turn closed, so every opened turn has a turn/end. */
  private closeInterruptedTurn(workspace: string): void {
    let open: string | undefined
    for (const event of this.log.events) {
      if (event.type === 'turn/start') open = event.turnId
      else if (event.type === 'turn/end' && event.turnId === open) open = undefined
    }
    if (open === undefined) return
    this.log.append({ type: 'turn/end', turnId: open, reason: 'error', error: 'interrupted: the session stopped before this turn ended' })
    // A write the stop cut between its temp file and the rename leaves that temp file in the workspace.
    const warn = (message: string): void => this.kernel.log({ level: 'warn', plugin: 'agent', message: `session ${this.log.id}: ${message}`, time: Date.now() })
    this.interruptedWritesSwept = sweepInterruptedWrites(this.log.events, open, workspace, warn).then(
      () => undefined,
      (error: unknown) => warn(`sweeping interrupted writes failed: ${String(error)}`)
    )
  }
}

function requireTools(kernel: Kernel): ToolRegistry {
  const tools = kernel.getService('tools')
  if (!tools) throw new Error('the tools service is not available (apply the tools plugin)')
  return tools
}
