// Adapter for OpenAI Chat Completions and the servers that copy it (DeepSeek, Ollama, llama.cpp
// server, vLLM). Streams with `stream: true`; text and reasoning deltas are passed on as they
// arrive, tool-call fragments are gathered by `index` (several calls can be in flight at once)
// and each finished call is emitted once, with parsed arguments, when the stream ends.

import type OpenAI from 'openai'
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool
} from 'openai/resources/chat/completions'
import { z } from 'zod'
import {
  ModelError,
  type ModelClient,
  type ModelMessage,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolCall,
  type ModelUsage,
  type ProviderConfig,
  type ReasoningEffort
} from '../../src-shared/model'
import { retryingClient, sdkOptions } from './client-shell'
import { loadOpenAISdk } from './sdk-modules'
import { DEFAULT_STALL_TIMEOUT_MS, watchStall } from './stall'
import { parseToolArgs } from './tool-args'

export function createOpenAICompatibleClient(cfg: ProviderConfig): ModelClient {
  let sdk: Promise<OpenAI> | undefined
  const client = () => (sdk ??= loadOpenAISdk().then((module) => new module.default({ ...sdkOptions(cfg), organization: null, project: null })))
  const wire: WireState = { askUsage: true }
  return retryingClient(cfg, (request) => streamOnce(client, cfg, request, wire))
}

/** What this client has learnt about its server: whether it takes `stream_options`. */
interface WireState {
  askUsage: boolean
}

/**
 * Opens the stream. Usage (for the context meter, costs and compaction) is asked for with
 * `stream_options`; a compatible server that refuses the request (400/422) is asked once more
 * without it, and this client does not send the field to it again.
 */
async function openStream(sdk: OpenAI, cfg: ProviderConfig, request: ModelRequest, wire: WireState, signal: AbortSignal) {
  try {
    return await sdk.chat.completions.create(buildRequestBody(cfg, request, wire.askUsage), { signal })
  } catch (err) {
    const refused = err instanceof (await loadOpenAISdk()).APIError && (err.status === 400 || err.status === 422)
    if (!refused || !wire.askUsage || cfg.provider !== 'openai-compatible') throw err
    const stream = await sdk.chat.completions.create(buildRequestBody(cfg, request, false), { signal })
    wire.askUsage = false
    return stream
  }
}

async function* streamOnce(client: () => Promise<OpenAI>, cfg: ProviderConfig, request: ModelRequest, wire: WireState): AsyncGenerator<ModelStreamEvent> {
  const ctx = { signal: request.signal, baseUrl: cfg.baseUrl }
  const watch = watchStall(request.signal, cfg.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS)
  const calls = new ToolCallAccumulator()
  let finishReason: string | undefined
  let usage: ModelUsage | undefined
  try {
    const stream = await openStream(await client(), cfg, request, wire, watch.signal)
    watch.beat()
    for await (const raw of stream) {
      watch.beat()
      const chunk = parseChunk(raw)
      if (chunk.usage) usage = usageOf(chunk.usage)
      // With n = 1 there is one choice; anything else is ignored.
      const choice = chunk.choices.find((c) => (c.index ?? 0) === 0)
      if (!choice) continue
      const delta = choice.delta
      const reasoning = delta?.reasoning_content ?? delta?.reasoning
      if (reasoning) yield { type: 'thinking-delta', text: reasoning }
      if (delta?.content) yield { type: 'text-delta', text: delta.content }
      if (delta?.tool_calls) calls.add(delta.tool_calls)
      if (choice.finish_reason) finishReason = choice.finish_reason
    }
  } catch (err) {
    throw watch.failure(err, ctx)
  } finally {
    watch.stop()
  }
  watch.assertNotCut()
  if (finishReason === undefined) {
    throw new ModelError('bad_response', 'The response stream ended before the provider sent a finish_reason; the reply is incomplete.')
  }
  const finished = calls.finish()
  for (const call of finished) yield { type: 'tool-call', call }
  yield { type: 'done', stopReason: stopReasonOf(finishReason, finished.length > 0), ...(usage ? { usage } : {}) }
}

/** The wire request. Exported for tests that check the mapping without a server. */
export function buildRequestBody(cfg: ProviderConfig, request: ModelRequest, askUsage = true): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model: cfg.model,
    messages: toWireMessages(cfg, request.system, request.messages),
    stream: true
  }
  // Several compatible servers reject an empty `tools` array.
  if (request.tools.length > 0) body.tools = request.tools.map(toWireTool)
  if (request.maxTokens !== undefined) {
    // OpenAI's own models (reasoning ones in particular) want the newer name.
    if (cfg.provider === 'openai') body.max_completion_tokens = request.maxTokens
    else body.max_tokens = request.maxTokens
  }
  if (askUsage) body.stream_options = { include_usage: true }
  const effort = request.effort !== undefined ? reasoningEffortFor(cfg, request.effort) : undefined
  if (effort !== undefined) body.reasoning_effort = effort
  return body
}

/**
 * OpenAI's `reasoning_effort` (which OpenAI-compatible servers take too) has no `max`: its
 * highest level, `xhigh`, stands for it. DeepSeek's and Ollama's APIs document no such parameter,
 * so nothing is sent to them.
 */
