// A session's token and cost totals from its usage/step events and its subagents' (their
// `subagent/end`: each child's requests are in its own log), what `/usage`, the CLI and the chat
// header show. Pure: the host and the renderer both use it.
import type { SessionEvent } from './events'

export interface UsageTotals {
  requests: number
  inputTokens: number
  cachedInputTokens: number
  outputTokens: number
  reasoningTokens: number
  /** Sum of the priced requests. */
  costUsd: number
  /** Requests without a price (their cost is not in `costUsd`). */
  unpriced: number
  /** The last request's prompt plus its output: what the next request starts from. */
  contextTokens: number
  contextWindow?: number
  /** Of the totals above: what the session's finished subagents used (requests, tokens, cost). */
  subagents: { count: number; requests: number; inputTokens: number; outputTokens: number; costUsd: number }
}

/** The session's totals from its usage/step events (what `/usage` and the header show). */
export function usageTotals(events: readonly SessionEvent[]): UsageTotals {
  const totals: UsageTotals = {
    requests: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, costUsd: 0, unpriced: 0, contextTokens: 0,
    subagents: { count: 0, requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }
  }
  for (const event of events) {
    if (event.type === 'subagent/end') {
      // Its own context window: only the sums count, never the session's context meter.
      const sub = totals.subagents
      sub.count++
      sub.requests += event.steps
      sub.inputTokens += event.usage.inputTokens
      sub.outputTokens += event.usage.outputTokens
      totals.requests += event.steps
      totals.inputTokens += event.usage.inputTokens
      totals.cachedInputTokens += event.usage.cachedInputTokens
      totals.outputTokens += event.usage.outputTokens
      if (event.costUsd !== undefined) {
        sub.costUsd += event.costUsd
        totals.costUsd += event.costUsd
      } else if (event.steps > 0) totals.unpriced += event.steps
      continue
    }
    if (event.type === 'compaction') totals.contextTokens = event.tokensAfter ?? 0
    // Another model has another window: the last one's percentage no longer says anything, until
    // the next request reports the new window.
    if (event.type === 'model/switched') delete totals.contextWindow
    if (event.type !== 'usage/step') continue
    const u = event.usage
    totals.requests++
    totals.inputTokens += u.inputTokens
    totals.cachedInputTokens += u.cachedInputTokens
    totals.outputTokens += u.outputTokens
    totals.reasoningTokens += u.reasoningTokens
    if (event.costUsd !== undefined) totals.costUsd += event.costUsd
    else totals.unpriced++
    if (event.purpose !== 'compaction') totals.contextTokens = u.inputTokens + u.outputTokens
    if (event.contextWindow !== undefined) totals.contextWindow = event.contextWindow
  }
  return totals
}
