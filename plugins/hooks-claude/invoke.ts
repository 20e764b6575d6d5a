// Runs one event occurrence's matching handlers through the hook-protocol library: match (the
// two-mode matcher on the event's target), the `if` filter, de-duplication by command string,
// then every handler at once under the global limiter. Each run is recorded (hook/invoked,
// hook/result) and every failure is shown to the user, whatever the policy does with it.
import { randomUUID } from 'node:crypto'
import {
  CLAUDE_BLOCKING_EVENTS,
  DEFAULT_MAX_OUTPUT_BYTES,
  PERMISSION_EVENTS,
  aggregateOutcomes,
  applyFailurePolicy,
  bashParserLoaded,
  dedupeHandlers,
  groupMatches,
  hookInvokedEvent,
  hookResultEvent,
  loadBashParser,
  matchesPermissionRule,
  parseClaudeHookOutput,
  runCommandHook,
  runHttpHook,
  type AggregatedOutcome,
  type ClaudeHookEvent,
  type HookExecution,
  type HookInvocation,
  type HookLimiter,
  type HookOutcome
} from '../hook-protocol/index'
import type { Logger } from '@seam/sdk'
import { execFormCommand, expandHeaders } from './env'
import { persistIfLarge } from './persisted-output'
import type { ScopedHookRegistry } from './scoped-hooks'
import type { HookSink } from './sessions'
import type { ConfiguredHandler } from './settings-loader'
import type { HooksSnapshot } from './sources'

/** SessionEnd's own budget (claude-code-hooks.md §3): 1.5 s unless configured, at most 60 s. */
const SESSION_END_DEFAULT_SEC = 1.5
const SESSION_END_MAX_SEC = 60
const STDERR_EXCERPT = 400

export interface InvokerDeps {
  limiter: HookLimiter
  logger: Logger
  snapshot(): HooksSnapshot
  /** Each session's own hooks (a skill's), run after the settings' ones. */
  scoped?: ScopedHookRegistry
  defaultTimeoutSec: number
  home: string
}

/** One occurrence of an event: what the hooks get and where their records go. */
export interface Occurrence {
  event: ClaudeHookEvent
  /** The stdin JSON object (common fields + event fields). */
  input: Record<string, unknown>
  cwd: string
  projectDir: string
  env: Record<string, string | undefined>
  sink: HookSink
  /** Tool events: what the `if` filter tests. */
  tool?: { name: string; input: Record<string, unknown> }
  toolCallToken?: string
  /** Cancels synchronous handlers (the turn was cancelled, the bridge disposed). */
  signal?: AbortSignal
  /** Cancels async handlers (the session ended, the bridge disposed). */
  asyncSignal?: AbortSignal
  /** An async handler finished (its answer never changes the event's outcome). */
  onAsyncDone?(run: HookRun): void
  /** Runs right before the handlers start, when there are any (brings the transcript up to date). */
  beforeRun?(): void
  /** Where context too large to inline is saved (§5 Large outputs); without it, it stays inline. */
  largeOutputDir?: string
}

export interface HookRun {
  handler: ConfiguredHandler
  execution: HookExecution
  /** After the handler's onFailure policy. */
  outcome: HookOutcome
  /** How a block came about: a blocking exit (2), the onFailure policy, or the JSON answer. */
  blockedBy?: 'exit2' | 'policy' | 'answer'
}

export interface EventRun {
  /** Synchronous handlers, in configuration order. */
  runs: HookRun[]
  aggregated: AggregatedOutcome
}

export class HookInvoker {
  constructor(private readonly deps: InvokerDeps) {}

  /** Whether any handler is configured for `event` (the fast path of every seam). */
  has(event: ClaudeHookEvent): boolean {
    const snapshot = this.deps.snapshot()
    if ((snapshot.byEvent.get(event)?.length ?? 0) > 0) return true
    return snapshot.disabledBy === undefined && this.deps.scoped !== undefined && this.deps.scoped.has(event)
  }

  /** The handlers that run for this occurrence, in configuration order (the session's scoped ones last); a scoped `once` handler selected here is spent. */
  select(occurrence: Occurrence): ConfiguredHandler[] {
    const snapshot = this.deps.snapshot()
    const settings = snapshot.byEvent.get(occurrence.event) ?? []
    const sessionId = occurrence.input.session_id
    const agentId = typeof occurrence.input.agent_id === 'string' ? occurrence.input.agent_id : undefined
    const scoped = snapshot.disabledBy === undefined && typeof sessionId === 'string' ? (this.deps.scoped?.handlers(sessionId, occurrence.event, agentId) ?? []) : []
    const configured = scoped.length > 0 ? [...settings, ...scoped] : settings
    const request = { source: 'claude' as const, event: occurrence.event, input: occurrence.input }
    const matching = configured.filter((handler) => {
      if (!groupMatches(request, handler.matcher)) return false
      const rule = handler.handler.if
      if (rule === undefined || occurrence.tool === undefined) return true
      return matchesPermissionRule(rule, occurrence.tool.name, occurrence.tool.input, {
        cwd: occurrence.cwd,
        projectDir: occurrence.projectDir,
        home: this.deps.home
      })
    })
    const selected = dedupeHandlers(matching, (handler) => handler.key)
    if (scoped.length > 0) this.deps.scoped?.selected(selected)
    return selected
  }

