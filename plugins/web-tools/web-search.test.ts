// WebSearch's configured backends: the Brave Search API against a loopback HTTP server speaking
// that API's request and response shapes (the base URL is the test-only setting), and an MCP
// search server (a real process over stdio, the official SDK's server) reached from a real host
// whose model, on an OpenAI-wire provider, calls WebSearch.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { Kernel, type ToolResult } from '@seam/sdk'
import { toolsPlugin } from '@seam/sdk/testing'
import { startMcpHost, toolResults, type McpHost } from '../mcp/test-host'
import { BRAVE_SEARCH_PATH } from './brave-search'
import webTools, { HOW_TO_ADD } from './index'

const KEY_ENV = 'SEAM_TEST_BRAVE_KEY'
const servers: http.Server[] = []
let seen: Array<{ url: URL; headers: http.IncomingHttpHeaders }> = []

afterEach(async () => {
  delete process.env[KEY_ENV]
  seen = []
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))))
})

/** A loopback server answering as the Brave Search API does (`web.results[]` with title, url, description). */
async function braveApi(answer: (url: URL) => { status: number; body: unknown }): Promise<string> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    seen.push({ url, headers: req.headers })
    const { status, body } = answer(url)
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const braveAnswer = (query: string) => ({
  type: 'search',
  query: { original: query, more_results_available: false },
  web: {
    type: 'search',
    results: [
      { type: 'search_result', title: `<strong>Seam</strong> release notes`, url: 'https://docs.example.com/releases', description: 'What changed in <strong>Seam</strong>', is_source_local: false },
      { type: 'search_result', title: 'Seam on a forum', url: 'https://forum.example.net/t/1', description: 'A thread', is_source_local: false }
    ]
  }
})

function setup(config: Record<string, unknown>) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.plugin(webTools, config)
  const tools = kernel.getService('tools')!
  let n = 0
  const search = async (args: Record<string, unknown>): Promise<ToolResult> =>
    (await tools.execute({ name: 'WebSearch', args, callId: `c${++n}`, sessionId: 's1', cwd: '/' })).result
  return { kernel, tools, search }
}

describe('WebSearch through the Brave Search API', () => {
  it('sends the query with the key in X-Subscription-Token and returns titles and URLs in Claude Code\'s shape; the domain lists filter them', async () => {
    const base = await braveApi((url) => ({ status: 200, body: braveAnswer(url.searchParams.get('q')!) }))
    process.env[KEY_ENV] = 'brave-key-1'
    const { tools, search } = setup({ search: { brave: { apiKeyEnv: KEY_ENV, baseUrl: base, count: 5 } } })
    expect(tools.specs().map((s) => s.name)).toContain('WebSearch')

    const result = await search({ query: 'seam release notes' })
    expect(result.isError).toBe(false)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.url.pathname).toBe(BRAVE_SEARCH_PATH)
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({ q: 'seam release notes', count: '5' })
    expect(seen[0]!.headers['x-subscription-token']).toBe('brave-key-1')
    expect(seen[0]!.headers.accept).toBe('application/json')
    const structured = result.structured as { query: string; results: Array<{ tool_use_id: string; content: Array<{ title: string; url: string }> }>; durationSeconds: number }
    expect(structured.query).toBe('seam release notes')
    expect(structured.results[0]!.content).toEqual([
      { title: 'Seam release notes', url: 'https://docs.example.com/releases' },
      { title: 'Seam on a forum', url: 'https://forum.example.net/t/1' }
    ])
    expect(result.content).toBe(
      'Web search results for query: "seam release notes"\n\nLinks: [{"title":"Seam release notes","url":"https://docs.example.com/releases"},{"title":"Seam on a forum","url":"https://forum.example.net/t/1"}]\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.'
    )

    const blocked = await search({ query: 'seam', blocked_domains: ['example.net'] })
    expect((blocked.structured as typeof structured).results[0]!.content.map((l) => l.url)).toEqual(['https://docs.example.com/releases'])
    const allowed = await search({ query: 'seam', allowed_domains: ['forum.example.net'] })
    expect((allowed.structured as typeof structured).results[0]!.content.map((l) => l.url)).toEqual(['https://forum.example.net/t/1'])
  })

  it('without the key WebSearch is not offered (no other backend) and a call is refused; a rejected key is a clear tool error', async () => {
    const base = await braveApi(() => ({ status: 401, body: { type: 'ErrorResponse', error: { id: 'x', status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } } }))
    const { tools, search } = setup({ search: { brave: { apiKeyEnv: KEY_ENV, baseUrl: base } } })
    expect(tools.specs().map((s) => s.name)).not.toContain('WebSearch')
    const refused = await search({ query: 'seam' })
    expect(refused).toMatchObject({ isError: true, content: 'No such tool available: WebSearch' })
    expect(HOW_TO_ADD).toContain('BRAVE_SEARCH_API_KEY')

    process.env[KEY_ENV] = 'wrong'
    const rejected = await search({ query: 'seam' })
    expect(rejected).toMatchObject({ isError: true, content: `Web search through the Brave Search API failed: the Brave Search API answered 401: The provided subscription token is invalid. (check the key in ${KEY_ENV})` })
  })

  it('an answer of another shape is a clear tool error naming the field', async () => {
    const base = await braveApi(() => ({ status: 200, body: { type: 'search', web: { results: [{ title: 3 }] } } }))
    process.env[KEY_ENV] = 'k'
    const { search } = setup({ search: { backend: 'brave', brave: { apiKeyEnv: KEY_ENV, baseUrl: base } } })
    const result = await search({ query: 'seam' })
    expect(result.isError).toBe(true)
    expect(result.content).toMatch(/^Web search through the Brave Search API failed: the Brave Search API's answer is not a web search result \(web\.results\.0\.title: /)
  })
})

