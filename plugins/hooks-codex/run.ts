// Runs the handlers of one event occurrence the way Codex does (codex-hooks.md §5, §6): every
// matching handler starts at once (up to Seam's concurrency cap), `/bin/bash -c` in the session
// directory with the event JSON on stdin, answers read by the shared parser, results returned in
// CONFIGURED order. Every run is recorded as hook/invoked + hook/result; every failure and every
// systemMessage is shown to the user. `async` handlers are started and not awaited.
import { randomUUID } from 'node:crypto'
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  anySignal,
  codexMatchTargets,
  hookInvokedEvent,
  hookResultEvent,
  matchesCodex,
  parseCodexHookOutput,
  runCommandHook,
  type CodexHookEvent,
  type CommandHookResult,
  type HookLimiter,
  type HookOutcome
} from '../hook-protocol'
import type { Logger } from '@seam/sdk'
import { commandShell, defaultKeyGuard, type KeyGuard } from '@seam/sdk/node'
import type { SessionEventInput } from '@seam/sdk'
import { CodexRollout, rolloutPathOf } from './rollout'
import type { SessionState } from './sessions'
import type { CodexHandler } from './types'

export const SOURCE = 'codex'

/** The longest a SessionEnd hook may run (Codex's default would let a hung hook hold shutdown for 600 s). */
export const SESSION_END_MAX_SEC = 60
/** Notices (shown to the user, never to the model) come from the plugin. */
export const NOTICE_SOURCE = 'hooks-codex'

export interface HandlerRun {
  handler: CodexHandler
  outcome: HookOutcome
  execution: CommandHookResult
}

export interface RunTarget {
  /** The session to record into and notify; absent for a call no agent stands behind. */
  state?: SessionState
  cwd: string
  toolCallToken?: string
}

export class CodexHookRunner {
  constructor(
    private readonly limiter: HookLimiter,
    private readonly logger: Logger,
    /** Aborted when the bridge is disposed: every hook it started is killed. */
    private readonly disposed?: AbortSignal,
    /** Strips Seam's provider keys from each hook's environment (read per run: the host's guard). */
    private readonly keys: () => Pick<KeyGuard, 'childEnv'> = () => defaultKeyGuard
  ) {}

  /** The handlers of `event` whose matcher accepts this occurrence, in configured order. */
  matching(event: CodexHookEvent, handlers: readonly CodexHandler[], input: Record<string, unknown>): CodexHandler[] {
    const targets = codexMatchTargets(event, input)
    return handlers.filter((handler) => handler.event === event && (targets === null || matchesCodex(handler.matcher, targets)))
  }

  /** Runs the synchronous handlers (awaited, results in configured order) and starts the async ones. */
  async run(event: CodexHookEvent, handlers: readonly CodexHandler[], input: Record<string, unknown>, target: RunTarget): Promise<HandlerRun[]> {
    if (handlers.length > 0) this.syncRollout(target)
    const stdin = JSON.stringify(input)
    for (const handler of handlers.filter((h) => h.async)) {
      void this.runOne(event, handler, stdin, target, this.disposed).then((run) => this.deliverAsync(event, run, target))
    }
    // Synchronous handlers end with the turn (cancel) as well as with the bridge.
    const signal = anySignal(target.state?.agent.turnSignal, this.disposed)
    return Promise.all(handlers.filter((h) => !h.async).map((handler) => this.runOne(event, handler, stdin, target, signal)))
  }

  private runOne(event: CodexHookEvent, handler: CodexHandler, stdin: string, target: RunTarget, signal: AbortSignal | undefined): Promise<HandlerRun> {
    return this.limiter.run(async () => {
      const invocationId = `codex-${randomUUID()}`
      this.record(target, () =>
        hookInvokedEvent({
          invocationId,
          source: SOURCE,
          event,
          ...(handler.matcher !== undefined ? { matcher: handler.matcher } : {}),
          command: handler.command,
          handlerType: 'command',
          sourceFile: handler.sourceFile,
          input: stdin,
          ...(target.toolCallToken ? { toolCallToken: target.toolCallToken } : {})
        })
      )
      const execution = await runCommandHook({
        command: handler.command,
        stdin,
        shell: commandShell('/bin/bash'),
        cwd: target.cwd,
        env: this.keys().childEnv({ ...process.env, ...(target.state?.agent.env ?? {}) }),
        // A session that ends (closing Seam included) waits at most a minute for a SessionEnd hook.
        timeoutMs: (event === 'SessionEnd' ? Math.min(handler.timeoutSec, SESSION_END_MAX_SEC) : handler.timeoutSec) * 1000,
        ...(signal ? { signal } : {})
      })
      const outcome = parseCodexHookOutput(event, execution)
      this.record(target, () => hookResultEvent({ invocationId, source: SOURCE, event }, execution, outcome))
      if (outcome.kind === 'error') {
        this.notify(target, 'warn', `Codex ${event} hook failed: ${handler.command} (${handler.sourceFile}): ${outcome.errorMessage ?? outcome.failureKind ?? 'failed'}`)
      }
      if (outcome.systemMessage) this.notify(target, 'warn', `Codex ${event} hook: ${outcome.systemMessage}`)
      if (execution.stdoutTruncated && outcome.kind !== 'error') {
        this.notify(target, 'warn', `Codex ${event} hook printed more than ${DEFAULT_MAX_OUTPUT_BYTES} bytes on stdout: the rest was cut (${handler.command}, ${handler.sourceFile}).`)
      }
      return { handler, outcome, execution }
    })
  }

  /** An async handler's decision is ignored; its context reaches the next model request. */
  private deliverAsync(event: CodexHookEvent, run: HandlerRun, target: RunTarget): void {
    for (const text of contextsOf([run])) {
      try {
        target.state?.agent.inject(text, `${SOURCE}:${event}`)
      } catch (error) {
        this.logger.warn(`Codex ${event} async hook context could not be delivered: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }

  /** The rollout file behind transcript_path, brought up to date before the hooks start. */
  private syncRollout(target: RunTarget): void {
    const state = target.state
    if (!state || state.rolloutFailed) return
    try {
      state.rollout ??= new CodexRollout(state.agent, rolloutPathOf(state))
      state.rollout.sync(state.agent)
    } catch (error) {
      state.rolloutFailed = true
      this.notify(target, 'warn', `Codex hooks: could not write the rollout file ${state.rollout?.path ?? ''}: ${error instanceof Error ? error.message : String(error)}; hooks that read transcript_path will not find it`)
    }
  }

  notify(target: RunTarget, level: 'info' | 'warn' | 'error', text: string): void {
    if (!target.state) {
      this.logger.warn(text)
      return
    }
    try {
      target.state.agent.notify(level, text, NOTICE_SOURCE)
    } catch (error) {
      this.logger.warn(`${text} (not shown in the session: ${error instanceof Error ? error.message : String(error)})`)
    }
  }

  private record(target: RunTarget, build: () => SessionEventInput): void {
    if (!target.state) return
    try {
      target.state.agent.record(build())
    } catch (error) {
      this.logger.warn(`Codex hook event not recorded: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

/** Model-visible context of each run, in configured order: plain stdout (where it counts) or additionalContext. */
export function contextsOf(runs: readonly HandlerRun[]): string[] {
  const texts: string[] = []
  for (const { outcome } of runs) {
    if (outcome.plainStdoutContext) texts.push(outcome.plainStdoutContext)
    if (outcome.additionalContext) texts.push(outcome.additionalContext)
  }
  return texts
}