  /** Runs every selected handler at once and waits for the synchronous ones; `undefined` when none ran. */
  async run(occurrence: Occurrence): Promise<EventRun | undefined> {
    // A Bash `if` filter splits the command: the parser loads once, before the first tool event.
    // If it cannot load, every line is unreadable and every Bash `if` filter matches (the hook runs).
    if (occurrence.tool !== undefined && !bashParserLoaded()) await loadBashParser().catch(() => undefined)
    const handlers = this.select(occurrence)
    if (handlers.length === 0) return undefined
    occurrence.beforeRun?.()
    const stdin = JSON.stringify(occurrence.input)
    const pending: Array<Promise<HookRun>> = []
    for (const handler of handlers) {
      if (handler.handler.async === true && handler.handler.asyncRewake !== true) {
        // Fire and forget: recorded and reported like any other, but it never decides anything.
        void this.runOne(handler, occurrence, stdin, occurrence.asyncSignal).then((run) => {
          try {
            occurrence.onAsyncDone?.(run)
          } catch (error) {
            this.deps.logger.error(`async ${occurrence.event} hook [${handler.label}]: delivering its answer failed`, error)
          }
        })
      } else {
        pending.push(this.runOne(handler, occurrence, stdin, occurrence.signal))
      }
    }
    const runs = await Promise.all(pending)
    if (runs.length === 0) return undefined
    return { runs, aggregated: aggregateOutcomes(runs.map((run) => run.outcome)) }
  }

  private runOne(handler: ConfiguredHandler, occurrence: Occurrence, stdin: string, signal?: AbortSignal): Promise<HookRun> {
    const { event, sink } = occurrence
    return this.deps.limiter.run(async () => {
      const invocation: HookInvocation = {
        invocationId: randomUUID(),
        source: 'claude',
        event,
        command: handler.label,
        handlerType: handler.handler.type === 'http' ? 'http' : 'command',
        sourceFile: handler.file,
        input: stdin
      }
      if (handler.matcher !== undefined) invocation.matcher = handler.matcher
      if (occurrence.toolCallToken !== undefined) invocation.toolCallToken = occurrence.toolCallToken
      if (handler.handler.statusMessage) invocation.statusMessage = handler.handler.statusMessage
      sink.record(hookInvokedEvent(invocation))

      const execution = await this.execute(handler, occurrence, stdin, signal)
      const run = interpret(event, handler, execution)
      if (occurrence.largeOutputDir !== undefined) this.persistLarge(run, occurrence.largeOutputDir, sink)
      sink.record(hookResultEvent(invocation, execution, run.outcome))
      const notice = failureNotice(event, run)
      if (notice) sink.notify(notice.level, notice.text, `hook:${event}`)
      // Cut output read as plain text is used as it is: say so (a cut JSON answer is already a failure above).
      if (execution.handlerType === 'command' && execution.stdoutTruncated && run.outcome.failureKind === undefined) {
        sink.notify('warn', `${event} hook [${handler.label}] (${handler.file}) printed more than ${DEFAULT_MAX_OUTPUT_BYTES} bytes on stdout: the rest was cut.`, `hook:${event}`)
      }
      return run
    })
  }

  private async execute(handler: ConfiguredHandler, occurrence: Occurrence, stdin: string, signal?: AbortSignal): Promise<HookExecution> {
    const definition = handler.handler
    const timeoutMs = this.timeoutSec(handler, occurrence.event) * 1000
    try {
      if (definition.type === 'http') {
        return await runHttpHook({
          url: definition.url,
          body: stdin,
          headers: expandHeaders(definition.headers, definition.allowedEnvVars, occurrence.env),
          timeoutMs,
          ...(signal ? { signal } : {})
        })
      }
      if (definition.type !== 'command') throw new Error(`"${definition.type}" hooks are not supported`)
      const env = handler.env ? { ...occurrence.env, ...handler.env } : occurrence.env
      const command = definition.args ? execFormCommand(definition.command, definition.args, env) : definition.command
      return await runCommandHook({ command, stdin, env, cwd: occurrence.cwd, timeoutMs, ...(signal ? { signal } : {}) })
    } catch (error) {
      // Only invalid options get here (a malformed URL, an empty cwd): the hook could not start.
      const message = error instanceof Error ? error.message : String(error)
      if (definition.type === 'http') {
        return { handlerType: 'http', status: null, body: '', bodyTruncated: false, durationMs: 0, failure: 'network_error', errorMessage: message }
      }
      return {
        handlerType: 'command',
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: '',
        stdoutTruncated: false,
        stderrTruncated: false,
        durationMs: 0,
        failure: 'spawn_error',
        errorMessage: message
      }
    }
  }

