// An in-process ModelClient that plays scripted replies, one per request, for agent-loop tests
// and benchmarks. It is a test double at the model-provider edge only: the loop, the tools and
// the session log under test are the real ones. It honours the request's AbortSignal (an abort
// ends the stream with a ModelError of kind `aborted`) and records every request it got.
import { ModelError, type ModelClient, type ModelRequest, type ModelStreamEvent, type ModelToolCall, type ModelUsage } from '../src-shared/model'

export interface ScriptedCall {
  name: string
  args?: Record<string, unknown>
  /** Defaults to `call_<request>_<index>`. */
  id?: string
  /** Play a call whose arguments did not parse (args becomes {}). */
  argsError?: string
}

export interface ScriptedReply {
  thinking?: string
  text?: string
  toolCalls?: ScriptedCall[]
  /** Characters per delta; by default text and thinking arrive in one delta each. */
  chunkSize?: number
  /** Pause before every streamed event (abort-aware). */
  delayMs?: number
  /** After the content, keep the stream open until the request is aborted. */
  hang?: boolean
  /** After the content, fail: a ModelError as given, or a string for a `server` ModelError. */
  error?: Error | string
  /** Token counts reported with `done`. */
  usage?: ModelUsage
  /** Defaults to `tool_use` with calls, `end_turn` without. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'other'
}

/** A function step may answer later (a test that waits for something the turn started before replying). */
export type ScriptStep = ScriptedReply | ((request: ModelRequest, index: number) => ScriptedReply | Promise<ScriptedReply>)
export type Script = readonly ScriptStep[] | ((request: ModelRequest, index: number) => ScriptedReply | undefined)

export interface ScriptedModelOptions {
  model?: string
  /** Keep a copy of every request (default true; a long benchmark may turn it off). */
  keepRequests?: boolean
}

/** The request as the model got it (without the signal), deep-copied. */
export type RecordedRequest = Omit<ModelRequest, 'signal'>

export class ScriptedModel implements ModelClient {
  readonly provider = 'scripted'
  readonly model: string
  readonly requests: RecordedRequest[] = []
  private count = 0
  private readonly steps: ScriptStep[] = []
  private readonly generator: ((request: ModelRequest, index: number) => ScriptedReply | undefined) | undefined
  private readonly keepRequests: boolean
  private waiters: Array<{ n: number; resolve: (request: RecordedRequest) => void }> = []

  constructor(script: Script = [], options: ScriptedModelOptions = {}) {
    this.model = options.model ?? 'scripted-1'
    this.keepRequests = options.keepRequests ?? true
    if (typeof script === 'function') this.generator = script
    else this.steps.push(...script)
  }

  /** Requests received so far. */
  get calls(): number {
    return this.count
  }

  get lastRequest(): RecordedRequest | undefined {
    return this.requests[this.requests.length - 1]
  }

  /** Adds replies to the end of a list script. */
  push(...steps: ScriptStep[]): void {
    this.steps.push(...steps)
  }

  /** Resolves when the n-th request (1-based) has arrived. */
  waitForRequest(n: number): Promise<RecordedRequest | undefined> {
    if (this.count >= n) return Promise.resolve(this.requests[n - 1])
    return new Promise((resolve) => this.waiters.push({ n, resolve }))
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const index = this.count++
    // Without keepRequests the messages are not read here (a long benchmark's loop would otherwise
    // pay for copying the whole history each step, which a real client does while serialising).
    let copy: RecordedRequest = request
    if (this.keepRequests) {
      const recorded: RecordedRequest = { system: request.system, messages: request.messages, tools: request.tools }
      if (request.maxTokens !== undefined) recorded.maxTokens = request.maxTokens
      copy = structuredClone(recorded)
    }
    if (this.keepRequests) this.requests.push(copy)
    for (const waiter of this.waiters.filter((w) => w.n <= this.count)) waiter.resolve(copy)
    this.waiters = this.waiters.filter((w) => w.n > this.count)
    return this.play(request, index)
  }

  private async *play(request: ModelRequest, index: number): AsyncGenerator<ModelStreamEvent> {
    const reply = await this.replyFor(request, index)
    const signal = request.signal
    // A reply without delays only checks for an abort before each event (no timer, no await).
    const delayMs = reply.delayMs
    const pause = delayMs
      ? async () => {
          await sleep(delayMs, signal)
          throwIfAborted(signal)
        }
      : undefined
    if (reply.thinking) {
      for (const piece of chunks(reply.thinking, reply.chunkSize)) {
        if (pause) await pause()
        else throwIfAborted(signal)
        yield { type: 'thinking-delta', text: piece }
      }
    }
    if (reply.text) {
      for (const piece of chunks(reply.text, reply.chunkSize)) {
        if (pause) await pause()
        else throwIfAborted(signal)
        yield { type: 'text-delta', text: piece }
      }
    }
    const calls = reply.toolCalls ?? []
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]
      const id = call.id ?? `call_${index}_${i}`
      const played: ModelToolCall = call.argsError === undefined ? { id, name: call.name, args: call.args ?? {} } : { id, name: call.name, args: {}, argsError: call.argsError }
      if (pause) await pause()
      else throwIfAborted(signal)
      yield { type: 'tool-call', call: played }
    }
    if (reply.hang) {
      await sleep(Number.POSITIVE_INFINITY, signal)
      throw new ModelError('aborted', 'the request was aborted')
    }
    if (reply.error !== undefined) throw typeof reply.error === 'string' ? new ModelError('server', reply.error, 500) : reply.error
    if (pause) await pause()
    else throwIfAborted(signal)
    yield { type: 'done', stopReason: reply.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn'), ...(reply.usage ? { usage: reply.usage } : {}) }
  }

  private replyFor(request: ModelRequest, index: number): ScriptedReply | Promise<ScriptedReply> {
    const step = this.generator ? this.generator(request, index) : this.steps[index]
    if (step === undefined) throw new ModelError('bad_request', `scripted model: no reply scripted for request ${index + 1}`)
    return typeof step === 'function' ? step(request, index) : step
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelError('aborted', 'the request was aborted')
}

function chunks(text: string, size: number | undefined): string[] {
  if (!size || size <= 0) return [text]
  const chars = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''))
  return out
}

/** Resolves after `ms` (never for Infinity); rejects with an `aborted` ModelError when the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError('aborted', 'the request was aborted'))
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined
    function done() {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }
    function onAbort() {
      if (timer !== undefined) clearTimeout(timer)
      reject(new ModelError('aborted', 'the request was aborted'))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
