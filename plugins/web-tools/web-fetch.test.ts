// WebFetch through the real tool pipeline against loopback HTTP(S) servers made here. Loopback is
// a private address, so most tests allow it (allowPrivateAddresses) and turn the https upgrade off;
// the refusal tests keep the defaults.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Kernel, definePlugin, type SessionModelService, type ToolResult } from '@seam/sdk'
import { ScriptedModel, toolsPlugin } from '@seam/sdk/testing'
import webTools from './index'

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void
const servers: Array<http.Server | https.Server> = []
let requests: string[] = []

async function serve(handler: Handler, tls?: { key: string; cert: string }): Promise<string> {
  const wrapped: Handler = (req, res) => {
    requests.push(req.url ?? '')
    handler(req, res)
  }
  const server = tls ? https.createServer(tls, wrapped) : http.createServer(wrapped)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterEach(async () => {
  requests = []
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))))
})

const LOOPBACK = { allowPrivateAddresses: true, upgradeToHttps: false }

function setup(config: Record<string, unknown> = LOOPBACK, models?: SessionModelService) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  if (models) kernel.plugin(definePlugin({ name: 'test-models', apply: (ctx) => void ctx.provide('sessionModels', models) }))
  kernel.plugin(webTools, config)
  const tools = kernel.getService('tools')!
  let n = 0
  const fetch = async (url: string, prompt = 'What does the page say?'): Promise<ToolResult> =>
    (await tools.execute({ name: 'WebFetch', args: { url, prompt }, callId: `c${++n}`, sessionId: 's1', cwd: '/' })).result
  return { kernel, fetch }
}

const ARTICLE = '<html><head><title>T</title><style>p{}</style><script>alert(1)</script></head><body><h1>Release notes</h1><p>Version <strong>4.2</strong> adds <a href="https://example.com/x">links</a>.</p><ul><li>one</li><li>two</li></ul></body></html>'

describe('WebFetch: pages', () => {
  it("converts HTML to Markdown and, without a small model, returns it cut to the limit and says so, with Claude Code's structured fields", async () => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE))
    const { fetch } = setup()
    const result = await fetch(`${base}/notes`)
    expect(result.isError).toBe(false)
    expect(result.content).toMatch(/^\[WebFetch could not run the prompt: no model provider is available\. Here is the page as Markdown, all of it\.\]/)
    expect(result.content).toContain('# Release notes\n\nVersion **4.2** adds [links](https://example.com/x).')
    expect(result.content).toMatch(/-\s+one\n-\s+two/)
    expect(result.content).not.toMatch(/^T$/m)
    expect(result.content).not.toContain('alert(1)')
    expect(result.structured).toMatchObject({ bytes: ARTICLE.length, code: 200, codeText: 'OK', url: `${base}/notes`, result: result.content })
    expect(typeof (result.structured as { durationMs: number }).durationMs).toBe('number')

    const short = setup({ ...LOOPBACK, maxRawResultChars: 10 })
    expect((await short.fetch(`${base}/notes`)).content).toMatch(/its first 10 of \d+ characters\.\]\n\n# Release /)
  })

  it('converts a large page in the worker only as far as it is used, and says the page has more', async () => {
    const section = (i: number) => `<h2>Part ${i}</h2><p>${'Words of the page. '.repeat(40)}</p>`
    const page = `<html><body><h1>Long</h1>${Array.from({ length: 3000 }, (_, i) => section(i)).join('')}</body></html>`
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page))
    const { fetch } = setup({ ...LOOPBACK, maxRawResultChars: 5000, maxMarkdownChars: 20_000 })
    const result = await fetch(`${base}/long`)
    expect(result.isError).toBe(false)
    expect(result.content).toMatch(/^\[WebFetch could not run the prompt: no model provider is available\. Here is the page as Markdown, its first 5000 characters \(the page has more\)\.\]\n\n# Long\n\n## Part 0/)
    expect(result.content).not.toContain('Part 2999')
  })

  it('runs the prompt over the Markdown with the small model of the session\'s provider, and reuses the answer for 15 minutes', async () => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE))
    const model = new ScriptedModel([{ text: 'It is version 4.2.' }], { model: 'claude-haiku-4-5' })
    const asked: string[] = []
    const models: SessionModelService = {
      inUse: () => ({ provider: 'anthropic', model: 'claude-main' }),
      current: async () => ({ provider: 'anthropic', model: 'claude-main' }),
      clientFor: async (_session, name) => (asked.push(name), model),
      webSearch: async () => undefined
    }
    const { fetch } = setup(LOOPBACK, models)
    const first = await fetch(`${base}/notes`, 'Which version?')
    expect(first).toMatchObject({ isError: false, content: 'It is version 4.2.' })
    expect(asked).toEqual(['claude-haiku-4-5'])
    const sent = model.requests[0]!.messages[0]!
    expect(sent.role === 'user' && sent.content).toContain('# Release notes')
    expect(sent.role === 'user' && sent.content).toContain('Which version?')
    // Same URL and prompt: the cached answer, no new request to the page or the model.
    expect((await fetch(`${base}/notes`, 'Which version?')).content).toBe('It is version 4.2.')
    expect(requests).toHaveLength(1)
    expect(model.requests).toHaveLength(1)
  })

  it('a provider without a small model set gets the Markdown, and the note names the setting', async () => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Plain\n\ntext'))
    const models: SessionModelService = {
      inUse: () => ({ provider: 'ollama', model: 'llama3.1' }),
      current: async () => ({ provider: 'ollama', model: 'llama3.1' }),
      clientFor: async () => Promise.reject(new Error('not asked')),
      webSearch: async () => undefined
    }
    const result = await setup(LOOPBACK, models).fetch(`${base}/readme.md`)
    expect(result.content).toBe('[WebFetch could not run the prompt: no small model is set for the ollama provider (the web-tools setting summaryModels). Here is the page as Markdown, all of it.]\n\n# Plain\n\ntext')
  })

  it('caches pages for the TTL (one request for two fetches); a TTL of 0 fetches each time', async () => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'))
    const cached = setup()
    await cached.fetch(`${base}/a`)
    await cached.fetch(`${base}/a`)
    expect(requests).toEqual(['/a'])
    const uncached = setup({ ...LOOPBACK, cacheTtlMs: 0 })
    await uncached.fetch(`${base}/a`)
    await uncached.fetch(`${base}/a`)
    expect(requests).toEqual(['/a', '/a', '/a'])
  })

  it('reads gzip bodies, JSON as text, and sends a Claude-User agent preferring Markdown', async () => {
    let headers: http.IncomingHttpHeaders = {}
    const base = await serve((req, res) => {
      headers = req.headers
      if (req.url === '/gz') return res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync('<p>zipped <em>page</em></p>'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}')
    })
    const { fetch } = setup()
    expect((await fetch(`${base}/gz`)).content).toMatch(/zipped \*page\*$/)
    expect((await fetch(`${base}/json`)).content).toMatch(/\{"a":1\}$/)
    expect(headers['user-agent']).toMatch(/^Claude-User/)
    expect(headers.accept).toMatch(/^text\/markdown/)
  })
})

