// What the OpenAI-compatible adapter puts on the wire, checked on the request the fake server
// captured (the fake also rejects, with 400, anything the real API would reject).

import { afterEach, describe, expect, it } from 'vitest'
import type { ModelMessage, ModelRequest, ProviderConfig } from '../../src-shared/model'
import { startFakeOpenAI, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { collectStream } from './collect-stream'
import { createOpenAICompatibleClient } from './openai-compatible'

const TOOLS: ModelRequest['tools'] = [
  { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'list_dir', description: 'List a directory', inputSchema: { type: 'object', properties: { dir: { type: 'string' } } } }
]

let closeFake: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeFake?.()
  closeFake = undefined
})

async function fakeAndClient(script: OpenAIScript, cfg: Partial<ProviderConfig> = {}) {
  const fake = await startFakeOpenAI(script)
  closeFake = fake.close
  const client = createOpenAICompatibleClient({ provider: 'deepseek', baseUrl: fake.url, model: 'deepseek-chat', apiKey: 'sk-test', ...cfg })
  return { fake, client }
}

describe('OpenAI-compatible adapter: wire shape', () => {
  it('runs a full tool round trip: parallel calls out, tool results back as role "tool" messages', async () => {
    const { fake, client } = await fakeAndClient([
      {
        text: 'Let me look.',
        chunkSize: 2,
        toolCalls: [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: 'list_dir', args: { dir: '.' } }
        ]
      },
      (body: OpenAIRequestBody) => {
        const results = body.messages.filter((m) => m.role === 'tool').map((m) => m.content)
        return { text: `I read: ${results.join(' | ')}` }
      }
    ])
    const history: ModelMessage[] = [{ role: 'user', content: 'What is in a.txt?' }]
    const first = await collectStream(client.stream({ system: 'Be brief.', messages: history, tools: TOOLS }))
    expect(first.toolCalls.map((c) => c.name)).toEqual(['read_file', 'list_dir'])

    history.push({ role: 'assistant', text: first.text, toolCalls: first.toolCalls })
    history.push({ role: 'tool', callId: first.toolCalls[0].id, toolName: 'read_file', content: 'hello from a', isError: false })
    history.push({ role: 'tool', callId: first.toolCalls[1].id, toolName: 'list_dir', content: 'EACCES: permission denied', isError: true })
    const second = await collectStream(client.stream({ system: 'Be brief.', messages: history, tools: TOOLS }))
    expect(second.error).toBeUndefined()
    expect(second.text).toBe('I read: hello from a | EACCES: permission denied')

    const body = fake.requests[1].body
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in a.txt?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: first.toolCalls[0].id, type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          { id: first.toolCalls[1].id, type: 'function', function: { name: 'list_dir', arguments: '{"dir":"."}' } }
        ]
      },
      { role: 'tool', tool_call_id: first.toolCalls[0].id, content: 'hello from a' },
      { role: 'tool', tool_call_id: first.toolCalls[1].id, content: 'EACCES: permission denied' }
    ])
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: TOOLS[0].inputSchema } },
      { type: 'function', function: { name: 'list_dir', description: 'List a directory', parameters: TOOLS[1].inputSchema } }
    ])
    expect(body).toMatchObject({ model: 'deepseek-chat', stream: true, stream_options: { include_usage: true } })
  })

  it('sends an assistant turn that was only tool calls with content null', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'done' }])
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'call_1', name: 'list_dir', args: {} }] },
      { role: 'tool', callId: 'call_1', toolName: 'list_dir', content: 'a b', isError: false }
    ]
    const out = await collectStream(client.stream({ system: '', messages, tools: TOOLS }))
    expect(out.error).toBeUndefined()
    expect(fake.requests[0].body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_dir', arguments: '{}' } }]
    })
  })

  it('puts the system prompt first and omits it when empty', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'a' }, { text: 'b' }])
    await collectStream(client.stream({ system: 'SYSTEM RULES', messages: [{ role: 'user', content: 'hi' }], tools: [] }))
    await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'hi' }], tools: [] }))
    expect(fake.requests[0].body.messages[0]).toEqual({ role: 'system', content: 'SYSTEM RULES' })
    expect(fake.requests[0].body.messages.filter((m) => m.role === 'system')).toHaveLength(1)
    expect(fake.requests[1].body.messages.map((m) => m.role)).toEqual(['user'])
    // No tools: the field is left out (some servers reject an empty array).
    expect(fake.requests[0].body).not.toHaveProperty('tools')
  })

  it('replays thinking as reasoning_content for DeepSeek only', async () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', text: '', thinking: 'I should list.', toolCalls: [{ id: 'c1', name: 'list_dir', args: {} }] },
      { role: 'tool', callId: 'c1', toolName: 'list_dir', content: 'x', isError: false }
    ]
    const deepseek = await fakeAndClient([{ text: 'ok' }])
    await collectStream(deepseek.client.stream({ system: '', messages: history, tools: TOOLS }))
    expect(deepseek.fake.requests[0].body.messages[1].reasoning_content).toBe('I should list.')
    await deepseek.fake.close()

    const openai = await fakeAndClient([{ text: 'ok' }], { provider: 'openai', model: 'gpt-4.1' })
    await collectStream(openai.client.stream({ system: '', messages: history, tools: TOOLS }))
    expect(openai.fake.requests[0].body.messages[1]).not.toHaveProperty('reasoning_content')
  })

  it('sends a request\'s effort as reasoning_effort to OpenAI and compatible servers (max as xhigh), and none to DeepSeek', async () => {
    const request = { system: '', messages: [{ role: 'user' as const, content: 'q' }], tools: [] }
    const openai = await fakeAndClient([{ text: 'ok' }, { text: 'ok' }], { provider: 'openai', model: 'gpt-4.1' })
    await collectStream(openai.client.stream({ ...request, effort: 'low' }))
    await collectStream(openai.client.stream({ ...request, effort: 'max' }))
    expect(openai.fake.requests.map((r) => r.body.reasoning_effort)).toEqual(['low', 'xhigh'])
    await openai.fake.close()
    const compatible = await fakeAndClient([{ text: 'ok' }, { text: 'ok' }], { provider: 'openai-compatible', model: 'local' })
    await collectStream(compatible.client.stream({ ...request, effort: 'high' }))
    await collectStream(compatible.client.stream(request))
    expect(compatible.fake.requests[0].body.reasoning_effort).toBe('high')
    expect(compatible.fake.requests[1].body).not.toHaveProperty('reasoning_effort')
    await compatible.fake.close()
    const deepseek = await fakeAndClient([{ text: 'ok' }])
    await collectStream(deepseek.client.stream({ ...request, effort: 'high' }))
    expect(deepseek.fake.requests[0].body).not.toHaveProperty('reasoning_effort')
  })

  it('names the token limit max_completion_tokens for OpenAI and max_tokens elsewhere', async () => {
    const openai = await fakeAndClient([{ text: 'ok' }], { provider: 'openai', model: 'gpt-4.1' })
    await collectStream(openai.client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [], maxTokens: 321 }))
    expect(openai.fake.requests[0].body).toMatchObject({ max_completion_tokens: 321 })
    expect(openai.fake.requests[0].body).not.toHaveProperty('max_tokens')
    await openai.fake.close()

    const ollama = await fakeAndClient([{ text: 'ok' }], { provider: 'ollama', model: 'llama3.1' })
    await collectStream(ollama.client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [], maxTokens: 321 }))
    expect(ollama.fake.requests[0].body).toMatchObject({ max_tokens: 321 })
  })

  it('asks an OpenAI-compatible server for usage, and reports it', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'ok', usage: { inputTokens: 3, outputTokens: 1 } }], { provider: 'openai-compatible' })
    const out = await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(fake.requests[0].body).toMatchObject({ stream_options: { include_usage: true } })
    expect(out.done).toMatchObject({ type: 'done', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 1 } })
  })

  it('asks a compatible server that refuses stream_options once more without it, and not again', async () => {
    const refusal = { status: 400, body: { error: { message: "Unrecognized request argument supplied: stream_options", type: 'invalid_request_error', param: null, code: null } } }
    const { fake, client } = await fakeAndClient([{ error: refusal }, { text: 'first' }, { text: 'second' }], { provider: 'openai-compatible' })
    const first = await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(first.text).toBe('first')
    const second = await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(second.text).toBe('second')
    expect(fake.requests.map((r) => 'stream_options' in r.body)).toEqual([true, false, false])
  })

  it('does not retry a refused request without stream_options for a provider known to take it', async () => {
    const refusal = { status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error', param: null, code: null } } }
    const { fake, client } = await fakeAndClient([{ error: refusal }, { text: 'never' }], { provider: 'deepseek', model: 'deepseek-chat' })
    const out = await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(out.error).toMatchObject({ kind: 'bad_request', status: 400, message: 'bad request' })
    expect(fake.requests).toHaveLength(1)
  })

  it('sends the key as a bearer token, and no Authorization header without a key', async () => {
    const keyed = await fakeAndClient([{ text: 'ok' }])
    await collectStream(keyed.client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(keyed.fake.requests[0].headers.authorization).toBe('Bearer sk-test')
    await keyed.fake.close()

    const keyless = await fakeAndClient([{ text: 'ok' }], { provider: 'ollama', apiKey: undefined })
    const out = await collectStream(keyless.client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(out.text).toBe('ok')
    expect(keyless.fake.requests[0].headers).not.toHaveProperty('authorization')
  })

  it('upgrades a "stop" finish to tool_use when the reply carried tool calls', async () => {
    const { client } = await fakeAndClient([{ toolCalls: [{ name: 'list_dir', args: {} }], finishReason: 'stop' }])
    const out = await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: TOOLS }))
    expect(out.toolCalls).toHaveLength(1)
    expect(out.done?.stopReason).toBe('tool_use')
  })

  it('treats tool arguments "" as an empty object', async () => {
    const { client } = await fakeAndClient([{ toolCalls: [{ name: 'list_dir', args: '' }] }])
    const out = await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: TOOLS }))
    expect(out.toolCalls[0]).toEqual({ id: expect.any(String), name: 'list_dir', args: {} })
  })
})
