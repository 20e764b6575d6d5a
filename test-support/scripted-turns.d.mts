// Types for scripted-turns.mjs (the runtime is plain JavaScript so Node can run it directly).

import type { IncomingHttpHeaders } from 'node:http'

export interface ScriptedToolCall {
  name: string
  /** An object is sent as JSON; a string is sent verbatim (e.g. to script unparseable arguments). */
  args: Record<string, unknown> | string
  /** Defaults to a unique id (`call_…` / `toolu_…`). */
  id?: string
}

export interface ScriptedError {
  status: number
  /** An object is sent as JSON, a string verbatim. Defaults to the provider's error shape with a generic message. */
  body?: unknown
  headers?: Record<string, string>
}

export interface ScriptedTurn {
  text?: string
  /** DeepSeek `reasoning_content` / Anthropic thinking block. */
  thinking?: string
  /** Several calls here are parallel tool calls in one response. */
  toolCalls?: ScriptedToolCall[]
  /** Pause between SSE frames. */
  chunkDelayMs?: number
  /** Characters per text/thinking/arguments fragment (default 4). */
  chunkSize?: number
  /** Answer with this HTTP error instead of a stream. */
  error?: ScriptedError
  /** End the stream cleanly but before the finish chunk / `[DONE]` (OpenAI) or `message_stop` (Anthropic). */
  truncate?: boolean
  /** Send one frame whose data is not valid JSON, then end the stream. */
  malformed?: boolean
  /** After this many text+thinking characters, stop sending and keep the connection open. */
  hangAfterChars?: number
  /** After this many text+thinking characters (0: right after the headers), cut the connection. */
  resetAfterChars?: number
  /** The provider's raw finish value (`stop`, `length`, `tool_calls` / `end_turn`, `max_tokens`, `tool_use`). */
  finishReason?: string
  /** Reported usage; by default input is the fake's prompt token count and output a quarter of the characters sent. */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; cacheWriteTokens?: number; reasoningTokens?: number }
  /** OpenAI only: interleave the argument fragments of parallel tool calls instead of sending them one call after another. */
  interleaveToolCalls?: boolean
  /**
   * Anthropic only: searches the server-side `web_search` tool ran before the text, each a
   * `server_tool_use` block and its `web_search_tool_result` (the hits, or an error code).
   */
  webSearches?: ScriptedWebSearch[]
  /** After the content, send an in-stream error event (`data: {"error":…}` / `event: error`) instead of finishing. */
  streamError?: { type: string; message: string }
}

export type ScriptedWebSearch = { query: string; results: Array<{ title: string; url: string }> } | { query: string; errorCode: string }

export interface ScriptContext {
  /** 0-based index of this turn in the script. */
  index: number
  path: string
  headers: IncomingHttpHeaders
}

export type ScriptStep<Body> = ScriptedTurn | ((body: Body, ctx: ScriptContext) => ScriptedTurn | Promise<ScriptedTurn>)

export declare const DEFAULT_CHUNK_SIZE: number
export declare function chunkText(text: string, size: number): string[]
export declare function resolveTurn<Body>(
  script: ReadonlyArray<ScriptStep<Body>>,
  index: number,
  body: Body,
  ctx: ScriptContext
): Promise<ScriptedTurn | undefined>
export declare function delay(ms: number): Promise<void>
