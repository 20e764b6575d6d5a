// Runs one `http` hook handler: POST the event JSON, read the response body as the hook's
// stdout. A non-2xx status is a non-blocking error; a connection failure, timeout or abort is a
// failure. Never rejects for anything the server does.
import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import { BoundedOutput } from './output-buffer'
import { DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES, MAX_TIMER_MS } from './runner'

export interface HttpHookOptions {
  url: string
  /** Request body, usually the event JSON (sent as `application/json`). */
  body: string
  /** Extra request headers (already expanded by the caller). */
  headers?: Record<string, string>
  /** Default 600 000 ms. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Default 1 MiB; the rest of the body is not read. */
  maxOutputBytes?: number
}

export type HttpHookFailure = 'network_error' | 'timeout' | 'aborted'

export interface HttpHookResult {
  handlerType: 'http'
  /** Response status, `null` when no response arrived. */
  status: number | null
  /** Response body (decoded as UTF-8 with replacement); plays the role of a command hook's stdout. */
  body: string
  bodyTruncated: boolean
  durationMs: number
  failure?: HttpHookFailure
  errorMessage?: string
}

const Options = z.object({
  url: z.url({ protocol: /^https?$/ }),
  body: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().positive().optional(),
  maxOutputBytes: z.number().int().nonnegative().optional()
})

export async function runHttpHook(opts: HttpHookOptions): Promise<HttpHookResult> {
  const checked = Options.safeParse(opts)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new TypeError(`runHttpHook: invalid option ${issue.path.join('.')}: ${issue.message}`)
  }
  const started = performance.now()
  const elapsed = (): number => Math.round(performance.now() - started)
  const timeoutMs = opts.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS
  const timeout = AbortSignal.timeout(Math.min(timeoutMs, MAX_TIMER_MS))
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
  const output = new BoundedOutput(opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES)
  let status: number | null = null
  try {
    const response = await fetch(opts.url, {
      method: 'POST',
      headers: { ...opts.headers, 'content-type': 'application/json' },
      body: opts.body,
      signal
    })
    status = response.status
    if (response.body) {
      const reader = response.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        output.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength))
        if (output.truncated) {
          await reader.cancel()
          break
        }
      }
    }
    return { handlerType: 'http', status, body: output.text(), bodyTruncated: output.truncated, durationMs: elapsed() }
  } catch (error) {
    const failure: HttpHookFailure = opts.signal?.aborted ? 'aborted' : timeout.aborted ? 'timeout' : 'network_error'
    const errorMessage =
      failure === 'timeout' ? `hook timed out after ${timeoutMs} ms` : failure === 'aborted' ? 'hook aborted' : describeFetchError(error)
    return { handlerType: 'http', status, body: output.text(), bodyTruncated: output.truncated, durationMs: elapsed(), failure, errorMessage }
  }
}

/** fetch wraps the socket error in `cause`; the cause names what actually went wrong. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
