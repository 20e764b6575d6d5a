// What the Anthropic adapter puts on the wire, checked on the request the fake server captured
// (the fake also rejects, with 400, anything the real API would reject: unpaired tool_use ids,
// roles that do not alternate, a missing max_tokens…).

import { afterEach, describe, expect, it } from 'vitest'
import type { ModelMessage, ModelRequest, ProviderConfig } from '../../src-shared/model'
import { startFakeAnthropic, type AnthropicRequestBody, type AnthropicScript } from '../../test-support/fake-anthropic.mjs'
import { DEFAULT_ANTHROPIC_MAX_TOKENS, createAnthropicClient } from './anthropic'
import { collectStream } from './collect-stream'

const TOOLS: ModelRequest['tools'] = [
  { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'list_dir', description: 'List a directory', inputSchema: { type: 'object', properties: { dir: { type: 'string' } } } }
]

let closeFake: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeFake?.()
  closeFake = undefined
})

async function fakeAndClient(script: AnthropicScript, cfg: Partial<ProviderConfig> = {}) {
  const fake = await startFakeAnthropic(script)
  closeFake = fake.close
  const client = createAnthropicClient({ provider: 'anthropic', baseUrl: fake.url, model: 'claude-test-model', apiKey: 'sk-ant-test', ...cfg })
  return { fake, client }
}

describe('Anthropic adapter: wire shape', () => {
  it('sends a request\'s effort as output_config.effort (all five levels as they are), and none without one', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'ok' }, { text: 'ok' }])
    await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [], effort: 'max' }))
    await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'q' }], tools: [] }))
    expect(fake.requests[0].body).toMatchObject({ output_config: { effort: 'max' } })
    expect(fake.requests[1].body).not.toHaveProperty('output_config')
  })

  it('runs a full tool round trip: tool_use blocks out, tool_result blocks back in one user message', async () => {
    const { fake, client } = await fakeAndClient([
      {
        thinking: 'Two lookups.',
        text: 'Let me look.',
        chunkSize: 3,
        toolCalls: [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: 'list_dir', args: { dir: '.' } }
        ]
      },
      (body: AnthropicRequestBody) => {
        const last = body.messages[body.messages.length - 1]
        const results = Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result').map((b) => b.content) : []
        return { text: `I read: ${results.join(' | ')}` }
      }
    ])
    const history: ModelMessage[] = [{ role: 'user', content: 'What is in a.txt?' }]
    const first = await collectStream(client.stream({ system: 'Be brief.', messages: history, tools: TOOLS }))
    expect(first.thinking).toBe('Two lookups.')
    expect(first.toolCalls).toEqual([
      { id: 'toolu_0_0', name: 'read_file', args: { path: 'a.txt' } },
      { id: 'toolu_0_1', name: 'list_dir', args: { dir: '.' } }
    ])
    expect(first.done?.stopReason).toBe('tool_use')

    history.push({ role: 'assistant', text: first.text, thinking: first.thinking, toolCalls: first.toolCalls })
    history.push({ role: 'tool', callId: 'toolu_0_0', toolName: 'read_file', content: 'hello from a', isError: false })
    history.push({ role: 'tool', callId: 'toolu_0_1', toolName: 'list_dir', content: 'EACCES: permission denied', isError: true })
    const second = await collectStream(client.stream({ system: 'Be brief.', messages: history, tools: TOOLS }))
    expect(second.error).toBeUndefined()
    expect(second.text).toBe('I read: hello from a | EACCES: permission denied')

    const body = fake.requests[1].body
    expect(body.system).toBe('Be brief.')
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is in a.txt?' }] },
      {
        role: 'assistant',
        // Thinking is not replayed: the API accepts it back only with its signature.
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_0_0', name: 'read_file', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_0_1', name: 'list_dir', input: { dir: '.' } }
        ]
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'hello from a' },
          { type: 'tool_result', tool_use_id: 'toolu_0_1', content: 'EACCES: permission denied', is_error: true }
        ]
      }
    ])
    expect(body.tools).toEqual([
      { name: 'read_file', description: 'Read a file', input_schema: TOOLS[0].inputSchema },
      { name: 'list_dir', description: 'List a directory', input_schema: TOOLS[1].inputSchema }
    ])
    expect(body).toMatchObject({ model: 'claude-test-model', stream: true, max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS })
  })

  it('puts user text that follows tool results into the same user message, after the results', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'ok' }])
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'list_dir', args: {} }] },
      { role: 'tool', callId: 't1', toolName: 'list_dir', content: 'a b', isError: false },
      { role: 'user', content: 'also check b' }
    ]
    const out = await collectStream(client.stream({ system: '', messages, tools: TOOLS }))
    expect(out.error).toBeUndefined()
    expect(fake.requests[0].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'list_dir', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a b' },
          { type: 'text', text: 'also check b' }
        ]
      }
    ])
  })

  it('sends the system prompt as the top-level field, never as a message, and leaves it out when empty', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'a' }, { text: 'b' }])
    await collectStream(client.stream({ system: 'SYSTEM RULES', messages: [{ role: 'user', content: 'hi' }], tools: [] }))
    await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'hi' }], tools: [] }))
    expect(fake.requests[0].body.system).toBe('SYSTEM RULES')
    expect(fake.requests[0].body.messages.map((m) => m.role)).toEqual(['user'])
    expect(fake.requests[1].body).not.toHaveProperty('system')
    expect(fake.requests[0].body).not.toHaveProperty('tools')
  })

  it('passes maxTokens through as max_tokens', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'a' }])
    await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 77 }))
    expect(fake.requests[0].body.max_tokens).toBe(77)
  })

  it('sends the key in the Authorization header and the API version header', async () => {
    const { fake, client } = await fakeAndClient([{ text: 'a' }])
    await collectStream(client.stream({ system: '', messages: [{ role: 'user', content: 'hi' }], tools: [] }))
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-ant-test')
    expect(fake.requests[0].headers['anthropic-version']).toEqual(expect.any(String))
  })

  it('reports an unpaired tool_use (which the API rejects) as bad_request with the API text', async () => {
    const { client } = await fakeAndClient([{ text: 'never' }])
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'list_dir', args: {} }] },
      { role: 'user', content: 'no results given' }
    ]
    const out = await collectStream(client.stream({ system: '', messages, tools: TOOLS }))
    expect(out.error?.kind).toBe('bad_request')
    expect(out.error?.message).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: t1')
  })
})
