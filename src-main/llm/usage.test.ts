// Token usage and the context-length refusal, per adapter, against the loopback fakes speaking
// each provider's real usage fields and error shape (issue 16: context budget).
import { afterEach, describe, expect, it } from 'vitest'
import { ModelError, type ModelClient, type ModelRequest } from '../../src-shared/model'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import type { FakeServerOptions } from '../../test-support/fake-provider-server.mjs'
import type { ScriptedTurn } from '../../test-support/scripted-turns.mjs'
import { createAnthropicClient } from './anthropic'
import { collectStream } from './collect-stream'
import { createOpenAICompatibleClient } from './openai-compatible'

type Start = (script: ScriptedTurn[], options?: FakeServerOptions) => Promise<{ url: string; requests: unknown[]; close(): Promise<void> }>

const adapters: Array<{ name: string; start: Start; client(url: string): ModelClient; reasoning: boolean }> = [
  {
    name: 'openai-compatible (DeepSeek preset)',
    start: (script, options) => startFakeOpenAI(script, options),
    client: (baseUrl) => createOpenAICompatibleClient({ provider: 'deepseek', baseUrl, model: 'deepseek-chat', apiKey: 'sk-test', maxRetries: 0 }),
    reasoning: true
  },
  {
    name: 'anthropic',
    start: (script, options) => startFakeAnthropic(script, options),
    client: (baseUrl) => createAnthropicClient({ provider: 'anthropic', baseUrl, model: 'claude-test', apiKey: 'sk-ant-test', maxRetries: 0 }),
    reasoning: false
  }
]

const request = (content = 'hello'): ModelRequest => ({ system: 'terse', messages: [{ role: 'user', content }], tools: [] })

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

describe.each(adapters)('usage fields: $name', ({ start, client, reasoning }) => {
  it('reports input (cached included), cached input, output and reasoning tokens from the provider usage fields', async () => {
    const fake = await start([{ text: 'hi', usage: { inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 90, reasoningTokens: 40, cacheWriteTokens: 0 } }])
    close = fake.close
    const reply = await collectStream(client(fake.url).stream(request()))
    expect(reply.error).toBeUndefined()
    expect(reply.done?.usage).toMatchObject({ inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 90, ...(reasoning ? { reasoningTokens: 40 } : {}) })
  })

  it('a prompt over the context window is refused with the provider error shape and classified as context_length', async () => {
    const fake = await start([{ text: 'never sent' }], { contextWindow: 50 })
    close = fake.close
    const failure = (await collectStream(client(fake.url).stream(request('x'.repeat(400))))).error
    expect(failure).toBeInstanceOf(ModelError)
    expect(failure?.kind).toBe('context_length')
    expect(failure?.status).toBe(400)
    expect(failure?.message).toMatch(/maximum context length is 50 tokens|prompt is too long: \d+ tokens > 50 maximum/)
    // A short prompt still goes through on the same server: the refusal used no scripted turn.
    const ok = await collectStream(client(fake.url).stream(request('hi')))
    expect(ok.text).toBe('never sent')
  })
})
