// What Seam knows about a model beyond its wire protocol: its context window (for the context
// meter and automatic compaction) and its prices (for the cost of a session). The defaults below
// are a starting point, in USD per million tokens as the providers list them; the user's
// `models` settings entries override them field by field, so a price change or a model not
// listed here is a settings edit.
import type { ModelUsage, ProviderKind } from '../../src-shared/model'
import type { ModelInfo, ModelPrices, ModelTable } from '../../src-shared/model-table'

export { ModelInfoSchema, ModelPricesSchema, ModelTableSchema, type ModelInfo, type ModelPrices, type ModelTable } from '../../src-shared/model-table'

/** Defaults for the presets' models (src-main/llm/presets.ts). */
export const DEFAULT_MODEL_TABLE: Readonly<ModelTable> = {
  'deepseek-chat': { provider: 'deepseek', vision: false, contextWindow: 128_000, prices: { input: 0.28, cachedInput: 0.028, output: 0.42 } },
  'deepseek-reasoner': { provider: 'deepseek', vision: false, contextWindow: 128_000, prices: { input: 0.28, cachedInput: 0.028, output: 0.42 } },
  'gpt-4.1': { provider: 'openai', vision: true, contextWindow: 1_047_576, prices: { input: 2, cachedInput: 0.5, output: 8 } },
  'claude-sonnet-5-5': { provider: 'anthropic', vision: true, contextWindow: 200_000, prices: { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 } },
  'llama3.1': { provider: 'ollama', vision: false, contextWindow: 131_072, prices: { input: 0, output: 0 } }
}

/** The defaults for `model` with the user's overrides on top (field by field). */
export function modelInfo(model: string, overrides: ModelTable = {}): ModelInfo {
  const base = DEFAULT_MODEL_TABLE[model] ?? {}
  const own = overrides[model] ?? {}
  const info: ModelInfo = {}
  const contextWindow = own.contextWindow ?? base.contextWindow
  if (contextWindow !== undefined) info.contextWindow = contextWindow
  const prices = own.prices ?? base.prices
  if (prices !== undefined) info.prices = prices
  const vision = own.vision ?? base.vision
  if (vision !== undefined) info.vision = vision
  const provider = own.provider ?? base.provider
  if (provider !== undefined) info.provider = provider
  return info
}

/** The models the table lists for `provider` (the defaults and the user's entries), in table order. */
export function modelsOf(provider: ProviderKind, overrides: ModelTable = {}): string[] {
  const names = new Set([...Object.keys(DEFAULT_MODEL_TABLE), ...Object.keys(overrides)])
  return [...names].filter((name) => modelInfo(name, overrides).provider === provider)
}

/** USD for one request's usage; cached and cache-written prompt tokens at their own prices. */
export function costOf(usage: Required<Pick<ModelUsage, 'inputTokens' | 'outputTokens'>> & ModelUsage, prices: ModelPrices): number {
  const cached = usage.cachedInputTokens ?? 0
  const written = usage.cacheWriteTokens ?? 0
  const fresh = Math.max(0, usage.inputTokens - cached - written)
  const dollars =
    fresh * prices.input + cached * (prices.cachedInput ?? prices.input) + written * (prices.cacheWrite ?? prices.input) + usage.outputTokens * prices.output
  return dollars / 1_000_000
}
