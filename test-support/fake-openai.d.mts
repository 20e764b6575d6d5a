// Types for fake-openai.mjs.

import type { FakeProviderServer, FakeServerOptions } from './fake-provider-server.mjs'
import type { ScriptStep } from './scripted-turns.mjs'

export type { CapturedRequest, FakeProviderServer, FakeServerOptions } from './fake-provider-server.mjs'
export type { ScriptStep, ScriptedTurn, ScriptedToolCall, ScriptedError, ScriptContext } from './scripted-turns.mjs'

export interface OpenAIWireToolCall {
  id: string
  type: string
  function: { name: string; arguments: string }
}

export interface OpenAIWireMessage {
  role: string
  content?: string | null | unknown[]
  tool_calls?: OpenAIWireToolCall[]
  tool_call_id?: string
  reasoning_content?: string
  [key: string]: unknown
}

/** A Chat Completions request body as captured (loosely typed: it is whatever the client sent). */
export interface OpenAIRequestBody {
  model: string
  messages: OpenAIWireMessage[]
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }>
  stream?: boolean
  stream_options?: { include_usage?: boolean }
  max_tokens?: number
  max_completion_tokens?: number
  [key: string]: unknown
}

export type OpenAIScript = ReadonlyArray<ScriptStep<OpenAIRequestBody>>

export declare function startFakeOpenAI(script: OpenAIScript, options?: FakeServerOptions): Promise<FakeProviderServer<OpenAIRequestBody>>
export declare function errorBody(status: number, message: string): unknown
/** The fake's token count of a request's prompt (a quarter of its characters). */
export declare function promptTokens(body: OpenAIRequestBody): number
/** The 400 message the fake answers with, or undefined when the request follows the protocol. */
export declare function validateChatRequest(body: unknown): string | undefined
