// Adapter for the Anthropic Messages API, streaming. The system prompt goes in `system`, tool
// calls come back as `tool_use` blocks whose input arrives as `input_json_delta` fragments, and
// tool results go back as `tool_result` blocks in a user message (consecutive results, and any
// user text right after them, share one user message so roles keep alternating).

import type Anthropic from '@anthropic-ai/sdk'
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool
} from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import {
  ModelError,
  type ModelClient,
  type ModelMessage,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelUsage,
  type ProviderConfig
} from '../../src-shared/model'
import { retryingClient, sdkOptions } from './client-shell'
import { loadAnthropicSdk } from './sdk-modules'
import { DEFAULT_STALL_TIMEOUT_MS, watchStall } from './stall'
import { parseToolArgs } from './tool-args'

/** The Messages API requires `max_tokens`; this is used when the request names none. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192

export function createAnthropicClient(cfg: ProviderConfig): ModelClient {
  let sdk: Promise<Anthropic> | undefined
  const client = () => (sdk ??= loadAnthropicSdk().then((module) => new module.default(sdkOptions(cfg))))
  return retryingClient(cfg, (request) => streamOnce(client, cfg, request))
}

async function* streamOnce(client: () => Promise<Anthropic>, cfg: ProviderConfig, request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
  const ctx = { signal: request.signal, baseUrl: cfg.baseUrl }
  const watch = watchStall(request.signal, cfg.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS)
  const toolBlocks = new Map<number, { id: string; name: string; json: string; startInput: Record<string, unknown> }>()
  let stopReason: string | null | undefined
  let stopped = false
  let hadToolCalls = false
  const wire: WireUsage = {}
  try {
    const sdk = await client()
    const stream = await sdk.messages.create(buildRequestBody(cfg, request), { signal: watch.signal })
    watch.beat()
    for await (const raw of stream) {
      watch.beat()
      const event = parseEvent(raw)
      switch (event.type) {
        case 'message_start':
          mergeUsage(wire, event.message.usage)
          break
        case 'content_block_start': {
          const block = event.content_block
          if (block.type === 'tool_use') {
            toolBlocks.set(event.index, { id: block.id ?? '', name: block.name ?? '', json: '', startInput: block.input ?? {} })
          } else if (block.type === 'text' && block.text) {
            yield { type: 'text-delta', text: block.text }
          } else if (block.type === 'thinking' && block.thinking) {
            yield { type: 'thinking-delta', text: block.thinking }
          }
          break
        }
        case 'content_block_delta': {
          const delta = event.delta
          if (delta.type === 'text_delta' && delta.text) yield { type: 'text-delta', text: delta.text }
          else if (delta.type === 'thinking_delta' && delta.thinking) yield { type: 'thinking-delta', text: delta.thinking }
          else if (delta.type === 'input_json_delta') {
            const block = toolBlocks.get(event.index)
            if (block) block.json += delta.partial_json ?? ''
          }
          break
        }
        case 'content_block_stop': {
          const block = toolBlocks.get(event.index)
          if (!block) break
          toolBlocks.delete(event.index)
          hadToolCalls = true
          const parsed = block.json ? parseToolArgs(block.json) : { args: block.startInput }
          yield { type: 'tool-call', call: { id: block.id, name: block.name, ...parsed } }
          break
        }
        case 'message_delta':
          stopReason = event.delta?.stop_reason ?? stopReason
          mergeUsage(wire, event.usage)
          break
        case 'message_stop':
          stopped = true
          break
        default:
          // Event types added to the protocol later are skipped, as the API asks.
          break
      }
    }
  } catch (err) {
    throw watch.failure(err, ctx)
  } finally {
    watch.stop()
  }
  watch.assertNotCut()
  if (!stopped) {
    throw new ModelError('bad_response', 'The response stream ended before the provider sent message_stop; the reply is incomplete.')
  }
  const usage = usageOf(wire)
  const hasUsage = usage.inputTokens !== undefined || usage.outputTokens !== undefined
  yield { type: 'done', stopReason: stopReasonOf(stopReason, hadToolCalls), ...(hasUsage ? { usage } : {}) }
}

/** The wire request. Exported for tests that check the mapping without a server. */
export function buildRequestBody(cfg: ProviderConfig, request: ModelRequest): MessageCreateParamsStreaming {
  const body: MessageCreateParamsStreaming = {
    model: cfg.model,
    max_tokens: request.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: toWireMessages(request.messages),
    stream: true
  }
  if (request.system) body.system = request.system
  if (request.tools.length > 0) body.tools = request.tools.map(toWireTool)
  // The Messages API's effort parameter takes Claude Code's five levels as they are.
  if (request.effort !== undefined) body.output_config = { effort: request.effort }
  return body
}

