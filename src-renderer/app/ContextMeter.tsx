// The chat header's context meter: how full the model's context window is after the last request
// (its prompt plus its answer), and what the session has cost, from the open session's usage/step
// and compaction events.
import { useMemo } from 'react'
import { usageTotals } from '../../src-shared/session/usage-totals'
import { useSessionStore } from '../transcript/session-store'

export function ContextMeter() {
  const events = useSessionStore((state) => state.events)
  const totals = useMemo(() => usageTotals(events), [events])
  if (totals.requests === 0) return null
  const window = totals.contextWindow
  const percent = window ? Math.min(100, Math.round((totals.contextTokens / window) * 100)) : undefined
  const cost = totals.unpriced === totals.requests ? 'no price' : formatCost(totals.costUsd)
  const title =
    `Context: ${totals.contextTokens} tokens${window ? ` of ${window}` : ' (the window of this model is known after its first request)'}\n` +
    (totals.unpriced === totals.requests ? '' : `Cost: $${totals.costUsd.toFixed(6)}\n`) +
    `Session: ${totals.requests} requests, ${totals.inputTokens} input (${totals.cachedInputTokens} cached), ${totals.outputTokens} output (${totals.reasoningTokens} reasoning) tokens` +
    (totals.unpriced > 0 ? `\n${totals.unpriced} request(s) have no price in the model table` : '')
  return (
    <span className="context-meter" title={title} aria-label="Context and cost">
      {percent !== undefined ? (
        <span role="meter" aria-label="Context window used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="context-meter-bar">
          <span className={`context-meter-fill${percent >= 80 ? ' high' : ''}`} style={{ width: `${percent}%` }} />
        </span>
      ) : null}
      <span className="context-meter-text">
        {percent !== undefined ? `${percent}% context` : `${formatTokens(totals.contextTokens)} tokens`} · {cost}
      </span>
    </span>
  )
}

/** Dollars and cents; below a cent, "<$0.01" (the exact figure is in the title). */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0.00'
  if (usd < 0.01) return '<$0.01'
  if (usd < 1000) return `$${usd.toFixed(2)}`
  return `$${Math.round(usd).toLocaleString('en-US')}`
}

function formatTokens(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n)
}
