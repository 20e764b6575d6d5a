// The retry policy and failure mapping on their own, with scripted attempts (adapter-level
// behaviour against real servers is in adapter-contract.test.ts).

import { describe, expect, it } from 'vitest'
import { ModelError, type ModelStreamEvent } from '../../src-shared/model'
import { collectStream } from './collect-stream'
import { MAX_RETRY_AFTER_MS, fromHttpStatus, parseRetryAfterMs, toModelError, withRetries } from './errors'

/** An attempt function that fails with the given errors in turn, then streams `ok`. */
function attempts(failures: Array<{ error: ModelError; afterText?: string }>) {
  let calls = 0
  const run = async function* (): AsyncGenerator<ModelStreamEvent> {
    const failure = failures[calls++]
    if (failure) {
      if (failure.afterText) yield { type: 'text-delta', text: failure.afterText }
      throw failure.error
    }
    yield { type: 'text-delta', text: 'ok' }
    yield { type: 'done', stopReason: 'end_turn' }
  }
  return { run, count: () => calls }
}

const headers = (values: Record<string, string>) => new Headers(values)

describe('withRetries', () => {
  it('retries rate_limit, server and network failures before any output, then succeeds', async () => {
    const a = attempts([
      { error: new ModelError('rate_limit', 'slow', 429) },
      { error: new ModelError('server', 'boom', 500) },
      { error: new ModelError('network', 'reset') }
    ])
    const out = await collectStream(withRetries(a.run, { maxRetries: 3, baseDelayMs: 1 }))
    expect(out.error).toBeUndefined()
    expect(out.text).toBe('ok')
    expect(a.count()).toBe(4)
  })

  it.each(['auth', 'bad_request', 'bad_response', 'aborted'] as const)('does not retry %s', async (kind) => {
    const a = attempts([{ error: new ModelError(kind, 'no') }])
    const out = await collectStream(withRetries(a.run, { maxRetries: 3, baseDelayMs: 1 }))
    expect(out.error?.kind).toBe(kind)
    expect(a.count()).toBe(1)
  })

  it('never retries once a delta has been yielded', async () => {
    const a = attempts([{ error: new ModelError('server', 'mid-stream', 500), afterText: 'partial' }])
    const out = await collectStream(withRetries(a.run, { maxRetries: 3, baseDelayMs: 1 }))
    expect(out.text).toBe('partial')
    expect(out.error?.kind).toBe('server')
    expect(a.count()).toBe(1)
  })

  it('stops after maxRetries and passes the last error on', async () => {
    const a = attempts(Array.from({ length: 10 }, (_, i) => ({ error: new ModelError('server', `fail ${i}`, 502) })))
    const out = await collectStream(withRetries(a.run, { maxRetries: 2, baseDelayMs: 1 }))
    expect(out.error?.message).toBe('fail 2')
    expect(a.count()).toBe(3)
  })

  it('backs off exponentially without retry-after, honours retry-after, and caps it at 30 s', async () => {
    const delays: number[] = []
    const a = attempts([
      { error: new ModelError('server', 'a', 500) },
      { error: new ModelError('server', 'b', 500) },
      { error: new ModelError('rate_limit', 'c', 429, 3) },
      { error: new ModelError('rate_limit', 'd', 429, 120_000) }
    ])
    const controller = new AbortController()
    const out = await collectStream(
      withRetries(
        a.run,
        {
          maxRetries: 5,
          baseDelayMs: 2,
          onRetry: ({ delayMs }) => {
            delays.push(delayMs)
            // The capped wait would take 30 s: abort it instead, which must end the wait at once.
            if (delayMs === MAX_RETRY_AFTER_MS) controller.abort()
          }
        },
        controller.signal
      )
    )
    expect(delays).toEqual([2, 4, 3, MAX_RETRY_AFTER_MS])
    expect(out.error?.kind).toBe('aborted')
    expect(a.count()).toBe(4)
  })
})

describe('failure mapping', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [429, 'rate_limit'],
    [500, 'server'],
    [529, 'server'],
    [408, 'server'],
    [400, 'bad_request'],
    [404, 'bad_request'],
    [422, 'bad_request']
  ] as const)('HTTP %i is %s', (status, kind) => {
    expect(fromHttpStatus(status, 'text').kind).toBe(kind)
  })

  it('reads retry-after-ms first, then retry-after seconds, then an HTTP date', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500)
    expect(parseRetryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000)
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(parseRetryAfterMs(headers({}))).toBeUndefined()
  })

  it('maps a JSON syntax error to bad_response and an abort to aborted', () => {
    expect(toModelError(new SyntaxError('Unexpected token')).kind).toBe('bad_response')
    const controller = new AbortController()
    controller.abort()
    expect(toModelError(new Error('whatever'), { signal: controller.signal }).kind).toBe('aborted')
    expect(toModelError(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' })).kind).toBe('aborted')
  })

  it('maps a socket error found in the cause chain to network', () => {
    const err = new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.example.invalid'), { code: 'ENOTFOUND' }) })
    const mapped = toModelError(err, { baseUrl: 'https://api.example.invalid' })
    expect(mapped.kind).toBe('network')
    expect(mapped.message).toContain('ENOTFOUND')
    expect(mapped.message).toContain('https://api.example.invalid')
  })
})
