// Combines the outcomes of every handler that ran for one event occurrence. Deterministic where
// Claude Code is not (claude-code-hooks.md §7: "last finisher wins"): outcomes are taken in
// CONFIGURATION order, so ties and single-valued fields go to the first handler in that order.
import type { HookFailureKind, HookOutcome, HookPermissionDecision } from './outcome'

export interface AggregatedOutcome {
  /** Some handler took the event's blocking path (exit 2, decision block, deny). */
  blocked: boolean
  /** deny > ask > allow; absent when no handler decided. */
  decision?: HookPermissionDecision
  /** Reason of the first handler (config order) holding the winning block/decision. */
  reason?: string
  /** Every block reason, config order, joined with "\n" (Stop feedback, PostToolUse errors). */
  blockFeedback?: string
  /** First rewrite in config order; dropped when the event is blocked or denied. */
  updatedInput?: Record<string, unknown>
  /** Joined with "\n" in config order. */
  additionalContext?: string
  plainStdoutContext?: string
  systemMessage?: string
  /** `false` when any handler said `continue: false`. */
  continue: boolean
  /** First `stopReason` (config order) among handlers that said `continue: false`. */
  stopReason?: string
  suppressOutput: boolean
  /** First in config order; dropped when blocked. */
  updatedToolOutput?: unknown
  interrupt: boolean
  /** Handlers that failed, by their index in the input. Failures never block by themselves. */
  errors: Array<{ index: number; failureKind?: HookFailureKind; errorMessage?: string }>
}

/** Claude Code's precedence: deny > defer > ask > allow. */
const RANK: Record<HookPermissionDecision, number> = { allow: 1, ask: 2, defer: 3, deny: 4 }

/** `outcomes` must be in configuration order (the order handlers were declared), not completion order. */
export function aggregateOutcomes(outcomes: readonly HookOutcome[]): AggregatedOutcome {
  const blockers = outcomes.filter((outcome) => outcome.kind === 'block')
  const blocked = blockers.length > 0
  let decision: HookPermissionDecision | undefined
  for (const outcome of outcomes) {
    if (outcome.decision && (!decision || RANK[outcome.decision] > RANK[decision])) decision = outcome.decision
  }

  const winners = blocked ? blockers : outcomes.filter((outcome) => decision !== undefined && outcome.decision === decision)
  const stoppers = outcomes.filter((outcome) => outcome.continue === false)
  const rewriteAllowed = !blocked && decision !== 'deny'

  const result: AggregatedOutcome = {
    blocked,
    continue: stoppers.length === 0,
    suppressOutput: outcomes.some((outcome) => outcome.suppressOutput === true),
    interrupt: outcomes.some((outcome) => outcome.interrupt === true),
    errors: []
  }
  if (decision) result.decision = decision
  assign(result, 'reason', first(winners, (outcome) => outcome.reason))
  assign(result, 'blockFeedback', joined(blockers, (outcome) => outcome.reason))
  if (rewriteAllowed) {
    assign(result, 'updatedInput', first(outcomes, (outcome) => outcome.updatedInput))
    assign(result, 'updatedToolOutput', first(outcomes, (outcome) => outcome.updatedToolOutput))
  }
  assign(result, 'additionalContext', joined(outcomes, (outcome) => outcome.additionalContext))
  assign(result, 'plainStdoutContext', joined(outcomes, (outcome) => outcome.plainStdoutContext))
  assign(result, 'systemMessage', joined(outcomes, (outcome) => outcome.systemMessage))
  assign(result, 'stopReason', first(stoppers, (outcome) => outcome.stopReason))
  outcomes.forEach((outcome, index) => {
    if (outcome.kind === 'error' || outcome.failureKind) {
      result.errors.push({ index, failureKind: outcome.failureKind, errorMessage: outcome.errorMessage })
    }
  })
  return result
}

/**
 * Claude Code runs handlers with an identical key (the exact command string) once per event
 * occurrence, even across groups and settings files (§3). Keeps the first in config order.
 * A handler whose key is `undefined` is never merged.
 */
export function dedupeHandlers<T>(handlers: readonly T[], keyOf: (handler: T) => string | undefined = defaultKey): T[] {
  const seen = new Set<string>()
  return handlers.filter((handler) => {
    const key = keyOf(handler)
    if (key === undefined) return true
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function defaultKey(handler: unknown): string | undefined {
  if (typeof handler !== 'object' || handler === null || !('command' in handler)) return undefined
  return typeof handler.command === 'string' ? handler.command : undefined
}

function first<T>(outcomes: readonly HookOutcome[], pick: (outcome: HookOutcome) => T | undefined): T | undefined {
  for (const outcome of outcomes) {
    const value = pick(outcome)
    if (value !== undefined) return value
  }
  return undefined
}

function joined(outcomes: readonly HookOutcome[], pick: (outcome: HookOutcome) => string | undefined): string | undefined {
  const texts = outcomes.map(pick).filter((text): text is string => text !== undefined && text !== '')
  return texts.length > 0 ? texts.join('\n') : undefined
}

function assign<K extends keyof AggregatedOutcome>(target: AggregatedOutcome, key: K, value: AggregatedOutcome[K] | undefined): void {
  if (value !== undefined) target[key] = value
}
