// Anthropic's server-side web search against a loopback server speaking the Messages API with the
// web_search tool's result blocks (test-support/fake-anthropic.mjs).
import { afterEach, describe, expect, it } from 'vitest'
import { errorBody, startFakeAnthropic, type AnthropicRequestBody, type FakeProviderServer } from '../../test-support/fake-anthropic.mjs'
import { ModelError } from '../../src-shared/model'
import { anthropicWebSearch, parseSearchResponse } from './anthropic-web-search'

let server: FakeProviderServer<AnthropicRequestBody> | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('anthropicWebSearch', () => {
  it('sends the web_search_20250305 tool with max_uses and the domain list, and answers the hits and text in order', async () => {
    server = await startFakeAnthropic([
      {
        webSearches: [
          { query: 'vitest 4 release', results: [{ title: 'Vitest 4.0 is out', url: 'https://vitest.dev/blog/vitest-4' }, { title: 'Changelog', url: 'https://github.com/vitest-dev/vitest/releases' }] },
          { query: 'vitest 4 browser mode', errorCode: 'max_uses_exceeded' }
        ],
        text: 'Vitest 4 was released with a stable browser mode.'
      }
    ])
    const search = anthropicWebSearch({ provider: 'anthropic', baseUrl: server.url, model: 'claude-search', apiKey: 'sk-test' })
    const response = await search.search({ query: 'vitest 4 release', allowedDomains: ['vitest.dev', 'github.com'], maxUses: 8 })
    expect(response).toEqual([
      { toolUseId: 'srvtoolu_0_0', hits: [{ title: 'Vitest 4.0 is out', url: 'https://vitest.dev/blog/vitest-4' }, { title: 'Changelog', url: 'https://github.com/vitest-dev/vitest/releases' }] },
      { toolUseId: 'srvtoolu_0_1', hits: [], error: 'max_uses_exceeded' },
      'Vitest 4 was released with a stable browser mode.'
    ])
    const body = server.requests[0]!.body
    expect(body.model).toBe('claude-search')
    expect(body.stream).toBeUndefined()
    expect(body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['vitest.dev', 'github.com'] }])
    expect(JSON.stringify(body.messages)).toContain('vitest 4 release')
  })

  it('a provider error is a ModelError with the provider\'s words; a reply that is not a message is a bad_response', async () => {
    server = await startFakeAnthropic([{ error: { status: 429, body: errorBody(429, 'slow down') } }])
    const search = anthropicWebSearch({ provider: 'anthropic', baseUrl: server.url, model: 'm', apiKey: 'k' })
    const failure = await search.search({ query: 'x y', maxUses: 1 }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ModelError)
    expect(failure).toMatchObject({ kind: 'rate_limit', message: expect.stringContaining('slow down') })
    expect(() => parseSearchResponse({ nope: true })).toThrow(/not a Messages API message/)
  })
})
