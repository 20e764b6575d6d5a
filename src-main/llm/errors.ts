// Failure mapping and bounded retries shared by the model adapters.
//
// Every failure an adapter can meet (an HTTP status, a refused connection, a torn or malformed
// stream, an abort) becomes a `ModelError` with a stable `kind` and the provider's own words as
// its message. The SDKs' built-in retries are switched off; `withRetries` is the only retry
// policy, so what happens on a 429 or a 5xx is explicit and testable.

import { loadedSdks } from './sdk-modules'
import { ModelError, type ModelErrorKind, type ModelStreamEvent } from '../../src-shared/model'

export const DEFAULT_MAX_RETRIES = 2
/** A server's `retry-after` is honoured up to this long; longer waits are cut to it. */
export const MAX_RETRY_AFTER_MS = 30_000
/** First backoff when the server gives no `retry-after`; doubles per attempt. */
export const BASE_BACKOFF_MS = 250

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(['rate_limit', 'server', 'network'])

export interface RetryPolicy {
  maxRetries: number
  /** Defaults to BASE_BACKOFF_MS. */
  baseDelayMs?: number
  /** Called before each wait, e.g. to show "retrying in 2 s" or to count attempts. */
  onRetry?: (info: { attempt: number; error: ModelError; delayMs: number }) => void
}

/**
 * Runs `attempt` and re-runs it after a rate-limit, server or network failure, but only while
 * nothing has been yielded yet: once the first event reached the caller a retry would repeat
 * output, so the error is passed on instead. Waits honour `retry-after` (capped at 30 s), else
 * back off exponentially; aborting `signal` ends the wait with an `aborted` error.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<ModelStreamEvent>,
  policy: RetryPolicy,
  signal?: AbortSignal
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const baseDelayMs = policy.baseDelayMs ?? BASE_BACKOFF_MS
  for (let retriesDone = 0; ; retriesDone++) {
    let yielded = false
    try {
      for await (const event of attempt()) {
        yielded = true
        yield event
      }
      return
    } catch (err) {
      // Once the caller has cancelled, that is the outcome, whatever the attempt failed with.
      if (signal?.aborted) throw abortedError()
      const error = err instanceof ModelError ? err : toModelError(err, { signal })
      const mayRetry = !yielded && RETRYABLE.has(error.kind) && retriesDone < policy.maxRetries
      if (!mayRetry) throw error
      const delayMs =
        error.retryAfterMs !== undefined
          ? Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS)
          : baseDelayMs * 2 ** retriesDone
      policy.onRetry?.({ attempt: retriesDone + 1, error, delayMs })
      await abortableDelay(delayMs, signal)
    }
  }
}

export interface ErrorContext {
  signal?: AbortSignal
  /** Named in network errors so the user sees which address failed. */
  baseUrl?: string
}

/** Maps anything an adapter can catch to a ModelError. */
export function toModelError(err: unknown, ctx: ErrorContext = {}): ModelError {
  if (err instanceof ModelError) return err
  if (ctx.signal?.aborted || isUserAbort(err)) return abortedError()
  if (isConnectionError(err)) {
    const timedOut = loadedSdks().some((sdk) => err instanceof sdk.APIConnectionTimeoutError)
    return new ModelError('network', networkMessage(err, ctx.baseUrl, timedOut))
  }
  if (isSdkApiError(err)) {
    if (typeof err.status === 'number') return fromHttpStatus(err.status, providerText(err), headersOf(err))
    // An error the server sent inside a 200 stream (`data: {"error":…}` / `event: error`).
    return new ModelError(kindForErrorType(errorTypeOf(err)), providerText(err))
  }
  if (err instanceof SyntaxError) return new ModelError('bad_response', `The provider sent a chunk that is not valid JSON: ${err.message}`)
  if (err instanceof Error && hasErrorCode(err)) return new ModelError('network', networkMessage(err, ctx.baseUrl, false))
  const message = err instanceof Error ? err.message : String(err)
  return new ModelError('bad_response', `Unexpected failure while reading the model response: ${message}`)
}

