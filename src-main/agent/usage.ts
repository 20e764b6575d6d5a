// Token usage per model request, as durable `usage/step` events (not model-visible), priced from
// the model table the agent was given; and the session's totals, derived from the log.
import type { ModelUsage } from '../../src-shared/model'
import { costOf } from '../llm/model-table'
import type { LoopDeps } from './step'

export function logUsage(deps: Pick<LoopDeps, 'log' | 'model' | 'modelInfo'>, turnId: string | undefined, step: number, usage: ModelUsage, purpose: 'step' | 'compaction'): void {
  const counts = {
    inputTokens: usage.inputTokens ?? 0,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    ...(usage.cacheWriteTokens !== undefined ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    outputTokens: usage.outputTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0
  }
  const { contextWindow, prices } = deps.modelInfo()
  deps.log.append({
    type: 'usage/step',
    ...(turnId !== undefined ? { turnId } : {}),
    step,
    provider: deps.model.provider,
    model: deps.model.model,
    usage: counts,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(prices !== undefined ? { costUsd: costOf(counts, prices) } : {}),
    ...(purpose === 'compaction' ? { purpose } : {})
  })
}

export { usageTotals, type UsageTotals } from '../../src-shared/session/usage-totals'
