// Reads one model stream into a reply, pushing deltas live. It never throws: a failure or an
// abort comes back as `error` together with whatever had arrived, so the caller can log the
// partial message before ending the turn.
import type { ModelClient, ModelRequest, ModelToolCall, ModelUsage } from '../../src-shared/model'

export interface StreamedReply {
  text: string
  thinking: string
  toolCalls: ModelToolCall[]
  stopReason?: string
  /** The provider's token counts, when it sent them. */
  usage?: ModelUsage
  /** Set when the stream failed or was aborted before it ended. */
  error?: unknown
}

export class StreamAbortedError extends Error {
  constructor() {
    super('the model request was cancelled')
    this.name = 'StreamAbortedError'
  }
}

/**
 * The abort listener of every stream of one turn (its streams run one after another): adding and
 * removing a listener on an AbortSignal (Node's EventTarget) cost about 0.3 us per stream, about
 * 2% of a step of one call (issue 26); watching costs a field write.
 */
export class StreamAborts {
  private current: (() => void) | undefined

  constructor(signal: AbortSignal) {
    signal.addEventListener('abort', () => this.current?.(), { once: true })
  }

  watch(onAbort: () => void): void {
    this.current = onAbort
  }

  unwatch(onAbort: () => void): void {
    if (this.current === onAbort) this.current = undefined
  }
}

/**
 * Reads the stream by callbacks rather than an await per event: an abort listener (the turn's
 * `aborts`, or one of its own) settles the reply at once when the signal aborts (cancel stays
 * prompt even with a client that ignores the signal), and each event costs one `then` on the
 * client's own read, no race.
 */
export function readModelStream(
  model: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  onDelta: (kind: 'text' | 'thinking', text: string) => void,
  aborts?: StreamAborts
): Promise<StreamedReply> {
  const reply: StreamedReply = { text: '', thinking: '', toolCalls: [] }
  if (signal.aborted) return Promise.resolve({ ...reply, error: new StreamAbortedError() })
  return new Promise<StreamedReply>((resolve) => {
    let iterator: AsyncIterator<unknown> | undefined
    let settled = false
    const finish = (error: unknown, ended: boolean): void => {
      if (settled) return
      settled = true
      if (aborts) aborts.unwatch(onAbort)
      else signal.removeEventListener('abort', onAbort)
      if (!ended && iterator?.return) {
        // Closing an abandoned stream is best effort; its failure says nothing about the turn.
        // (A read still pending may reject later too: that rejection is the abort's echo, handled by onError.)
        try {
          iterator.return().catch(() => {})
        } catch {
          // a client whose return() throws at once: the same, nothing to report
        }
      }
      resolve(error === undefined ? reply : { ...reply, error: signal.aborted ? new StreamAbortedError() : error })
    }
    const onAbort = (): void => finish(new StreamAbortedError(), false)
    const onError = (error: unknown): void => finish(error ?? new Error('the model stream failed'), false)
    const onNext = (next: IteratorResult<unknown>): void => {
      if (settled) return
      if (next.done) return finish(undefined, true)
      try {
        applyEvent(reply, next.value, onDelta)
      } catch (error) {
        return onError(error)
      }
      read()
    }
    const read = (): void => {
      if (settled) return
      let pending: Promise<IteratorResult<unknown>>
      try {
        pending = iterator!.next()
      } catch (error) {
        return onError(error)
      }
      pending.then(onNext, onError)
    }
    if (aborts) aborts.watch(onAbort)
    else signal.addEventListener('abort', onAbort, { once: true })
    try {
      // The request is the caller's own: it gets the signal set rather than copied (a copy would read
      // the messages, which the loop's request copies only when the client reads them).
      request.signal = signal
      iterator = model.stream(request)[Symbol.asyncIterator]() as AsyncIterator<unknown>
    } catch (error) {
      return onError(error)
    }
    read()
  })
}

function applyEvent(reply: StreamedReply, event: unknown, onDelta: (kind: 'text' | 'thinking', text: string) => void): void {
  const e = event as { type?: unknown }
  switch (e.type) {
    case 'text-delta': {
      const text = String((event as { text: unknown }).text ?? '')
      reply.text += text
      if (text) onDelta('text', text)
      return
    }
    case 'thinking-delta': {
      const text = String((event as { text: unknown }).text ?? '')
      reply.thinking += text
      if (text) onDelta('thinking', text)
      return
    }
    case 'tool-call':
      reply.toolCalls.push(checkToolCall((event as { call: unknown }).call))
      return
    case 'done': {
      const done = event as { stopReason: unknown; usage?: unknown }
      reply.stopReason = String(done.stopReason)
      const usage = checkUsage(done.usage)
      if (usage !== undefined) reply.usage = usage
      return
    }
    default:
      throw new Error(`the model stream sent an unknown event type: ${JSON.stringify(e.type)}`)
  }
}

function checkToolCall(value: unknown): ModelToolCall {
  const call = value as Partial<ModelToolCall> | undefined
  if (!call || typeof call.id !== 'string' || typeof call.name !== 'string' || typeof call.args !== 'object' || call.args === null || Array.isArray(call.args)) {
    throw new Error('the model stream sent a malformed tool call (id, name and args, an object, are required)')
  }
  return call.argsError === undefined
    ? { id: call.id, name: call.name, args: call.args }
    : { id: call.id, name: call.name, args: call.args, argsError: String(call.argsError) }
}

const USAGE_FIELDS = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens'] as const

/** Keeps the counts that are whole non-negative numbers; anything else from an adapter is dropped, not logged. */
function checkUsage(value: unknown): ModelUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const usage: ModelUsage = {}
  for (const field of USAGE_FIELDS) {
    const n = (value as Record<string, unknown>)[field]
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) usage[field] = n
  }
  return Object.keys(usage).length > 0 ? usage : undefined
}