describe('WebSearch through an MCP search server', { timeout: 60_000 }, () => {
  let host: McpHost | undefined
  const dir = mkdtempSync(join(tmpdir(), 'seam-search-mcp-'))
  afterAll(async () => {
    await host?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("the model's WebSearch call (OpenAI-wire provider) goes through the configured MCP tool, a real server over stdio, and gets its titles and URLs", async () => {
    const searchLog = join(dir, 'queries.log')
    host = await startMcpHost({
      mcpJson: { search: { command: process.execPath, args: [join(import.meta.dirname, 'test-servers', 'search-server.mjs')], env: { SEARCH_LOG: searchLog } } },
      approvalMode: 'never-ask',
      patch: '- id: web-tools\n  config: { search: { mcpTool: mcp__search__web_search } }\n',
      script: [{ toolCalls: [{ id: 'w1', name: 'WebSearch', args: { query: 'seam 1.0', blocked_domains: ['forum.example.net'] } }] }, { text: 'found it' }]
    })
    const { events } = await host.run('search the web')
    // Offered to this session although its provider has no search of its own: a backend is configured.
    expect(host.model.requests[0]!.body.tools!.map((t) => t.function.name)).toContain('WebSearch')
    expect(readFileSync(searchLog, 'utf8')).toBe('seam 1.0\n')
    const result = toolResults(events).find((r) => r.callId === 'w1')!
    expect(result.isError).toBe(false)
    expect(result.structured).toMatchObject({ query: 'seam 1.0', results: [{ content: [{ title: 'Release notes for seam 1.0', url: 'https://docs.example.com/releases' }] }] })
    expect(result.content).toContain('Links: [{"title":"Release notes for seam 1.0","url":"https://docs.example.com/releases"}]')
    // The model read the links.
    expect(JSON.stringify(host.model.requests[1]!.body.messages)).toContain('https://docs.example.com/releases')
  })
})

describe('WebSearch is offered per session, by the provider each session uses', { timeout: 60_000 }, () => {
  let host: McpHost | undefined
  afterAll(async () => host?.close())

  it('in one host on an OpenAI-wire provider with no backend configured, a session switched to Anthropic is offered WebSearch and the other is not', async () => {
    host = await startMcpHost({ script: [{ text: 'no search here' }] })
    const openai = await host.runtime.sessions.create(host.workspace)
    const anthropic = await host.runtime.sessions.create(host.workspace)
    await host.runtime.sessions.switchModel(anthropic.log.id, { provider: 'anthropic', model: 'claude-sonnet-4-5' })
    // As before its first turn's request (agent/session-start has run).
    await anthropic.agent.start()

    openai.agent.send('search the web')
    await openai.agent.whenIdle()
    // The OpenAI-wire session's real request carries no WebSearch.
    const offered = host.model.requests[0]!.body.tools!.map((t) => t.function.name)
    expect(offered).toContain('WebFetch')
    expect(offered).not.toContain('WebSearch')

    // What each session's next request offers (the Anthropic session's would go to Anthropic's API, not reachable here).
    const tools = anthropic.kernel.getService('tools')!
    expect(tools.specs(anthropic.log.id).map((s) => s.name)).toContain('WebSearch')
    expect(tools.specs(openai.log.id).map((s) => s.name)).not.toContain('WebSearch')
    // A call from the OpenAI-wire session is refused as unavailable; the Anthropic session's call passes the offer check.
    const refused = await tools.execute({ name: 'WebSearch', args: { query: 'seam' }, callId: 'x1', sessionId: openai.log.id, cwd: host.workspace })
    expect(refused.result).toMatchObject({ isError: true, content: 'No such tool available: WebSearch' })
  })
})
