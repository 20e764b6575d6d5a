// WebSearch and WebFetch end to end: the built `seam run` against a loopback server speaking the
// Anthropic Messages API, which also answers the search request with the server-side web_search
// tool's result blocks (test-support/fake-anthropic.mjs). The whole chain is real: the web-tools
// plugin, the sessionModels service, the Anthropic web search request, the permission policy.
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic, type AnthropicRequestBody, type AnthropicWireBlock } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, useCliScratch } from '../../test-support/built-cli'

let home: string
let workspace: string
useCliScratch('web-tools', (dirs) => ({ home, workspace } = dirs))

const isSearchRequest = (body: AnthropicRequestBody) => (body.tools ?? []).some((t) => (t as { type?: string }).type === 'web_search_20250305')
const toolResults = (body: AnthropicRequestBody): AnthropicWireBlock[] =>
  body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result')

describe('web tools through seam run (Anthropic provider)', { timeout: 90_000 }, () => {
  it("WebSearch goes through Anthropic's server-side web_search tool and the model gets the titles and URLs", async () => {
    const server = await startFakeAnthropic([
      { toolCalls: [{ name: 'WebSearch', args: { query: 'seam release notes', allowed_domains: ['example.com'] } }] },
      (body) =>
        isSearchRequest(body)
          ? { webSearches: [{ query: 'seam release notes', results: [{ title: 'Seam 1.0 released', url: 'https://example.com/seam-1' }] }], text: 'Seam 1.0 is out.' }
          : { text: 'unexpected' },
      { text: 'Found it.' }
    ])
    try {
      const flags = ['--workspace', workspace, '--trust-workspace', '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow']
      const outcome = await runSeamHeadless(['run', ...flags, 'search for it'], { cwd: workspace, home })
      expect(outcome.code, outcome.stderr).toBe(0)
      const bodies = server.requests.map((r) => r.body)
      expect(bodies[0]!.tools!.map((t) => t.name)).toEqual(expect.arrayContaining(['WebSearch', 'WebFetch', 'TodoWrite']))
      expect(bodies[1]!.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['example.com'] }])
      expect(bodies[1]!.model).toBe('claude-main')
      const [result] = toolResults(bodies[2]!)
      const text = typeof result!.content === 'string' ? result!.content : JSON.stringify(result!.content)
      expect(text).toContain('Web search results for query: "seam release notes"')
      expect(text).toContain('Links: [{"title":"Seam 1.0 released","url":"https://example.com/seam-1"}]')
      expect(text).toContain('Seam 1.0 is out.')
    } finally {
      await server.close()
    }
  })

  it('the first fetch from a domain asks (refused headless); a WebFetch(domain:…) allow rule lets it run, and the small model answers', async () => {
    const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Changelog</h1><p>Version 7 adds themes.</p>'))
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    // localhost resolves to loopback: the patch layer allows private addresses for this test.
    const url = `http://localhost:${(site.address() as { port: number }).port}/changelog`
    await mkdir(join(workspace, '.seam'), { recursive: true })
    await writeFile(join(workspace, '.seam', 'cordis.patch.yml'), '- id: web-tools\n  config: { allowPrivateAddresses: true, upgradeToHttps: false }\n')
    const script = () =>
      startFakeAnthropic([
        { toolCalls: [{ name: 'WebFetch', args: { url, prompt: 'What does version 7 add?' } }] },
        (body) => (toolResults(body).length > 0 ? { text: 'done' } : { text: 'Version 7 adds themes.' }),
        { text: 'done' }
      ])
    const flags = (server: { url: string }) => ['--workspace', workspace, '--trust-workspace', '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'ask']
    try {
      const asked = await script()
      const first = await runSeamHeadless(['run', ...flags(asked), 'read the changelog'], { cwd: workspace, home })
      expect(first.code, first.stderr).toBe(0)
      const [refused] = toolResults(asked.requests.at(-1)!.body)
      expect(refused!.is_error).toBe(true)
      await asked.close()

      await mkdir(join(workspace, '.claude'), { recursive: true })
      await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['WebFetch(domain:localhost)'] } }))
      const allowed = await script()
      const second = await runSeamHeadless(['run', ...flags(allowed), 'read the changelog'], { cwd: workspace, home })
      expect(second.code, second.stderr).toBe(0)
      const summary = allowed.requests.find((r) => r.body.model === 'claude-haiku-4-5')
      expect(summary, JSON.stringify(allowed.requests.map((r) => r.body.model))).toBeDefined()
      expect(JSON.stringify(summary!.body.messages)).toContain('# Changelog')
      const [result] = toolResults(allowed.requests.at(-1)!.body)
      expect(result!.is_error).not.toBe(true)
      expect(JSON.stringify(result!.content)).toContain('Version 7 adds themes.')
      await allowed.close()
    } finally {
      await new Promise((resolve) => site.close(resolve))
    }
  })
})
