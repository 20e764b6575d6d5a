// The `sessionModels` service (src-shared/host/session-models.ts): side requests to the provider
// a session uses, for plugins (WebFetch's small model, WebSearch through Anthropic's search).
import type { SessionModelService } from '../../src-shared/host/session-models'
import { ModelError, type ModelClient, type ProviderConfig } from '../../src-shared/model'
import { anthropicWebSearch } from '../llm/anthropic-web-search'

export function createSessionModelService(
  providerOf: (sessionId: string) => Promise<ProviderConfig | undefined>,
  createClient: (config: ProviderConfig) => ModelClient,
  inUse: () => ProviderConfig | undefined
): SessionModelService {
  return {
    inUse() {
      const config = inUse()
      return config ? { provider: config.provider, model: config.model } : undefined
    },
    async current(sessionId) {
      const config = await providerOf(sessionId)
      return config ? { provider: config.provider, model: config.model } : undefined
    },
    async clientFor(sessionId, model) {
      const config = await providerOf(sessionId)
      if (!config) throw new ModelError('bad_request', 'No model provider is configured: choose one in Settings (or pass --provider).')
      return createClient({ ...config, model })
    },
    async webSearch(sessionId) {
      const config = await providerOf(sessionId)
      return config?.provider === 'anthropic' ? anthropicWebSearch(config) : undefined
    }
  }
}
