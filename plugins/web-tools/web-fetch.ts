// The `WebFetch` tool (claude-code-extensions.md 1(f)): `{url, prompt}` -> the answer of a small
// model of the session's provider to `prompt` over the page's Markdown, or the Markdown itself
// (cut, and said so) where no small model is available. Structured result: Claude Code's
// `{bytes, code, codeText, result, durationMs, url}`.
import { z } from 'zod'
import { defineTool, type ModelClient, type SessionModelService, type ToolDefinition } from '@seam/sdk'
import { SEAM_VERSION } from '@seam/sdk/node'
import { ExpiringCache } from './cache'
import type { WebToolsConfig } from './config'
import { WebFetchError, fetchPage, type FetchOutcome } from './fetch-page'
import type { MarkdownConverter } from './markdown-converter'
import { pageText, type PageText } from './page-text'

export const WEB_FETCH = 'WebFetch'

export const WebFetchInputSchema = z.strictObject({
  url: z.url({ message: 'Invalid URL' }).describe('The URL to fetch (http is upgraded to https)'),
  prompt: z.string().min(1).describe('What to find out from the page')
})
export type WebFetchInput = z.infer<typeof WebFetchInputSchema>

/** Claude Code's WebFetch tool_response. */
export interface WebFetchStructured {
  bytes: number
  code: number
  codeText: string
  result: string
  durationMs: number
  url: string
}

const DESCRIPTION = [
  'Fetches a web page and answers a question about it.',
  'The page is converted to Markdown and `prompt` is run over it by a small, fast model; you get that answer, not the raw page, so ask for what you need (facts, code, quotes).',
  'http:// URLs are upgraded to https://. A redirect to another host is not followed: the result names the new URL, and you fetch it with a new call.',
  'Pages on the user\'s machine or private networks are refused. Answers are cached for 15 minutes.'
].join('\n')

/** Claude Code's User-Agent starts with `Claude-User`; sites that let Claude Code's fetches through let Seam's. */
const USER_AGENT = `Claude-User (compatible; Seam/${SEAM_VERSION})`

interface CachedPage {
  page: PageText
  bytes: number
  code: number
  codeText: string
  url: string
}

export interface WebFetchDeps {
  config: WebToolsConfig
  models: () => SessionModelService | undefined
  /** HTML to Markdown off the host's event loop (the plugin's one worker). */
  converter: MarkdownConverter
}

