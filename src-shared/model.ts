// Provider-neutral model request and stream types. Adapters (src-main/llm) translate these
// to and from each provider's wire protocol; the agent loop only ever sees these.

export interface ModelToolSpec {
  name: string
  description: string
  /** JSON Schema of the tool's input (from its zod schema). */
  inputSchema: Record<string, unknown>
}

export interface ModelToolCall {
  id: string
  name: string
  /** Parsed JSON arguments. When the model sent text that is not a JSON object, `args` is {} and `argsError` says why. */
  args: Record<string, unknown>
  argsError?: string
}

/** An image in a user message: base64 bytes and their media type (src-shared/session/attachments.ts). */
export interface ModelImage {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  data: string
}

export type ModelMessage =
  | { role: 'user'; content: string; images?: ModelImage[] }
  | { role: 'assistant'; text: string; thinking?: string; toolCalls: ModelToolCall[] }
  | { role: 'tool'; callId: string; toolName: string; content: string; isError: boolean }

/** Claude Code's effort levels (a skill's or an agent's `effort`). */
export type ReasoningEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max'

export interface ModelRequest {
  system: string
  messages: ModelMessage[]
  tools: ModelToolSpec[]
  signal?: AbortSignal
  /** Upper bound on output tokens; adapters pass it through where the provider needs one. */
  maxTokens?: number
  /** How hard the model should think; each adapter maps it to its provider's parameter, or drops it where there is none (src-main/llm/README.md). */
  effort?: ReasoningEffort
}

export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  | { type: 'tool-call'; call: ModelToolCall }
  | { type: 'done'; stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other'; usage?: ModelUsage }

/**
 * Token counts from the provider's usage fields, normalised: `inputTokens` is the whole prompt
 * (cached and cache-written tokens included), `reasoningTokens` is part of `outputTokens`.
 */
export interface ModelUsage {
  inputTokens?: number
  cachedInputTokens?: number
  cacheWriteTokens?: number
  outputTokens?: number
  reasoningTokens?: number
}

/** A failure a turn can show the user: `kind` is stable, `message` is the provider's own words. */
/** `context_length`: the request is longer than the model's context window (compacting may help). */
export type ModelErrorKind = 'auth' | 'rate_limit' | 'server' | 'network' | 'bad_response' | 'aborted' | 'bad_request' | 'context_length'

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number
  ) {
    super(message)
    this.name = 'ModelError'
  }
}

export interface ModelClient {
  readonly provider: string
  readonly model: string
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>
}

export type ProviderKind = 'deepseek' | 'openai' | 'anthropic' | 'ollama' | 'openai-compatible'

export interface ProviderConfig {
  provider: ProviderKind
  baseUrl: string
  model: string
  apiKey?: string
  /** Bounded retries for failures where a retry is safe (429, 5xx, network before any output). */
  maxRetries?: number
  /** Abandon a stream that sends nothing for this long (default 120 s); reported as a network error. */
  stallTimeoutMs?: number
}
