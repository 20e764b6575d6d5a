// @ts-check
// A loopback server speaking the Anthropic Messages API (POST /v1/messages) with real SSE
// framing: `event: <type>\ndata: {json}\n\n` frames in the documented order (message_start,
// ping, per block content_block_start / _delta… / _stop, message_delta, message_stop). Thinking
// streams as thinking_delta + signature_delta, tool input as input_json_delta fragments.
// Requests that break the protocol's rules are rejected with 400 as the real API does.
// Types: fake-anthropic.d.mts.

import { playFrames, sendJson, startFakeProvider } from './fake-provider-server.mjs'
import { DEFAULT_CHUNK_SIZE, chunkText } from './scripted-turns.mjs'

/** @typedef {import('./fake-anthropic.mjs').AnthropicRequestBody} AnthropicRequestBody */
/** @typedef {import('./scripted-turns.mjs').ScriptedTurn} ScriptedTurn */
/** @typedef {{ id: string, name: string, args: string }} WireCall */

/**
 * @param {ReadonlyArray<import('./scripted-turns.mjs').ScriptStep<AnthropicRequestBody>>} script
 * @param {import('./fake-provider-server.mjs').FakeServerOptions} [options]
 */
export function startFakeAnthropic(script, options) {
  return startFakeProvider(definition, script, options)
}

/** @type {import('./fake-provider-server.mjs').FakeProviderDefinition<AnthropicRequestBody>} */
const definition = {
  promptTokens,
  contextLengthError: (tokens, limit) => errorBody(400, `prompt is too long: ${tokens} tokens > ${limit} maximum`),
  name: 'fake-anthropic',
  basePath: '',
  completionPath: '/v1/messages',
  errorBody,
  validate: validateMessagesRequest,
  respond
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

const ERROR_TYPES = /** @type {Record<number, string>} */ ({
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error'
})

/**
 * The fake's token count for a request: a quarter of the characters of its system prompt and messages.
 * @param {AnthropicRequestBody} body
 */
export function promptTokens(body) {
  return Math.ceil((JSON.stringify(body.system ?? '').length + JSON.stringify(body.messages).length) / 4)
}

/**
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status, message) {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
  return { type: 'error', error: { type, message } }
}

/**
 * @param {ScriptedTurn} turn
 * @param {import('./fake-provider-server.mjs').CapturedRequest<AnthropicRequestBody>} request
 * @param {import('node:http').ServerResponse} res
 */
async function respond(turn, request, res) {
  const body = request.body
  const id = `msg_fake_${request.index}`
  /** @type {WireCall[]} */
  const calls = (turn.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `toolu_${request.index}_${i}`,
    name: call.name,
    args: typeof call.args === 'string' ? call.args : JSON.stringify(call.args)
  }))
  const stopReason = turn.finishReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn')
  const outputText = (turn.thinking ?? '') + (turn.text ?? '') + calls.map((c) => c.args).join('')
  // Anthropic's input_tokens leaves out the prompt tokens read from or written to the cache.
  const cacheRead = turn.usage?.cachedInputTokens ?? 0
  const cacheWrite = turn.usage?.cacheWriteTokens ?? 0
  const usage = {
    input_tokens: (turn.usage?.inputTokens ?? promptTokens(body)) - cacheRead - cacheWrite,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: turn.usage?.outputTokens ?? Math.ceil(outputText.length / 4)
  }

  const searchBlocks = webSearchBlocks(turn, request.index)
  if (body.stream !== true) {
    /** @type {Record<string, unknown>[]} */
    const content = [...searchBlocks]
    if (turn.thinking) content.push({ type: 'thinking', thinking: turn.thinking, signature: 'fake-signature' })
    if (turn.text) content.push({ type: 'text', text: turn.text })
    for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: safeParse(call.args) })
    sendJson(res, 200, { id, type: 'message', role: 'assistant', model: body.model, content, stop_reason: stopReason, stop_sequence: null, usage })
    return
  }

  /**
   * @param {string} type
   * @param {Record<string, unknown>} data
   */
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  const size = turn.chunkSize ?? DEFAULT_CHUNK_SIZE

  /** @type {{ frame: string, chars: number }[]} */
  const frames = [
    {
      frame: event('message_start', {
        message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } }
      }),
      chars: 0
    },
    { frame: event('ping', {}), chars: 0 }
  ]
  let index = 0
  for (const block of searchBlocks) {
    frames.push({ frame: event('content_block_start', { index, content_block: block }), chars: 0 })
    frames.push({ frame: event('content_block_stop', { index }), chars: 0 })
    index++
  }
  if (turn.thinking) {
    frames.push({ frame: event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }), chars: 0 })
    for (const piece of chunkText(turn.thinking, size)) {
      frames.push({ frame: event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }), chars: piece.length })
    }
    frames.push({ frame: event('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'fake-signature' } }), chars: 0 })
    frames.push({ frame: event('content_block_stop', { index }), chars: 0 })
    index++
  }
  if (turn.text) {
    frames.push({ frame: event('content_block_start', { index, content_block: { type: 'text', text: '' } }), chars: 0 })
    for (const piece of chunkText(turn.text, size)) {
      frames.push({ frame: event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }), chars: piece.length })
    }
    frames.push({ frame: event('content_block_stop', { index }), chars: 0 })
    index++
  }
  for (const call of calls) {
    frames.push({ frame: event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }), chars: 0 })
    for (const piece of chunkText(call.args, size)) {
      frames.push({ frame: event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }), chars: 0 })
    }
    frames.push({ frame: event('content_block_stop', { index }), chars: 0 })
    index++
  }

  if (turn.malformed) {
    frames.splice(Math.min(3, frames.length), Infinity, { frame: 'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {\n\n', chars: 0 })
  } else if (turn.streamError) {
    frames.push({ frame: event('error', { error: turn.streamError }), chars: 0 })
  } else if (!turn.truncate) {
    frames.push({ frame: event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }), chars: 0 })
    frames.push({ frame: event('message_stop', {}), chars: 0 })
  }

  await playFrames(res, frames, turn)
}