export function createWebFetchTool({ config, models, converter }: WebFetchDeps): ToolDefinition<WebFetchInput> {
  const pages = new ExpiringCache<CachedPage>(config.cacheTtlMs, config.cacheMaxPages)
  const answers = new ExpiringCache<string>(config.cacheTtlMs, config.cacheMaxPages * 4)
  return defineTool({
    name: WEB_FETCH,
    description: DESCRIPTION,
    inputSchema: WebFetchInputSchema,
    concurrent: true,
    // Reaches the network: the approval mode "ask before side effects" asks for each new domain
    // (its "allow for this session" grants `WebFetch(domain:<host>)`).
    sideEffects: true,
    // The fetch's own deadline, plus the small model's answer.
    timeoutMs: config.timeoutMs + 120_000,
    async execute(args, exec) {
      try {
        return await run(args, exec)
      } catch (error) {
        // Expected failures (bad URL, refused address, TLS, timeout, size, binary) read as themselves.
        if (error instanceof WebFetchError) return { content: error.message, isError: true }
        throw error
      }
    }
  })

  async function run({ url, prompt }: WebFetchInput, exec: { sessionId: string; signal: AbortSignal }): Promise<{ content: string; structured: WebFetchStructured }> {
    const started = Date.now()
    const target = targetUrl(url, config.upgradeToHttps)
    let cached = pages.get(target.href)
    if (!cached) {
      const outcome: FetchOutcome = await fetchPage(target, {
        allowPrivateAddresses: config.allowPrivateAddresses,
        maxBytes: config.maxBytes,
        maxRedirects: config.maxRedirects,
        timeoutMs: config.timeoutMs,
        userAgent: USER_AGENT,
        signal: exec.signal
      })
      if (outcome.kind === 'redirect') {
        const result = redirectText(outcome, prompt)
        const structured: WebFetchStructured = { bytes: Buffer.byteLength(result), code: outcome.status, codeText: outcome.statusText, result, durationMs: Date.now() - started, url: target.href }
        return { content: result, structured }
      }
      const { page } = outcome
      if (page.status < 200 || page.status >= 300) throw new WebFetchError(`${page.url} answered ${page.status} ${page.statusText}`.trim())
      const maxChars = Math.max(config.maxMarkdownChars, config.maxRawResultChars)
      cached = { page: await pageText(page, { converter, maxChars, signal: exec.signal }), bytes: page.body.length, code: page.status, codeText: page.statusText, url: page.url }
      pages.set(target.href, cached)
    }
    const result = await answer(cached, prompt, exec.sessionId, exec.signal)
    const structured: WebFetchStructured = { bytes: cached.bytes, code: cached.code, codeText: cached.codeText, result, durationMs: Date.now() - started, url: target.href }
    return { content: result, structured }
  }

  async function answer(cached: CachedPage, prompt: string, sessionId: string, signal: AbortSignal): Promise<string> {
    const markdown = cut(cached.page.markdown, config.maxMarkdownChars, cached.page.complete)
    const service = models()
    const current = await service?.current(sessionId)
    const model = current ? config.summaryModels[current.provider] : undefined
    if (!service || !current || !model) {
      const why = current ? `no small model is set for the ${current.provider} provider (the web-tools setting summaryModels)` : 'no model provider is available'
      return rawResult(cached, why)
    }
    const key = JSON.stringify([cached.url, prompt, current.provider, model])
    const known = answers.get(key)
    if (known !== undefined) return known
    let text: string
    try {
      text = await ask(await service.clientFor(sessionId, model), markdown.text, prompt, signal)
    } catch (error) {
      if (signal.aborted) throw error
      return rawResult(cached, `the small model ${model} could not answer (${(error as Error)?.message ?? String(error)})`)
    }
    const result = markdown.cut ? `${text}\n\n[The page was cut to its first ${config.maxMarkdownChars} characters before the question was asked.]` : text
    answers.set(key, result)
    return result
  }

  function rawResult(cached: CachedPage, why: string): string {
    const markdown = cut(cached.page.markdown, config.maxRawResultChars, cached.page.complete)
    const size = !markdown.cut ? 'all of it' : cached.page.complete ? `its first ${config.maxRawResultChars} of ${cached.page.markdown.length} characters` : `its first ${config.maxRawResultChars} characters (the page has more)`
    return `[WebFetch could not run the prompt: ${why}. Here is the page as Markdown, ${size}.]\n\n${markdown.text}`
  }
}

/** Parses and checks the URL; `http:` becomes `https:` when the setting says so. */
export function targetUrl(url: string, upgrade: boolean): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new WebFetchError(`Invalid URL: ${url}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new WebFetchError(`WebFetch fetches http and https URLs, not ${parsed.protocol} (${url})`)
  if (parsed.username || parsed.password) throw new WebFetchError(`WebFetch does not send credentials in URLs (${parsed.host})`)
  if (upgrade && parsed.protocol === 'http:') {
    parsed.protocol = 'https:'
    // An explicit :80 meant plain HTTP's port; the upgraded URL uses HTTPS's.
    if (parsed.port === '80') parsed.port = ''
  }
  return parsed
}

/** The text Claude Code answers a redirect to another host with: both URLs, and how to go on. */
export function redirectText(outcome: Extract<FetchOutcome, { kind: 'redirect' }>, prompt: string): string {
  return [
    'REDIRECT DETECTED: The URL redirects to a different host.',
    '',
    `Original URL: ${outcome.from}`,
    `Redirect URL: ${outcome.to}`,
    `Status: ${outcome.status} ${outcome.statusText}`.trimEnd(),
    '',
    'To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:',
    `- url: "${outcome.to}"`,
    `- prompt: "${prompt}"`
  ].join('\n')
}

/** The text's first `max` characters; `cut` also when the text itself is only the page's first part. */
function cut(text: string, max: number, complete: boolean): { text: string; cut: boolean } {
  return text.length <= max ? { text, cut: !complete } : { text: text.slice(0, max), cut: true }
}

const SUMMARY_SYSTEM = 'You answer questions about a web page from its content alone. Be concise and exact; quote sparingly and briefly; say so when the page does not answer the question.'

async function ask(client: ModelClient, markdown: string, prompt: string, signal: AbortSignal): Promise<string> {
  const content = `Web page content:\n---\n${markdown}\n---\n\n${prompt}`
  let text = ''
  for await (const event of client.stream({ system: SUMMARY_SYSTEM, messages: [{ role: 'user', content }], tools: [], maxTokens: 4096, signal })) {
    if (event.type === 'text-delta') text += event.text
  }
  if (text.trim() === '') throw new Error('it answered nothing')
  return text.trim()
}
