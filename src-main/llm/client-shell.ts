// What both adapters share around their SDK: the SDK options (no SDK retries or logging; no
// Authorization header without a key) and the ModelClient that retries one streamed attempt.
import type { ModelClient, ModelRequest, ModelStreamEvent, ProviderConfig } from '../../src-shared/model'
import { DEFAULT_MAX_RETRIES, withRetries } from './errors'

export function sdkOptions(cfg: ProviderConfig) {
  return {
    baseURL: cfg.baseUrl,
    // Local servers need no key, but the SDKs insist on one (and would otherwise look in the
    // environment or on disk): a placeholder is given and the Authorization header dropped.
    apiKey: cfg.apiKey ?? 'unused',
    maxRetries: 0,
    logLevel: 'off' as const,
    defaultHeaders: cfg.apiKey ? undefined : { Authorization: null }
  }
}

/** A client whose every stream is one attempt retried as withRetries allows. */
export function retryingClient(cfg: ProviderConfig, attempt: (request: ModelRequest) => AsyncIterable<ModelStreamEvent>): ModelClient {
  return {
    provider: cfg.provider,
    model: cfg.model,
    stream: (request) => withRetries(() => attempt(request), { maxRetries: cfg.maxRetries ?? DEFAULT_MAX_RETRIES }, request.signal)
  }
}
