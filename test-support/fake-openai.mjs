// @ts-check
// A loopback server speaking OpenAI Chat Completions (POST /v1/chat/completions) with real SSE
// framing: `data: {chunk}\n\n` frames, reasoning in `delta.reasoning_content` (DeepSeek's
// extension), tool calls as `delta.tool_calls` fragments keyed by `index`, a finish chunk, a
// usage chunk when `stream_options.include_usage` is set, then `data: [DONE]`. Requests that
// break the protocol's rules are rejected with 400 as the real API does. Types: fake-openai.d.mts.

import { playFrames, sendJson, startFakeProvider } from './fake-provider-server.mjs'
import { DEFAULT_CHUNK_SIZE, chunkText } from './scripted-turns.mjs'

/** @typedef {import('./fake-openai.mjs').OpenAIRequestBody} OpenAIRequestBody */
/** @typedef {import('./scripted-turns.mjs').ScriptedTurn} ScriptedTurn */
/** @typedef {{ id: string, name: string, args: string }} WireCall */

const CREATED = 1_700_000_000

/**
 * @param {ReadonlyArray<import('./scripted-turns.mjs').ScriptStep<OpenAIRequestBody>>} script
 * @param {import('./fake-provider-server.mjs').FakeServerOptions} [options]
 */
export function startFakeOpenAI(script, options) {
  return startFakeProvider(definition, script, options)
}

/** @type {import('./fake-provider-server.mjs').FakeProviderDefinition<OpenAIRequestBody>} */
const definition = {
  promptTokens,
  contextLengthError: (tokens, limit) => ({
    error: {
      message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded'
    }
  }),
  name: 'fake-openai',
  basePath: '/v1',
  completionPath: '/v1/chat/completions',
  errorBody,
  validate: validateChatRequest,
  respond,
  extraRoutes: {
    'GET /v1/models': () => ({ object: 'list', data: [{ id: 'fake-model', object: 'model', created: CREATED, owned_by: 'fake-openai' }] })
  }
}

/**
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status, message) {
  const [type, code] =
    status === 401 ? ['invalid_request_error', 'invalid_api_key']
    : status === 429 ? ['requests', 'rate_limit_exceeded']
    : status >= 500 ? ['server_error', null]
    : ['invalid_request_error', null]
  return { error: { message, type, param: null, code } }
}

/**
 * @param {ScriptedTurn} turn
 * @param {import('./fake-provider-server.mjs').CapturedRequest<OpenAIRequestBody>} request
 * @param {import('node:http').ServerResponse} res
 */
async function respond(turn, request, res) {
  const body = request.body
  const id = `chatcmpl-fake-${request.index}`
  /** @type {WireCall[]} */
  const calls = (turn.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${request.index}_${i}`,
    name: call.name,
    args: typeof call.args === 'string' ? call.args : JSON.stringify(call.args)
  }))
  const finishReason = turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')
  const usage = usageOf(turn, body, calls)

  if (body.stream !== true) {
    const message = {
      role: 'assistant',
      content: turn.text ?? null,
      ...(turn.thinking ? { reasoning_content: turn.thinking } : {}),
      ...(calls.length > 0 ? { tool_calls: calls.map(wireToolCall) } : {})
    }
    sendJson(res, 200, { id, object: 'chat.completion', created: CREATED, model: body.model, choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage })
    return
  }

  /**
   * @param {Record<string, unknown>} delta
   * @param {string | null} [finish]
   */
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model: body.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`
  const size = turn.chunkSize ?? DEFAULT_CHUNK_SIZE

  /** @type {{ frame: string, chars: number }[]} */
  const frames = [{ frame: chunk({ role: 'assistant', content: '' }), chars: 0 }]
  for (const piece of chunkText(turn.thinking ?? '', size)) frames.push({ frame: chunk({ reasoning_content: piece }), chars: piece.length })
  for (const piece of chunkText(turn.text ?? '', size)) frames.push({ frame: chunk({ content: piece }), chars: piece.length })
  for (const delta of toolCallDeltas(calls, size, turn.interleaveToolCalls === true)) frames.push({ frame: chunk({ tool_calls: [delta] }), chars: 0 })

  if (turn.malformed) {
    frames.splice(Math.min(2, frames.length), Infinity, { frame: `data: {"id": "${id}", "choices": [{"delta": {"content": "unterminated\n\n`, chars: 0 })
  } else if (turn.streamError) {
    frames.push({ frame: `data: ${JSON.stringify({ error: { ...turn.streamError, param: null, code: null } })}\n\n`, chars: 0 })
  } else if (!turn.truncate) {
    frames.push({ frame: chunk({}, finishReason), chars: 0 })
    if (body.stream_options?.include_usage) {
      frames.push({ frame: `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model: body.model, choices: [], usage })}\n\n`, chars: 0 })
    }
    frames.push({ frame: 'data: [DONE]\n\n', chars: 0 })
  }

  await playFrames(res, frames, turn)
}

/**
 * The first fragment of each call carries id, type and name; the rest carry argument text.
 * @param {WireCall[]} calls
 * @param {number} size
 * @param {boolean} interleave
 */
function toolCallDeltas(calls, size, interleave) {
  const perCall = calls.map((call, index) => [
    { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
    ...chunkText(call.args, size).map((piece) => ({ index, function: { arguments: piece } }))
  ])
  if (!interleave) return perCall.flat()
  /** @type {Record<string, unknown>[]} */
  const mixed = []
  const longest = Math.max(0, ...perCall.map((list) => list.length))
  for (let i = 0; i < longest; i++) for (const list of perCall) if (i < list.length) mixed.push(list[i])
  return mixed
}

/** @param {WireCall} call */
function wireToolCall(call) {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.args } }
}

