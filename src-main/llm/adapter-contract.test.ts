// The behaviour both adapters share, each run against its loopback fake speaking the real wire
// protocol: streaming, thinking, parallel tool calls, error kinds, retries, aborts.

import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelClient, ModelRequest, ProviderConfig } from '../../src-shared/model'
import { errorBody as anthropicErrorBody, startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { errorBody as openAIErrorBody, startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import type { ScriptedTurn } from '../../test-support/scripted-turns.mjs'
import { createAnthropicClient } from './anthropic'
import { collectStream } from './collect-stream'
import { createOpenAICompatibleClient } from './openai-compatible'

interface FakeHandle {
  url: string
  requests: Array<{ body: unknown; closed: Promise<'finished' | 'aborted'> }>
  close(): Promise<void>
}

interface Harness {
  name: string
  start(script: ScriptedTurn[]): Promise<FakeHandle>
  client(baseUrl: string, extra?: Partial<ProviderConfig>): ModelClient
  errorBody(status: number, message: string): unknown
  /** The provider's raw value meaning "stopped at the token limit". */
  lengthFinish: string
  /** The provider's raw value meaning "declined to answer" (a safety refusal). */
  refusalFinish: string
}

const harnesses: Harness[] = [
  {
    name: 'openai-compatible',
    start: (script) => startFakeOpenAI(script),
    client: (baseUrl, extra) => createOpenAICompatibleClient({ provider: 'deepseek', baseUrl, model: 'deepseek-chat', apiKey: 'sk-test', ...extra }),
    errorBody: openAIErrorBody,
    lengthFinish: 'length',
    refusalFinish: 'content_filter'
  },
  {
    name: 'anthropic',
    start: (script) => startFakeAnthropic(script),
    client: (baseUrl, extra) => createAnthropicClient({ provider: 'anthropic', baseUrl, model: 'claude-test-model', apiKey: 'sk-ant-test', ...extra }),
    errorBody: anthropicErrorBody,
    lengthFinish: 'max_tokens',
    refusalFinish: 'refusal'
  }
]

const TOOLS: ModelRequest['tools'] = [
  { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'list_dir', description: 'List a directory', inputSchema: { type: 'object', properties: { dir: { type: 'string' } } } }
]

function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You are terse.', messages: [{ role: 'user', content: 'hello' }], tools: TOOLS, ...extra }
}

function times(n: number, turn: ScriptedTurn): ScriptedTurn[] {
  return Array.from({ length: n }, () => turn)
}

async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe.each(harnesses)('$name adapter against its fake server', (h) => {
  let fake: FakeHandle | undefined
  afterEach(async () => {
    await fake?.close()
    fake = undefined
  })
  const start = async (script: ScriptedTurn[]): Promise<FakeHandle> => (fake = await h.start(script))

  it('streams text as several deltas and ends with end_turn and usage', async () => {
    const server = await start([{ text: 'Hello, world!', chunkSize: 3, usage: { inputTokens: 11, outputTokens: 5 } }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toBeUndefined()
    expect(out.text).toBe('Hello, world!')
    expect(out.events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1)
    expect(out.done).toEqual({ type: 'done', stopReason: 'end_turn', usage: { inputTokens: 11, outputTokens: 5 } })
  })

  it('streams thinking as thinking-deltas before the text', async () => {
    const server = await start([{ thinking: 'The user greets me.', text: 'Hi.' }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.thinking).toBe('The user greets me.')
    expect(out.text).toBe('Hi.')
    const kinds = out.events.map((e) => e.type)
    expect(kinds.lastIndexOf('thinking-delta')).toBeLessThan(kinds.indexOf('text-delta'))
  })

  it('emits two parallel tool calls with arguments assembled from fragments', async () => {
    const server = await start([
      {
        text: 'Looking.',
        chunkSize: 3,
        interleaveToolCalls: true,
        toolCalls: [
          { name: 'read_file', args: { path: 'src/a file.ts' } },
          { name: 'list_dir', args: { dir: 'src', nested: { depth: 2, all: true } } }
        ]
      }
    ])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toBeUndefined()
    expect(out.toolCalls).toEqual([
      { id: expect.any(String), name: 'read_file', args: { path: 'src/a file.ts' } },
      { id: expect.any(String), name: 'list_dir', args: { dir: 'src', nested: { depth: 2, all: true } } }
    ])
    expect(new Set(out.toolCalls.map((c) => c.id)).size).toBe(2)
    expect(out.done?.stopReason).toBe('tool_use')
  })

  it('turns unparseable tool arguments into {} with argsError', async () => {
    const server = await start([{ toolCalls: [{ name: 'read_file', args: '{"path": "a.t' }] }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.toolCalls).toHaveLength(1)
    expect(out.toolCalls[0].args).toEqual({})
    expect(out.toolCalls[0].argsError).toMatch(/not valid JSON/)
  })

  it('maps the provider stopping at the token limit to max_tokens', async () => {
    const server = await start([{ text: 'cut', finishReason: h.lengthFinish }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.done?.stopReason).toBe('max_tokens')
  })

  it('maps the provider declining to answer to refusal (an ACP client shows it as such)', async () => {
    const server = await start([{ text: '', finishReason: h.refusalFinish }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.done?.stopReason).toBe('refusal')
  })

  it('reports 401 as auth with the provider message and does not retry', async () => {
    const server = await start([{ error: { status: 401, body: h.errorBody(401, 'Incorrect API key provided: sk-bad') } }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toMatchObject({ kind: 'auth', status: 401 })
    expect(out.error?.message).toContain('Incorrect API key provided: sk-bad')
    expect(server.requests).toHaveLength(1)
  })

  it('reports 403 as auth', async () => {
    const server = await start([{ error: { status: 403, body: h.errorBody(403, 'Your key may not use this model') } }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toMatchObject({ kind: 'auth', message: 'Your key may not use this model' })
  })

  it('reports 400 as bad_request with the provider text', async () => {
    const server = await start([{ error: { status: 400, body: h.errorBody(400, 'tools[0].name: too long') } }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toMatchObject({ kind: 'bad_request', status: 400, message: 'tools[0].name: too long' })
    expect(server.requests).toHaveLength(1)
  })

  it('keeps a plain-text error body as the message', async () => {
    const server = await start([{ error: { status: 404, body: 'no such route on this proxy' } }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toMatchObject({ kind: 'bad_request', status: 404, message: 'no such route on this proxy' })
  })

  it('waits out a 429 with retry-after and then succeeds', async () => {
    const server = await start([{ error: { status: 429, body: h.errorBody(429, 'Slow down'), headers: { 'retry-after': '1' } } }, { text: 'ok' }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toBeUndefined()
    expect(out.text).toBe('ok')
    expect(server.requests).toHaveLength(2)
  })

  it('reports a 429 that outlasts the retries as rate_limit with retryAfterMs', async () => {
    const server = await start([{ error: { status: 429, body: h.errorBody(429, 'Quota exceeded'), headers: { 'retry-after': '7' } } }])
    const out = await collectStream(h.client(server.url, { maxRetries: 0 }).stream(request()))
    expect(out.error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7000, message: 'Quota exceeded' })
  })

  it('retries 500 twice and then succeeds', async () => {
    const server = await start([...times(2, { error: { status: 500, body: h.errorBody(500, 'boom') } }), { text: 'recovered' }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toBeUndefined()
    expect(out.text).toBe('recovered')
    expect(server.requests).toHaveLength(3)
  })

  it('gives up on a 5xx after maxRetries with a server error', async () => {
    const server = await start(times(5, { error: { status: 503, body: h.errorBody(503, 'upstream unavailable') } }))
    const out = await collectStream(h.client(server.url, { maxRetries: 2 }).stream(request()))
    expect(out.error).toMatchObject({ kind: 'server', status: 503, message: 'upstream unavailable' })
    expect(server.requests).toHaveLength(3)
  })

  it('reports a refused connection as network, naming the address', async () => {
    const port = await closedPort()
    const baseUrl = `http://127.0.0.1:${port}`
    const out = await collectStream(h.client(baseUrl, { maxRetries: 0 }).stream(request()))
    expect(out.error?.kind).toBe('network')
    expect(out.error?.message).toContain(baseUrl)
    expect(out.error?.message).toContain('ECONNREFUSED')
  })

  it('retries a connection cut before any output and then succeeds', async () => {
    const server = await start([{ text: 'lost', resetAfterChars: 0 }, { text: 'second try' }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toBeUndefined()
    expect(out.text).toBe('second try')
    expect(server.requests).toHaveLength(2)
  })

  it('reports a connection cut mid-stream as network, keeping the text, without retrying', async () => {
    const server = await start([{ text: 'half of it', chunkSize: 5, resetAfterChars: 5 }, { text: 'should not be requested' }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.text).toBe('half ')
    expect(out.error?.kind).toBe('network')
    expect(server.requests).toHaveLength(1)
  })

  it('reports a stream that ends before finishing as bad_response, keeping what came first, without retrying', async () => {
    const server = await start([{ text: 'partial answer', truncate: true }, { text: 'should not be requested' }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.text).toBe('partial answer')
    expect(out.done).toBeUndefined()
    expect(out.error?.kind).toBe('bad_response')
    expect(server.requests).toHaveLength(1)
  })

  it('reports a chunk that is not JSON as bad_response', async () => {
    const server = await start([{ text: 'some text here', malformed: true }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error?.kind).toBe('bad_response')
    expect(out.done).toBeUndefined()
  })

  it('reports an error event inside the stream with the provider message', async () => {
    const server = await start([{ text: 'begin', streamError: { type: 'overloaded_error', message: 'Overloaded' } }])
    const out = await collectStream(h.client(server.url).stream(request()))
    expect(out.error).toMatchObject({ kind: 'server', message: 'Overloaded' })
    expect(server.requests).toHaveLength(1)
  })

  it('aborts mid-stream: the caller gets aborted and the server sees the connection close', async () => {
    const server = await start([{ text: 'a long answer that never finishes', chunkSize: 4, hangAfterChars: 4 }])
    const controller = new AbortController()
    const out = await collectStream(h.client(server.url).stream(request({ signal: controller.signal })), (event) => {
      if (event.type === 'text-delta') controller.abort()
    })
    expect(out.text).toBe('a lo')
    expect(out.error?.kind).toBe('aborted')
    await expect(server.requests[0].closed).resolves.toBe('aborted')
  })

  it('abandons a stream that goes silent mid-reply: a network error naming the stall, no retry after output', async () => {
    const server = await start([{ text: 'a long answer that never finishes', chunkSize: 4, hangAfterChars: 8 }])
    const out = await collectStream(h.client(server.url, { stallTimeoutMs: 300, maxRetries: 2 }).stream(request()))
    expect(out.text).toBe('a long a')
    expect(out.error).toMatchObject({ kind: 'network', message: expect.stringMatching(/sent nothing for 300 ms; the stream was abandoned/) })
    expect(server.requests).toHaveLength(1)
    await expect(server.requests[0].closed).resolves.toBe('aborted')
  })

  it('retries a stream that stalls before any output, and the retry answers', async () => {
    const server = await start([{ text: 'never arrives', hangAfterChars: 0 }, { text: 'second try' }])
    const out = await collectStream(h.client(server.url, { stallTimeoutMs: 300, maxRetries: 1 }).stream(request()))
    expect(out.error).toBeUndefined()
    expect(out.text).toBe('second try')
    expect(server.requests).toHaveLength(2)
  })

  it('does not send a request when the signal is already aborted', async () => {
    const server = await start([{ text: 'never' }])
    const controller = new AbortController()
    controller.abort()
    const out = await collectStream(h.client(server.url).stream(request({ signal: controller.signal })))
    expect(out.error?.kind).toBe('aborted')
    expect(server.requests).toHaveLength(0)
  })

  it('aborting during a retry wait ends it with aborted', async () => {
    const server = await start([{ error: { status: 429, body: h.errorBody(429, 'wait'), headers: { 'retry-after': '25' } } }, { text: 'late' }])
    const controller = new AbortController()
    const pending = collectStream(h.client(server.url).stream(request({ signal: controller.signal })))
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    await server.requests[0].closed
    // The 429 has been answered; the client is now in (or about to enter) its 25 s wait.
    controller.abort()
    const out = await pending
    expect(out.error?.kind).toBe('aborted')
    expect(server.requests).toHaveLength(1)
  })

  it('answers from the script in order and names an exhausted script', async () => {
    const server = await start([{ text: 'one' }])
    const client = h.client(server.url, { maxRetries: 0 })
    expect((await collectStream(client.stream(request()))).text).toBe('one')
    const second = await collectStream(client.stream(request()))
    expect(second.error?.kind).toBe('server')
    expect(second.error?.message).toMatch(/script exhausted/)
  })
})