  /** Replaces context past Claude Code's inline limit by its `<persisted-output>` stub. */
  private persistLarge(run: HookRun, dir: string, sink: HookSink): void {
    const { outcome } = run
    try {
      if (outcome.additionalContext !== undefined) outcome.additionalContext = persistIfLarge(outcome.additionalContext, dir)
      if (outcome.plainStdoutContext !== undefined) outcome.plainStdoutContext = persistIfLarge(outcome.plainStdoutContext, dir)
    } catch (error) {
      // Could not save it: the text goes inline rather than being lost.
      sink.notify('warn', `Claude Code hooks: could not save a large hook output under ${dir}: ${(error as Error).message}; it is passed inline`, 'hooks-claude')
    }
  }

  private timeoutSec(handler: ConfiguredHandler, event: ClaudeHookEvent): number {
    const configured = handler.handler.timeout
    if (event === 'SessionEnd') return Math.min(configured ?? SESSION_END_DEFAULT_SEC, SESSION_END_MAX_SEC)
    return configured ?? this.deps.defaultTimeoutSec
  }
}

/** Parses per the spec, then applies the handler's onFailure policy where the event can block. */
function interpret(event: ClaudeHookEvent, handler: ConfiguredHandler, execution: HookExecution): HookRun {
  const raw = parseClaudeHookOutput(event, execution)
  const policy = handler.handler.onFailure ?? 'continue'
  const stderr = execution.handlerType === 'command' ? execution.stderr : ''
  const outcome = CLAUDE_BLOCKING_EVENTS.has(event) ? applyFailurePolicy(raw, policy, PERMISSION_EVENTS.has(event), stderr) : raw
  const run: HookRun = { handler, execution, outcome }
  if (outcome.kind === 'block') {
    if (raw.kind === 'error') run.blockedBy = 'policy'
    else if (execution.handlerType === 'command' && execution.exitCode === 2 && execution.failure === undefined) run.blockedBy = 'exit2'
    else run.blockedBy = 'answer'
  }
  return run
}

/** `[<cmd>]: <text>` for blocks that came from a process (exit 2, a failure), the bare reason for a JSON answer. */
export function blockText(run: HookRun, fallback: string): string {
  const reason = run.outcome.reason ?? fallback
  return run.blockedBy === 'exit2' || run.blockedBy === 'policy' ? `[${run.handler.label}]: ${reason}` : reason
}

/** What the user is told about a failed hook (a non-zero exit, a timeout, bad output...). */
export function failureNotice(event: ClaudeHookEvent, run: HookRun): { level: 'warn' | 'error'; text: string } | undefined {
  const { outcome, execution, handler } = run
  const stderr = execution.handlerType === 'command' ? execution.stderr.trim() : ''
  const where = `${event} hook [${handler.label}] (${handler.file})`
  if (outcome.failureKind === undefined) {
    // An exit 2 whose stderr is the shell's own complaint is most likely a broken command, not a decision.
    if (run.blockedBy === 'exit2' && /^\/bin\/sh: \d+: /.test(stderr)) {
      return { level: 'warn', text: `${where} exited with code 2 and a shell error, which blocks like an intentional exit 2: ${excerpt(stderr)}` }
    }
    return undefined
  }
  const detail = [outcome.errorMessage ?? outcome.failureKind, stderr ? `stderr: ${excerpt(stderr)}` : ''].filter(Boolean).join('; ')
  let consequence: string
  if (run.blockedBy === 'policy') consequence = 'blocked, because its onFailure is "block"'
  else if (outcome.kind === 'block' || outcome.decision !== undefined) consequence = 'its JSON answer was still used'
  else consequence = CLAUDE_BLOCKING_EVENTS.has(event) ? 'ignored, the agent goes on (onFailure: "continue")' : 'ignored'
  return { level: run.blockedBy === 'policy' ? 'error' : 'warn', text: `${where} failed (${outcome.failureKind}): ${detail}. ${capitalize(consequence)}.` }
}

function excerpt(text: string): string {
  return text.length > STDERR_EXCERPT ? `${text.slice(0, STDERR_EXCERPT)}…` : text
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
