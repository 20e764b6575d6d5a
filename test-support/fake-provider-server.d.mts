// Types for fake-provider-server.mjs.

import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { ScriptStep, ScriptedTurn } from './scripted-turns.mjs'

export interface CapturedRequest<Body> {
  /** 0-based position among all requests to the model endpoint (including ones rejected with 400). */
  index: number
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The parsed JSON body, exactly as sent on the wire. */
  body: Body
  /** Settles when the connection ends: 'finished' if the server completed its reply, 'aborted' if the client went first. */
  closed: Promise<'finished' | 'aborted'>
}

export interface FakeProviderServer<Body> {
  /** The base URL to give the adapter (`…/v1` for OpenAI, the origin for Anthropic). */
  url: string
  /** `http://127.0.0.1:PORT` */
  origin: string
  /** Every request to the model endpoint, in arrival order. */
  requests: CapturedRequest<Body>[]
  /** Stops listening and cuts open connections (hanging streams included). */
  close(): Promise<void>
}

export interface FakeServerOptions {
  /** Default 0 (any free port). */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Refuse a request whose prompt counts more tokens than this with the provider's context-length error (400). */
  contextWindow?: number
}

export interface FakeProviderDefinition<Body> {
  name: string
  /** Appended to the origin to make `url`. */
  basePath: string
  /** The model endpoint, e.g. `/v1/chat/completions`. */
  completionPath: string
  /** Provider-shaped error body. */
  errorBody(status: number, message: string): unknown
  /** The fake's token count of a request's prompt (also the default `usage` input). */
  promptTokens(body: Body): number
  /** The provider's body for a 400 refusing a prompt of `tokens` over `limit`. */
  contextLengthError(tokens: number, limit: number): unknown
  /** A protocol violation the real API would reject with 400, or undefined. */
  validate(body: unknown): string | undefined
  respond(turn: ScriptedTurn, request: CapturedRequest<Body>, res: ServerResponse): Promise<void>
  /** Other GET/POST routes answered with fixed JSON, keyed by `METHOD /path`. */
  extraRoutes?: Record<string, () => unknown>
}

export declare function startFakeProvider<Body>(
  def: FakeProviderDefinition<Body>,
  script: ReadonlyArray<ScriptStep<Body>>,
  options?: FakeServerOptions
): Promise<FakeProviderServer<Body>>
export declare function writeFrame(res: ServerResponse, frame: string, delayMs: number): Promise<boolean>
export declare function hangUntilClosed(res: ServerResponse): Promise<void>
export declare function startEventStream(res: ServerResponse): void
export declare function playFrames(res: ServerResponse, frames: ReadonlyArray<{ frame: string; chars: number }>, turn: import('./scripted-turns.mjs').ScriptedTurn): Promise<void>
export declare function sendJson(res: ServerResponse, status: number, body: unknown): void
