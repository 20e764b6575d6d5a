// A watchdog for provider streams: a connection that stays open but sends nothing (a stuck
// proxy, a server that hung mid-reply) would otherwise hold a turn forever. Every raw chunk
// (and the response headers) resets it; when it fires, the request is aborted and reported as a
// network failure, which withRetries may retry when nothing had been yielded yet.
import { ModelError } from '../../src-shared/model'
import { abortedError, toModelError } from './errors'

/** Default: two minutes without a byte from the provider. */
export const DEFAULT_STALL_TIMEOUT_MS = 120_000

export interface StallWatch {
  /** Pass this to the SDK instead of the request's own signal. */
  readonly signal: AbortSignal
  /** Data arrived: restart the countdown. */
  beat(): void
  /** True when the watchdog (not the caller) ended the request. */
  readonly stalled: boolean
  error(): ModelError
  /** The error a failed attempt raises: the stall when the watchdog cut it, else the SDK's error mapped. */
  failure(err: unknown, ctx: { signal?: AbortSignal; baseUrl?: string }): ModelError
  /** After the SDK's iteration ended (it ends quietly on an abort): throws when it was cut short. */
  assertNotCut(): void
  stop(): void
}

export function watchStall(callerSignal: AbortSignal | undefined, idleMs: number): StallWatch {
  const stall = new AbortController()
  let stalled = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      stalled = true
      stall.abort(new Error('stalled'))
    }, idleMs)
  }
  arm()
  const watch: StallWatch = {
    signal: callerSignal ? AbortSignal.any([callerSignal, stall.signal]) : stall.signal,
    beat: arm,
    get stalled() {
      return stalled && !callerSignal?.aborted
    },
    error: () => new ModelError('network', `The provider sent nothing for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}; the stream was abandoned.`),
    failure: (err, ctx) => (watch.stalled ? watch.error() : toModelError(err, ctx)),
    assertNotCut() {
      if (callerSignal?.aborted) throw abortedError()
      if (watch.stalled) throw watch.error()
    },
    stop: () => clearTimeout(timer)
  }
  return watch
}
