// Model adapters as plugins: the `models` service maps a provider kind to the adapter that
// speaks its protocol, and each adapter is its own profile entry, so a patch layer can disable
// or replace one (a plugin may register an adapter for a new provider kind the same way).
import { definePlugin, type Context } from '../../src-shared/kernel'
import type { Disposable } from '../../src-shared/kernel/types'
import { ModelError, type ModelClient, type ProviderConfig } from '../../src-shared/model'
import { createAnthropicClient } from './anthropic'
import { createOpenAICompatibleClient } from './openai-compatible'

export type ModelAdapter = (config: ProviderConfig) => ModelClient

export interface ModelAdapters {
  /** Registers the adapter for provider kinds; removed with the registering plugin. */
  register(ctx: Context, kinds: readonly string[], adapter: ModelAdapter): Disposable
  /** A client for the config, or a clear error naming the provider when no adapter is loaded. */
  create(config: ProviderConfig): ModelClient
  kinds(): string[]
}

declare module '../../src-shared/kernel/types' {
  interface Services {
    models: ModelAdapters
  }
}

export const modelsPlugin = definePlugin({
  name: 'models',
  apply(ctx) {
    const adapters = new Map<string, { adapter: ModelAdapter; owner: string }>()
    ctx.provide('models', {
      register(owner, kinds, adapter) {
        for (const kind of kinds) {
          const existing = adapters.get(kind)
          if (existing) throw new Error(`plugin "${owner.name}": provider "${kind}" already has an adapter from plugin "${existing.owner}"`)
        }
        const record = { adapter, owner: owner.name }
        for (const kind of kinds) adapters.set(kind, record)
        return owner.onDispose(() => {
          for (const kind of kinds) if (adapters.get(kind) === record) adapters.delete(kind)
        })
      },
      create(config) {
        const record = adapters.get(config.provider)
        if (!record) throw new ModelError('bad_request', `No model adapter is loaded for provider "${config.provider}" (is its profile entry disabled?)`)
        return record.adapter(config)
      },
      kinds: () => [...adapters.keys()]
    })
  }
})

export const openAIAdapterPlugin = definePlugin({
  name: 'model-openai',
  inject: ['models'],
  apply(ctx) {
    ctx.get('models').register(ctx, ['deepseek', 'openai', 'ollama', 'openai-compatible'], createOpenAICompatibleClient)
  }
})

export const anthropicAdapterPlugin = definePlugin({
  name: 'model-anthropic',
  inject: ['models'],
  apply(ctx) {
    ctx.get('models').register(ctx, ['anthropic'], createAnthropicClient)
  }
})