function toWireTool(tool: ModelRequest['tools'][number]): Tool {
  return { name: tool.name, description: tool.description, input_schema: { ...tool.inputSchema, type: 'object' } }
}

/**
 * Thinking is not replayed: Anthropic accepts a thinking block back only with the signature it
 * was issued with, which the provider-neutral history does not keep.
 */
function toWireMessages(messages: ModelMessage[]): MessageParam[] {
  const wire: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = []
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return
    const last = wire[wire.length - 1]
    if (last && last.role === role) last.content.push(...blocks)
    else wire.push({ role, content: blocks })
  }
  for (const message of messages) {
    switch (message.role) {
      case 'user': {
        // Images first, then the text about them (the order Anthropic's vision guide recommends).
        const images: ContentBlockParam[] = (message.images ?? []).map((image) => ({ type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } }))
        append('user', [...images, ...(message.content || images.length === 0 ? [{ type: 'text' as const, text: message.content }] : [])])
        break
      }
      case 'assistant': {
        const blocks: ContentBlockParam[] = []
        if (message.text) blocks.push({ type: 'text', text: message.text })
        for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args })
        append('assistant', blocks)
        break
      }
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.callId, content: message.content, ...(message.isError ? { is_error: true } : {}) }])
        break
      default:
        message satisfies never
    }
  }
  return wire
}

function stopReasonOf(reason: string | null | undefined, hadToolCalls: boolean): 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other' {
  switch (reason) {
    case 'refusal':
      return 'refusal'
    case 'end_turn':
    case 'stop_sequence':
      return 'end_turn'
    case 'tool_use':
      return 'tool_use'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens'
    default:
      return hadToolCalls ? 'tool_use' : 'other'
  }
}

// ---- stream events -------------------------------------------------------------------------

const UsageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish()
})

type WireUsage = { input?: number; output?: number; cacheRead?: number; cacheWrite?: number }

/** message_start carries the prompt's counts, message_delta the final ones: later values win. */
function mergeUsage(wire: WireUsage, usage: z.infer<typeof UsageSchema> | null | undefined): void {
  if (!usage) return
  if (usage.input_tokens != null) wire.input = usage.input_tokens
  if (usage.output_tokens != null) wire.output = usage.output_tokens
  if (usage.cache_read_input_tokens != null) wire.cacheRead = usage.cache_read_input_tokens
  if (usage.cache_creation_input_tokens != null) wire.cacheWrite = usage.cache_creation_input_tokens
}

/** Anthropic's `input_tokens` leaves out cache reads and writes; ModelUsage counts the whole prompt. */
function usageOf(wire: WireUsage): ModelUsage {
  const out: ModelUsage = {}
  if (wire.input !== undefined || wire.cacheRead !== undefined || wire.cacheWrite !== undefined) {
    out.inputTokens = (wire.input ?? 0) + (wire.cacheRead ?? 0) + (wire.cacheWrite ?? 0)
  }
  if (wire.cacheRead !== undefined) out.cachedInputTokens = wire.cacheRead
  if (wire.cacheWrite !== undefined) out.cacheWriteTokens = wire.cacheWrite
  if (wire.output !== undefined) out.outputTokens = wire.output
  return out
}

const EventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: z.looseObject({ usage: UsageSchema.nullish() }) }),
  z.looseObject({
    type: z.literal('content_block_start'),
    index: z.number().int(),
    content_block: z.looseObject({
      type: z.string(),
      id: z.string().optional(),
      name: z.string().optional(),
      input: z.record(z.string(), z.unknown()).optional(),
      text: z.string().optional(),
      thinking: z.string().optional()
    })
  }),
  z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number().int(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      partial_json: z.string().optional()
    })
  }),
  z.looseObject({ type: z.literal('content_block_stop'), index: z.number().int() }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish() }).nullish(),
    usage: UsageSchema.nullish()
  }),
  z.looseObject({ type: z.literal('message_stop') })
])

type StreamEvent = z.infer<typeof EventSchema> | { type: 'unknown' }

const KNOWN_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'])

function parseEvent(raw: unknown): StreamEvent {
  const type = (raw as { type?: unknown } | null)?.type
  if (typeof type === 'string' && !KNOWN_EVENTS.has(type)) return { type: 'unknown' }
  const parsed = EventSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.length ? issue.path.join('.') : '(event)'
  throw new ModelError('bad_response', `The provider sent a malformed stream event: ${field}: ${issue?.message ?? 'invalid'}`)
}