describe('WebFetch: redirects', () => {
  it('follows a redirect within the host; one to another host answers with both URLs and is not followed', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/old') return res.writeHead(301, { location: '/new' }).end()
      if (req.url === '/away') return res.writeHead(302, { location: base.replace('127.0.0.1', 'localhost') + '/there' }).end()
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${req.url}`)
    })
    const { fetch } = setup()
    const moved = await fetch(`${base}/old`)
    expect(moved.content).toMatch(/at \/new$/)
    const away = await fetch(`${base}/away`, 'Summarise it')
    const there = `${base.replace('127.0.0.1', 'localhost')}/there`
    expect(away.isError).toBe(false)
    expect(away.content).toBe(
      [
        'REDIRECT DETECTED: The URL redirects to a different host.',
        '',
        `Original URL: ${base}/away`,
        `Redirect URL: ${there}`,
        'Status: 302 Found',
        '',
        'To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:',
        `- url: "${there}"`,
        '- prompt: "Summarise it"'
      ].join('\n')
    )
    expect(away.structured).toMatchObject({ code: 302, codeText: 'Found', url: `${base}/away` })
    expect(requests).toEqual(['/old', '/new', '/away'])
  })

  it('gives up after maxRedirects same-host hops', async () => {
    const base = await serve((req, res) => res.writeHead(302, { location: `/r${Number(req.url!.slice(2) || 0) + 1}` }).end())
    const result = await setup({ ...LOOPBACK, maxRedirects: 3 }).fetch(`${base}/r0`)
    expect(result).toMatchObject({ isError: true, content: `${base}/r0 redirected more than 3 times (last to ${base}/r4)` })
  })
})

describe('WebFetch: the user\'s machine and networks are refused unless the setting allows them', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:9/', '127.0.0.1 is a private'],
    ['IPv6 loopback', 'http://[::1]:9/', '::1 is a private'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a private'],
    ['an RFC 1918 address', 'http://192.168.1.1/', '192.168.1.1 is a private'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/', 'is a private'],
    ['a unique-local IPv6 address', 'http://[fd00:ec2::254]/', 'is a private']
  ])('%s (%s)', async (_name, url, message) => {
    const result = await setup({ upgradeToHttps: false }).fetch(url)
    expect(result.isError).toBe(true)
    expect(result.content).toContain(message)
    expect(result.content).toContain('allowPrivateAddresses')
  })

  it('a name that resolves to loopback is refused by its resolved address, before any connection', async () => {
    const base = await serve((_req, res) => res.end('secret'))
    const url = base.replace('127.0.0.1', 'localhost')
    const result = await setup({ upgradeToHttps: false }).fetch(url)
    expect(result.isError).toBe(true)
    expect(result.content).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a private/)
    expect(requests).toEqual([])
    // The same page with the setting on.
    expect((await setup(LOOPBACK).fetch(url)).content).toMatch(/secret$/)
  })

  it('a redirect within the host to a name that resolves privately is refused too', async () => {
    const result = await setup({ upgradeToHttps: false }).fetch('http://localhost:9/')
    expect(result.content).toContain('localhost resolves to')
  })
})

describe('WebFetch: bad input ends as a clear tool error, and nothing hangs', () => {
  let tls: { key: string; cert: string }
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'seam-webfetch-tls-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
    tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('an unparsable URL is refused by the schema, naming the field; another scheme by the tool', async () => {
    const { fetch } = setup()
    expect(await fetch('not a url')).toMatchObject({ isError: true, code: 'INVALID_ARGS', content: expect.stringMatching(/url: Invalid URL/) })
    expect(await fetch('ftp://example.com/x')).toMatchObject({ isError: true, content: 'WebFetch fetches http and https URLs, not ftp: (ftp://example.com/x)' })
  })

  it('a binary body (by its type, or sniffed when it has none) is refused', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]))
      res.writeHead(200).end(Buffer.from([1, 2, 0, 3]))
    })
    const { fetch } = setup()
    expect(await fetch(`${base}/png`)).toMatchObject({ isError: true, content: `${base}/png is image/png, not a page of text or HTML: WebFetch reads HTML and text only` })
    expect(await fetch(`${base}/blob`)).toMatchObject({ isError: true, content: `${base}/blob sent a binary body (no Content-Type): WebFetch reads HTML and text only` })
  })

  it('a TLS error (a self-signed certificate) names the URL and the TLS failure; http is upgraded to https first', async () => {
    const base = await serve((_req, res) => res.end('tls'), tls)
    const { fetch } = setup({ allowPrivateAddresses: true })
    const direct = await fetch(`${base}/x`)
    expect(direct.isError).toBe(true)
    expect(direct.content).toMatch(new RegExp(`^TLS error fetching ${base}/x: .*\\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\\)$`))
    // The same server asked for with http://: the upgrade spoke TLS to it.
    const upgraded = await fetch(`${base.replace('https:', 'http:')}/y`)
    expect(upgraded.content).toMatch(new RegExp(`^TLS error fetching ${base}/y`))
  })

  it('a server that does not answer times out', async () => {
    const base = await serve(() => {})
    const result = await setup({ ...LOOPBACK, timeoutMs: 300 }).fetch(`${base}/slow`)
    expect(result).toMatchObject({ isError: true, content: `${base}/slow did not answer within 0.3 s (the web-tools setting timeoutMs)` })
  })

  it('a 50 MB page is refused at the 10 MB cap, whether it declares its length or streams it', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a')
    const base = await serve((req, res) => {
      const headers: http.OutgoingHttpHeaders = { 'content-type': 'text/plain' }
      if (req.url === '/declared') headers['content-length'] = 50 * chunk.length
      res.writeHead(200, headers)
      let sent = 0
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++
        if (sent >= 50) res.end()
        else res.once('drain', () => (sent++, pump()))
      }
      res.on('error', () => {})
      pump()
    })
    const { fetch } = setup()
    expect(await fetch(`${base}/declared`)).toMatchObject({ isError: true, content: `${base}/declared is larger than WebFetch reads (50 MB): the limit is 10 MB (the web-tools setting maxBytes)` })
    expect(await fetch(`${base}/streamed`)).toMatchObject({ isError: true, content: `${base}/streamed is larger than WebFetch reads: the limit is 10 MB (the web-tools setting maxBytes)` })
  })

  it('an HTTP error status is a tool error naming it', async () => {
    const base = await serve((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'))
    expect(await setup().fetch(`${base}/missing`)).toMatchObject({ isError: true, content: `${base}/missing answered 404 Not Found` })
  })
})

describe('web-tools plugin', () => {
  it('S3: disposing it removes WebFetch and WebSearch', () => {
    const kernel = new Kernel()
    kernel.plugin(toolsPlugin)
    const runtime = kernel.plugin(webTools, { search: { mcpTool: 'mcp__s__search' } })
    const tools = kernel.getService('tools')!
    expect(tools.get('WebFetch')).toBeDefined()
    expect(tools.get('WebSearch')).toBeDefined()
    runtime.dispose()
    expect(tools.get('WebFetch')).toBeUndefined()
    expect(tools.get('WebSearch')).toBeUndefined()
  })
})
