// Types for fake-anthropic.mjs.

import type { FakeProviderServer, FakeServerOptions } from './fake-provider-server.mjs'
import type { ScriptStep } from './scripted-turns.mjs'

export type { CapturedRequest, FakeProviderServer, FakeServerOptions } from './fake-provider-server.mjs'
export type { ScriptStep, ScriptedTurn, ScriptedToolCall, ScriptedError, ScriptContext } from './scripted-turns.mjs'

export interface AnthropicWireBlock {
  type: string
  text?: string
  thinking?: string
  id?: string
  name?: string
  input?: Record<string, unknown>
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
  [key: string]: unknown
}

export interface AnthropicWireMessage {
  role: string
  content: string | AnthropicWireBlock[]
}

/** A Messages API request body as captured (loosely typed: it is whatever the client sent). */
export interface AnthropicRequestBody {
  model: string
  max_tokens: number
  system?: string | AnthropicWireBlock[]
  messages: AnthropicWireMessage[]
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>
  stream?: boolean
  [key: string]: unknown
}

export type AnthropicScript = ReadonlyArray<ScriptStep<AnthropicRequestBody>>

export declare function startFakeAnthropic(script: AnthropicScript, options?: FakeServerOptions): Promise<FakeProviderServer<AnthropicRequestBody>>
export declare function errorBody(status: number, message: string): unknown
/** The fake's token count of a request's prompt (a quarter of the characters of its system prompt and messages). */
export declare function promptTokens(body: AnthropicRequestBody): number
/** The 400 message the fake answers with, or undefined when the request follows the protocol. */
export declare function validateMessagesRequest(body: unknown): string | undefined
