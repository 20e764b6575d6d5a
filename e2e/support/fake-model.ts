// The model side of the e2e tests: a loopback server speaking the OpenAI wire protocol
// (test-support/fake-openai.mjs) whose answers a test decides per request. The fake consumes one
// script step per model request; here every step defers to the test's current responder, which
// reads the request body (the last user message, a tool result) and returns a scripted turn. So a
// test describes what the model does in response to what it is sent, not in which order requests
// happen to arrive (a "Test connection" click is a model request too).
import {
  startFakeOpenAI,
  type CapturedRequest,
  type OpenAIRequestBody,
  type OpenAIWireMessage,
  type ScriptContext,
  type ScriptedTurn,
  type ScriptStep
} from '../../test-support/fake-openai.mjs'

export type { OpenAIRequestBody, ScriptedTurn } from '../../test-support/fake-openai.mjs'

export type Responder = (body: OpenAIRequestBody, ctx: ScriptContext) => ScriptedTurn

export interface FakeModel {
  /** The base URL to configure (`http://127.0.0.1:PORT/v1`). */
  readonly url: string
  /** Every request the fake received, in arrival order (connection tests included). */
  readonly requests: ReadonlyArray<CapturedRequest<OpenAIRequestBody>>
  /** How the following requests are answered (replaces the previous responder). */
  respond(responder: Responder): void
  /** Model requests made by sessions (connection tests left out). */
  chatRequests(): Array<CapturedRequest<OpenAIRequestBody>>
  close(): Promise<void>
}

/** More steps than any one test makes: the script is never the reason a request fails. */
const MAX_REQUESTS = 1000

/** What "Test connection" sends: one "ping" user message and a one-token limit. */
export function isConnectionTest(body: OpenAIRequestBody): boolean {
  const users = body.messages.filter((m) => m.role === 'user')
  return users.length === 1 && textOf(users[0]) === 'ping' && (body.max_tokens === 1 || body.max_completion_tokens === 1)
}

/** The answer to a connection test unless a responder handles it itself. */
const PONG: ScriptedTurn = { text: 'pong' }

export async function startFakeModel(): Promise<FakeModel> {
  let current: Responder | undefined
  const step: ScriptStep<OpenAIRequestBody> = (body, ctx) => {
    if (current) return current(body, ctx)
    if (isConnectionTest(body)) return PONG
    return { error: { status: 500, body: { error: { message: 'e2e: no responder set for this request', type: 'server_error', param: null, code: null } } } }
  }
  const server = await startFakeOpenAI(Array.from({ length: MAX_REQUESTS }, () => step))
  return {
    url: server.url,
    requests: server.requests,
    respond(responder) {
      current = responder
    },
    chatRequests: () => server.requests.filter((r) => !isConnectionTest(r.body)),
    close: () => server.close()
  }
}

/** A message's text, whether `content` is a string or a list of text parts. */
export function textOf(message: OpenAIWireMessage | undefined): string {
  const content = message?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
    .join('')
}

/** The text of the last user message in the request (steering messages are user messages too). */
export function lastUserText(body: OpenAIRequestBody): string {
  return textOf(body.messages.findLast((m) => m.role === 'user'))
}

/** The request's last message when it is a tool result (the model is answering a tool call). */
export function trailingToolResults(body: OpenAIRequestBody): OpenAIWireMessage[] {
  const results: OpenAIWireMessage[] = []
  for (let i = body.messages.length - 1; i >= 0 && body.messages[i].role === 'tool'; i--) results.unshift(body.messages[i])
  return results
}

/** True when the request's messages after the last assistant message include a user message with `text`. */
export function userSaidSinceLastReply(body: OpenAIRequestBody, text: string): boolean {
  const lastAssistant = body.messages.findLastIndex((m) => m.role === 'assistant')
  return body.messages.slice(lastAssistant + 1).some((m) => m.role === 'user' && textOf(m).includes(text))
}