/**
 * @param {ScriptedTurn} turn
 * @param {OpenAIRequestBody} body
 * @param {WireCall[]} calls
 */
function usageOf(turn, body, calls) {
  const input = turn.usage?.inputTokens ?? promptTokens(body)
  const outputText = (turn.thinking ?? '') + (turn.text ?? '') + calls.map((c) => c.args).join('')
  const output = turn.usage?.outputTokens ?? Math.ceil(outputText.length / 4)
  // prompt_tokens includes the cached ones; completion_tokens includes the reasoning ones.
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: turn.usage?.cachedInputTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: turn.usage?.reasoningTokens ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 }
  }
}

/**
 * The fake's token count for a request: a quarter of the characters of its messages.
 * @param {OpenAIRequestBody} body
 */
export function promptTokens(body) {
  return Math.ceil(JSON.stringify(body.messages).length / 4)
}

// ---- protocol rules the real API enforces ----------------------------------------------------

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool']
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/

/**
 * Content parts of a system/developer/user message: `text` parts, and on user messages
 * `image_url` parts whose URL is an http(s) address or a base64 data URL of a PNG, JPEG, GIF or
 * WebP (what Chat Completions accepts for images).
 * @param {Record<string, unknown>} message
 * @param {number} i
 */
function contentPartsProblem(message, i) {
  for (const [j, part] of /** @type {unknown[]} */ (message.content).entries()) {
    if (!isRecord(part)) return `Invalid 'messages[${i}].content[${j}]': expected an object.`
    if (part.type === 'text') {
      if (typeof part.text !== 'string') return `Invalid 'messages[${i}].content[${j}].text': expected a string.`
    } else if (part.type === 'image_url' && message.role === 'user') {
      const url = isRecord(part.image_url) ? part.image_url.url : undefined
      if (typeof url !== 'string') return `Invalid 'messages[${i}].content[${j}].image_url.url': expected a string.`
      if (!IMAGE_DATA_URL.test(url) && !/^https?:\/\//.test(url)) {
        return `Invalid 'messages[${i}].content[${j}].image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value that is not one.`
      }
    } else {
      return `Invalid value: ${JSON.stringify(part.type)}. Supported values are: 'text'${message.role === 'user' ? " and 'image_url'" : ''}. (messages[${i}].content[${j}].type)`
    }
  }
  return undefined
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * @param {unknown} body
 * @returns {string | undefined}
 */
export function validateChatRequest(body) {
  if (!isRecord(body)) return 'The request body must be a JSON object.'
  if (typeof body.model !== 'string' || body.model === '') return 'you must provide a model parameter'
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "Invalid 'messages': expected a non-empty array."
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools) || body.tools.length === 0) return "Invalid 'tools': empty array. Expected an array with minimum length 1."
    for (const [i, tool] of body.tools.entries()) {
      if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function) || typeof tool.function.name !== 'string') {
        return `Invalid 'tools[${i}]': expected {type: 'function', function: {name, description, parameters}}.`
      }
    }
  }
  /** @type {Set<string>} */
  const unanswered = new Set()
  const pendingError = () =>
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...unanswered].join(', ')}`
  for (const [i, message] of body.messages.entries()) {
    if (!isRecord(message)) return `Invalid 'messages[${i}]': expected an object.`
    if (!ROLES.includes(message.role)) return `Invalid value for 'messages[${i}].role': ${JSON.stringify(message.role)}.`
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || !unanswered.has(message.tool_call_id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (messages[${i}].tool_call_id = ${JSON.stringify(message.tool_call_id)}).`
      }
      if (typeof message.content !== 'string') return `Invalid 'messages[${i}].content': expected a string.`
      unanswered.delete(message.tool_call_id)
      continue
    }
    if (unanswered.size > 0) return pendingError()
    if (message.role === 'assistant') {
      if (message.tool_calls !== undefined) {
        if (!Array.isArray(message.tool_calls)) return `Invalid 'messages[${i}].tool_calls': expected an array.`
        for (const [j, call] of message.tool_calls.entries()) {
          const ok = isRecord(call) && typeof call.id === 'string' && call.type === 'function' && isRecord(call.function) &&
            typeof call.function.name === 'string' && typeof call.function.arguments === 'string'
          if (!ok) return `Invalid 'messages[${i}].tool_calls[${j}]': expected {id, type: 'function', function: {name, arguments: string}}.`
          unanswered.add(call.id)
        }
      }
      if ((message.content === undefined || message.content === null) && !message.tool_calls) {
        return `Invalid 'messages[${i}]': an assistant message needs 'content' or 'tool_calls'.`
      }
    } else if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      return `Invalid 'messages[${i}].content': expected a string or an array of content parts.`
    } else if (Array.isArray(message.content)) {
      const problem = contentPartsProblem(message, i)
      if (problem) return problem
    }
  }
  if (unanswered.size > 0) return pendingError()
  return undefined
}