function reasoningEffortFor(cfg: ProviderConfig, effort: ReasoningEffort): ChatCompletionCreateParamsStreaming['reasoning_effort'] | undefined {
  if (cfg.provider !== 'openai' && cfg.provider !== 'openai-compatible') return undefined
  return effort === 'max' ? 'xhigh' : effort
}

function toWireTool(tool: ModelRequest['tools'][number]): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }
}

function toWireMessages(cfg: ProviderConfig, system: string, messages: ModelMessage[]): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = []
  if (system) wire.push({ role: 'system', content: system })
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        // Images go as Chat Completions `image_url` parts holding a data URL, after the text.
        wire.push(
          message.images?.length
            ? {
                role: 'user',
                content: [
                  ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
                  ...message.images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mediaType};base64,${image.data}` } }))
                ]
              }
            : { role: 'user', content: message.content }
        )
        break
      case 'assistant':
        wire.push(toWireAssistant(cfg, message))
        break
      case 'tool':
        wire.push({ role: 'tool', tool_call_id: message.callId, content: message.content })
        break
      default:
        message satisfies never
    }
  }
  return wire
}

type AssistantMessage = Extract<ModelMessage, { role: 'assistant' }>

function toWireAssistant(cfg: ProviderConfig, message: AssistantMessage): ChatCompletionAssistantMessageParam {
  const hasCalls = message.toolCalls.length > 0
  const wire: ChatCompletionAssistantMessageParam & { reasoning_content?: string } = {
    role: 'assistant',
    // `content` may be null only when tool calls carry the message.
    content: message.text || (hasCalls ? null : '')
  }
  if (hasCalls) {
    wire.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.args) }
    }))
  }
  // DeepSeek wants its reasoning handed back within a tool-using turn; other servers may reject the field.
  if (cfg.provider === 'deepseek' && message.thinking) wire.reasoning_content = message.thinking
  return wire
}

function stopReasonOf(finishReason: string, hadToolCalls: boolean): 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other' {
  switch (finishReason) {
    case 'length':
      return 'max_tokens'
    case 'content_filter':
      return 'refusal'
    case 'tool_calls':
    case 'function_call':
      return 'tool_use'
    case 'stop':
      // Some compatible servers say "stop" even when the reply is tool calls.
      return hadToolCalls ? 'tool_use' : 'end_turn'
    default:
      return hadToolCalls ? 'tool_use' : 'other'
  }
}

// ---- stream chunks -------------------------------------------------------------------------

const ToolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative().optional(),
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish()
})
type ToolCallDelta = z.infer<typeof ToolCallDeltaSchema>

const ChunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().optional(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            // DeepSeek's name; vLLM and newer Ollama say `reasoning`.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(ToolCallDeltaSchema).nullish()
          })
          .nullish(),
        finish_reason: z.string().nullish()
      })
    )
    .default([]),
  usage: z
    .looseObject({
      prompt_tokens: z.number().optional(),
      completion_tokens: z.number().optional(),
      prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
      completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
      // DeepSeek reports its cache this way.
      prompt_cache_hit_tokens: z.number().nullish()
    })
    .nullish()
})

function parseChunk(raw: unknown): z.infer<typeof ChunkSchema> {
  const parsed = ChunkSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.length ? issue.path.join('.') : '(chunk)'
  throw new ModelError('bad_response', `The provider sent a malformed stream chunk: ${field}: ${issue?.message ?? 'invalid'}`)
}

/** Gathers tool-call fragments by index; ids and names come in the first fragment of each call. */
class ToolCallAccumulator {
  private readonly slots = new Map<number, { id?: string; name: string; args: string }>()

  add(deltas: ToolCallDelta[]): void {
    deltas.forEach((delta, position) => {
      const index = delta.index ?? position
      let slot = this.slots.get(index)
      if (!slot) {
        slot = { name: '', args: '' }
        this.slots.set(index, slot)
      }
      if (delta.id && !slot.id) slot.id = delta.id
      // Some servers repeat the name in every fragment; the first one counts.
      if (delta.function?.name && !slot.name) slot.name = delta.function.name
      if (delta.function?.arguments) slot.args += delta.function.arguments
    })
  }

  finish(): ModelToolCall[] {
    return [...this.slots.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, slot]) => ({
        id: slot.id ?? `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
        name: slot.name,
        ...parseToolArgs(slot.args)
      }))
  }
}

/** OpenAI's usage object (and DeepSeek's cache fields) as ModelUsage; `prompt_tokens` already includes cached tokens. */
function usageOf(usage: NonNullable<z.infer<typeof ChunkSchema>['usage']>): ModelUsage {
  const out: ModelUsage = {}
  if (usage.prompt_tokens !== undefined) out.inputTokens = usage.prompt_tokens
  if (usage.completion_tokens !== undefined) out.outputTokens = usage.completion_tokens
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens
  if (cached != null) out.cachedInputTokens = cached
  const reasoning = usage.completion_tokens_details?.reasoning_tokens
  if (reasoning != null) out.reasoningTokens = reasoning
  return out
}