/**
 * The server-side web search's blocks, as the API returns them: the model's `server_tool_use`,
 * then the tool's `web_search_tool_result` with the hits (or an error).
 * @param {ScriptedTurn} turn
 * @param {number} requestIndex
 */
function webSearchBlocks(turn, requestIndex) {
  return (turn.webSearches ?? []).flatMap((search, i) => {
    const id = `srvtoolu_${requestIndex}_${i}`
    const content =
      'errorCode' in search
        ? { type: 'web_search_tool_result_error', error_code: search.errorCode }
        : search.results.map((r) => ({ type: 'web_search_result', title: r.title, url: r.url, encrypted_content: 'fake-encrypted', page_age: null }))
    return [
      { type: 'server_tool_use', id, name: 'web_search', input: { query: search.query } },
      { type: 'web_search_tool_result', tool_use_id: id, content }
    ]
  })
}

/** @param {string} text */
function safeParse(text) {
  try {
    return JSON.parse(text)
  } catch {
    // A scripted unparseable argument string has no object form; the non-streaming reply carries {}.
    return {}
  }
}

// ---- protocol rules the real API enforces ----------------------------------------------------

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * @param {unknown} content
 * @returns {Record<string, any>[]}
 */
function blocksOf(content) {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : []
}

/**
 * @param {unknown} body
 * @returns {string | undefined}
 */
export function validateMessagesRequest(body) {
  if (!isRecord(body)) return 'The request body must be a JSON object.'
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required'
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required (a positive integer)'
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) return 'system: Input should be a string or a list of text blocks'
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required'
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return 'tools: Input should be a valid list'
    for (const [i, tool] of body.tools.entries()) {
      if (!isRecord(tool) || typeof tool.name !== 'string') return `tools.${i}.name: Field required`
      if (typeof tool.type === 'string' && tool.type.startsWith('web_search_')) {
        // The server-side web search tool: no input_schema; its domain lists cannot be combined.
        if (tool.name !== 'web_search') return `tools.${i}.name: Input should be 'web_search'`
        if (tool.allowed_domains && tool.blocked_domains) return `tools.${i}: Cannot specify both allowed_domains and blocked_domains`
        continue
      }
      if (!isRecord(tool.input_schema) || tool.input_schema.type !== 'object') return `tools.${i}.input_schema.type: Input should be 'object'`
    }
  }
  /** @type {string[]} */
  let toolUseIds = []
  for (const [i, message] of body.messages.entries()) {
    if (!isRecord(message)) return `messages.${i}: Input should be an object`
    if (message.role !== 'user' && message.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`
    if (i === 0 && message.role !== 'user') return 'messages: first message must use the "user" role'
    if (i > 0 && body.messages[i - 1].role === message.role) return `messages: roles must alternate between "user" and "assistant" (messages.${i - 1} and messages.${i} are both "${message.role}")`
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) return `messages.${i}.content: Input should be a string or a list of blocks`
    const blocks = blocksOf(message.content)
    if (blocks.length === 0) return `messages.${i}: all messages must have non-empty content`
    for (const [j, block] of blocks.entries()) {
      if (!isRecord(block) || typeof block.type !== 'string') return `messages.${i}.content.${j}.type: Field required`
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text === '')) return `messages.${i}.content.${j}.text: text content blocks must be non-empty`
      if (block.type === 'image') {
        if (message.role !== 'user') return `messages.${i}.content.${j}: image blocks are only allowed in user messages`
        const source = isRecord(block.source) ? block.source : undefined
        if (!source || source.type !== 'base64') return `messages.${i}.content.${j}.image.source.type: Input should be 'base64', 'url' or 'file'`
        if (!IMAGE_TYPES.includes(/** @type {string} */ (source.media_type))) {
          return `messages.${i}.content.${j}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`
        }
        if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(source.data)) return `messages.${i}.content.${j}.image.source.base64.data: The image data is not valid base64`
      }
    }
    if (message.role === 'user') {
      const results = blocks.filter((b) => b.type === 'tool_result')
      for (const result of results) {
        if (!toolUseIds.includes(result.tool_use_id)) {
          return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${result.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`
        }
      }
      const missing = toolUseIds.filter((id) => !results.some((r) => r.tool_use_id === id))
      if (missing.length > 0) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
      }
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result')
      if (firstOther !== -1 && blocks.slice(firstOther).some((b) => b.type === 'tool_result')) {
        return `messages.${i}.content: \`tool_result\` blocks must come before any other content in a user message`
      }
      toolUseIds = []
    } else {
      toolUseIds = []
      for (const [j, block] of blocks.entries()) {
        if (block.type !== 'tool_use') continue
        if (typeof block.id !== 'string' || typeof block.name !== 'string' || !isRecord(block.input)) {
          return `messages.${i}.content.${j}: a tool_use block needs id, name and an object input`
        }
        toolUseIds.push(block.id)
      }
    }
  }
  if (toolUseIds.length > 0) {
    return `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${toolUseIds.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
  }
  return undefined
}
