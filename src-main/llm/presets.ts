// Provider presets, config validation, adapter choice and a connection check.
//
// A provider config names a provider kind; base URL and model default from the preset, so
// `{ provider: 'deepseek', apiKey }` is a complete config. 'openai-compatible' has no preset
// address and must name its own `baseUrl` and `model`.

import { z } from 'zod'
import { ModelError, type ModelClient, type ModelErrorKind, type ProviderConfig, type ProviderKind } from '../../src-shared/model'
import { createAnthropicClient } from './anthropic'
import { toModelError } from './errors'
import { createOpenAICompatibleClient } from './openai-compatible'

export interface ProviderPreset {
  /** Undefined where the user must supply it. */
  baseUrl?: string
  model?: string
  /** The hosted APIs refuse requests without a key; local servers do not need one. */
  needsApiKey: boolean
}

export const PROVIDER_PRESETS: Readonly<Record<ProviderKind, ProviderPreset>> = {
  deepseek: { baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', needsApiKey: true },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1', needsApiKey: true },
  // Not claude-sonnet-4-5: the installed SDK lists it as reaching end-of-life on 2026-11-30.
  anthropic: { baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-5-5', needsApiKey: true },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', needsApiKey: false },
  'openai-compatible': { needsApiKey: false }
}

const PROVIDER_KINDS = ['deepseek', 'openai', 'anthropic', 'ollama', 'openai-compatible'] as const satisfies readonly ProviderKind[]

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })

/**
 * Validates a provider config from a settings file or IPC and fills preset defaults. Unknown
 * fields are rejected so a typo ("baseURL") fails loudly instead of being ignored.
 */
export const ProviderConfigSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_KINDS),
    baseUrl: HttpUrl.optional(),
    model: z.string().trim().min(1, 'must not be empty').optional(),
    apiKey: z.string().min(1, 'must not be empty').optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    stallTimeoutMs: z.number().int().min(100).max(3_600_000).optional()
  })
  .superRefine((cfg, ctx) => {
    const preset = PROVIDER_PRESETS[cfg.provider]
    if (!cfg.baseUrl && !preset.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: `is required for provider '${cfg.provider}'` })
    if (!cfg.model && !preset.model) ctx.addIssue({ code: 'custom', path: ['model'], message: `is required for provider '${cfg.provider}'` })
  })
  .transform((cfg): ProviderConfig => {
    const preset = PROVIDER_PRESETS[cfg.provider]
    return {
      provider: cfg.provider,
      baseUrl: stripTrailingSlash(cfg.baseUrl ?? preset.baseUrl ?? ''),
      model: cfg.model ?? preset.model ?? '',
      ...(cfg.apiKey !== undefined ? { apiKey: cfg.apiKey } : {}),
      ...(cfg.maxRetries !== undefined ? { maxRetries: cfg.maxRetries } : {}),
      ...(cfg.stallTimeoutMs !== undefined ? { stallTimeoutMs: cfg.stallTimeoutMs } : {})
    }
  })

/**
 * Parses a provider config or throws an Error naming each bad field, e.g.
 * `Invalid provider config (settings.json): baseUrl: must be an http:// or https:// URL`.
 */
export function parseProviderConfig(input: unknown, source?: string): ProviderConfig {
  const result = ProviderConfigSchema.safeParse(input)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(config)'}: ${issue.message}`)
  throw new Error(`Invalid provider config${source ? ` (${source})` : ''}: ${problems.join('; ')}`)
}

export function createModelClient(cfg: ProviderConfig): ModelClient {
  return cfg.provider === 'anthropic' ? createAnthropicClient(cfg) : createOpenAICompatibleClient(cfg)
}

export type ConnectionTestResult = { ok: true; model: string } | { ok: false; kind: ModelErrorKind; message: string }

/**
 * Sends the smallest real request ("ping", one output token, no retries) and reports either
 * success or the provider's own error text, for a settings screen's "Test connection" button.
 */
export async function testConnection(
  cfg: ProviderConfig,
  signal?: AbortSignal,
  create: (cfg: ProviderConfig) => ModelClient = createModelClient
): Promise<ConnectionTestResult> {
  try {
    const client = create({ ...cfg, maxRetries: 0 })
    for await (const event of client.stream({ system: '', messages: [{ role: 'user', content: 'ping' }], tools: [], maxTokens: 1, signal })) {
      if (event.type === 'done') return { ok: true, model: cfg.model }
    }
    return { ok: false, kind: 'bad_response', message: 'The provider closed the stream without finishing the reply.' }
  } catch (err) {
    const error = err instanceof ModelError ? err : toModelError(err, { signal, baseUrl: cfg.baseUrl })
    return { ok: false, kind: error.kind, message: error.message }
  }
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '')
}