/** The kind for an HTTP status, with the provider's text as the message. */
export function fromHttpStatus(status: number, message: string, headers?: HeaderReader): ModelError {
  if (status === 401 || status === 403) return new ModelError('auth', message, status)
  if (status === 429) return new ModelError('rate_limit', message, status, parseRetryAfterMs(headers))
  if (status >= 500 || status === 408) return new ModelError('server', message, status, parseRetryAfterMs(headers))
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(message)) return new ModelError('context_length', message, status)
  return new ModelError('bad_request', message, status)
}

/** How providers word "the request is longer than the context window" (OpenAI, DeepSeek, Anthropic, vLLM, Ollama). */
const CONTEXT_LENGTH = /context[_ ]length|maximum context|context window|prompt is too long|too many tokens/i

export interface HeaderReader {
  get(name: string): string | null
}

/** `retry-after-ms` (OpenAI's extension) wins over `retry-after` (seconds or an HTTP date). */
export function parseRetryAfterMs(headers: HeaderReader | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms')
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms))
  const value = headers?.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export function abortedError(): ModelError {
  return new ModelError('aborted', 'The request was cancelled.')
}

export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError())
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(abortedError())
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

// ---- details -------------------------------------------------------------------------------

interface SdkApiError extends Error {
  status: number | undefined
  error: unknown
  headers: unknown
}

function isSdkApiError(err: unknown): err is SdkApiError {
  return loadedSdks().some((sdk) => err instanceof sdk.APIError)
}

function isUserAbort(err: unknown): boolean {
  if (loadedSdks().some((sdk) => err instanceof sdk.APIUserAbortError)) return true
  return err instanceof Error && err.name === 'AbortError'
}

function isConnectionError(err: unknown): err is Error {
  return loadedSdks().some((sdk) => err instanceof sdk.APIConnectionError)
}

function headersOf(err: SdkApiError): HeaderReader | undefined {
  const h = err.headers
  return h && typeof (h as HeaderReader).get === 'function' ? (h as HeaderReader) : undefined
}

/** The provider's own message: `error.message` of an OpenAI- or Anthropic-shaped body, else the raw text. */
function providerText(err: SdkApiError): string {
  const fromBody = messageInBody(err.error, 0)
  if (fromBody) return fromBody
  // The SDKs prefix the status ("401 …") to a non-JSON body; the status is kept on the error.
  const text = err.message.replace(/^\d{3}\s+/, '')
  return text === 'status code (no body)' ? `HTTP ${err.status} with an empty body` : text
}

function messageInBody(body: unknown, depth: number): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined
  if (!body || typeof body !== 'object' || depth > 3) return undefined
  const rec = body as Record<string, unknown>
  if (typeof rec.message === 'string' && rec.message) return rec.message
  if ('error' in rec) return messageInBody(rec.error, depth + 1)
  if (typeof rec.detail === 'string' && rec.detail) return rec.detail
  return undefined
}

function errorTypeOf(err: SdkApiError): string | undefined {
  const own = (err as { type?: unknown }).type
  if (typeof own === 'string') return own
  const body = err.error as { type?: unknown; error?: { type?: unknown } } | undefined
  if (typeof body?.error?.type === 'string') return body.error.type
  return typeof body?.type === 'string' ? body.type : undefined
}

function kindForErrorType(type: string | undefined): ModelErrorKind {
  switch (type) {
    case 'authentication_error':
    case 'permission_error':
      return 'auth'
    case 'rate_limit_error':
    case 'rate_limit_exceeded':
      return 'rate_limit'
    case 'invalid_request_error':
      return 'bad_request'
    default:
      return 'server'
  }
}

function hasErrorCode(err: Error): boolean {
  return findCause(err) !== undefined
}

/** Walks `cause` links to the first error with a system `code` (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET…). */
function findCause(err: unknown): { code: string; message: string } | undefined {
  let current: unknown = err
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const rec = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof rec.code === 'string') return { code: rec.code, message: typeof rec.message === 'string' ? rec.message : rec.code }
    current = rec.cause
  }
  return undefined
}

function networkMessage(err: Error, baseUrl: string | undefined, timedOut: boolean): string {
  const where = baseUrl ? ` ${baseUrl}` : ' the provider'
  if (timedOut) return `The request to${where} timed out.`
  const cause = findCause(err)
  if (!cause) return `Connection to${where} failed: ${err.message}`
  const text = cause.message.includes(cause.code) ? cause.message : `${cause.code}: ${cause.message}`
  return `Connection to${where} failed: ${text}`
}
