import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { PROVIDER_PRESETS, ProviderConfigSchema, createModelClient, parseProviderConfig, testConnection } from './presets'

let closeFake: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeFake?.()
  closeFake = undefined
})

describe('ProviderConfigSchema', () => {
  it('fills base URL and model from the preset', () => {
    expect(parseProviderConfig({ provider: 'deepseek', apiKey: 'sk-1' })).toEqual({
      provider: 'deepseek',
      baseUrl: 'https://api.deepseek.com',
      model: 'deepseek-chat',
      apiKey: 'sk-1'
    })
    expect(parseProviderConfig({ provider: 'ollama' })).toEqual({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' })
    expect(parseProviderConfig({ provider: 'openai' }).baseUrl).toBe(PROVIDER_PRESETS.openai.baseUrl)
  })

  it('keeps what the user set and trims a trailing slash from the URL', () => {
    const cfg = parseProviderConfig({ provider: 'openai-compatible', baseUrl: 'http://10.0.0.5:8000/v1/', model: 'qwen', maxRetries: 0 })
    expect(cfg).toEqual({ provider: 'openai-compatible', baseUrl: 'http://10.0.0.5:8000/v1', model: 'qwen', maxRetries: 0 })
  })

  it.each([
    [{ provider: 'gemini' }, 'provider'],
    [{ provider: 'openai-compatible', model: 'x' }, 'baseUrl'],
    [{ provider: 'openai-compatible', baseUrl: 'http://h/v1' }, 'model'],
    [{ provider: 'openai', baseUrl: 'ftp://example.com' }, 'baseUrl'],
    [{ provider: 'openai', baseUrl: 'not a url' }, 'baseUrl'],
    [{ provider: 'openai', model: '' }, 'model'],
    [{ provider: 'openai', apiKey: 42 }, 'apiKey'],
    [{ provider: 'openai', maxRetries: -1 }, 'maxRetries'],
    [{ provider: 'openai', maxRetries: 1.5 }, 'maxRetries'],
    [{ provider: 'openai', baseURL: 'https://typo' }, 'baseURL']
  ])('rejects %j naming the field %s', (input, field) => {
    const result = ProviderConfigSchema.safeParse(input)
    expect(result.success).toBe(false)
    const named = result.error?.issues.flatMap((issue) => [issue.path.join('.'), ...('keys' in issue ? issue.keys : [])])
    expect(named).toContain(field)
    expect(() => parseProviderConfig(input, 'settings.json')).toThrow(new RegExp(`settings\\.json.*${field}`))
  })
})

describe('createModelClient', () => {
  it('uses the Anthropic adapter for anthropic and the OpenAI-compatible one otherwise', async () => {
    const anthropic = await startFakeAnthropic([{ text: 'from anthropic' }])
    const openai = await startFakeOpenAI([{ text: 'from openai' }])
    closeFake = async () => {
      await anthropic.close()
      await openai.close()
    }
    const request = { system: '', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }
    const a = createModelClient({ provider: 'anthropic', baseUrl: anthropic.url, model: 'claude-test-model', apiKey: 'k' })
    const o = createModelClient({ provider: 'ollama', baseUrl: openai.url, model: 'llama3.1' })
    expect([a.provider, a.model, o.provider, o.model]).toEqual(['anthropic', 'claude-test-model', 'ollama', 'llama3.1'])
    for await (const _ of a.stream(request));
    for await (const _ of o.stream(request));
    expect(anthropic.requests).toHaveLength(1)
    expect(openai.requests).toHaveLength(1)
  })
})

describe('testConnection', () => {
  it('sends one tiny "ping" request and reports ok with the model', async () => {
    const fake = await startFakeOpenAI([{ text: 'p', finishReason: 'length' }])
    closeFake = fake.close
    const result = await testConnection({ provider: 'openai', baseUrl: fake.url, model: 'gpt-4.1', apiKey: 'k' })
    expect(result).toEqual({ ok: true, model: 'gpt-4.1' })
    expect(fake.requests[0].body).toMatchObject({ max_completion_tokens: 1, messages: [{ role: 'user', content: 'ping' }] })
  })

  it('reports the provider error text exactly, without retrying', async () => {
    const fake = await startFakeAnthropic([
      { error: { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } } }
    ])
    closeFake = fake.close
    const result = await testConnection({ provider: 'anthropic', baseUrl: fake.url, model: 'claude-test-model', apiKey: 'bad' })
    expect(result).toEqual({ ok: false, kind: 'auth', message: 'invalid x-api-key' })
    expect(fake.requests[0].body).toMatchObject({ max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }] })
  })

  it('does not retry a server error', async () => {
    const fake = await startFakeOpenAI([{ error: { status: 500, body: { error: { message: 'model is loading' } } } }, { text: 'late' }])
    closeFake = fake.close
    const result = await testConnection({ provider: 'ollama', baseUrl: fake.url, model: 'llama3.1', maxRetries: 5 })
    expect(result).toEqual({ ok: false, kind: 'server', message: 'model is loading' })
    expect(fake.requests).toHaveLength(1)
  })
})
