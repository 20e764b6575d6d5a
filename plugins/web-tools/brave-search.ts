// WebSearch through the Brave Search API (a documented HTTP search API the user configures with
// a key): `GET <baseUrl>/res/v1/web/search?q=…&count=…` with the key in `X-Subscription-Token`;
// the answer's `web.results[]` carry `title` and `url`. The response is checked with zod, and
// every failure (no key, an HTTP error, a timeout, an answer of another shape) is one sentence.
import { z } from 'zod'
import type { WebToolsConfig } from './config'
import type { SearchLink } from './search-links'

export const BRAVE_SEARCH_PATH = '/res/v1/web/search'

const BraveWebResult = z.object({ title: z.string(), url: z.string() }).loose()
const BraveSearchResponse = z
  .object({
    type: z.literal('search'),
    web: z.object({ results: z.array(BraveWebResult) }).loose().optional()
  })
  .loose()
const BraveErrorResponse = z.object({ error: z.object({ detail: z.string().optional(), code: z.string().optional() }).loose() }).loose()

export type BraveConfig = WebToolsConfig['search']['brave']

/** The key from the environment variable the setting names (Seam's settings env first, then the host's). */
export function braveKey(config: BraveConfig, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const key = env[config.apiKeyEnv]?.trim()
  return key ? key : undefined
}

export class BraveSearchError extends Error {}

export async function braveSearch(query: string, key: string, config: BraveConfig, signal: AbortSignal): Promise<SearchLink[]> {
  const url = new URL(BRAVE_SEARCH_PATH, config.baseUrl)
  url.searchParams.set('q', query)
  url.searchParams.set('count', String(config.count))
  let response: Response
  try {
    response = await fetch(url, {
      headers: { Accept: 'application/json', 'Accept-Encoding': 'gzip', 'X-Subscription-Token': key },
      signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)])
    })
  } catch (error) {
    if (signal.aborted) throw error
    const why = (error as Error)?.name === 'TimeoutError' ? `no answer within ${config.timeoutMs} ms (the web-tools setting search.brave.timeoutMs)` : String((error as Error)?.cause ?? error)
    throw new BraveSearchError(`the Brave Search API could not be reached: ${why}`)
  }
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (!response.ok) {
    const detail = BraveErrorResponse.safeParse(body)
    const why = detail.success ? (detail.data.error.detail ?? detail.data.error.code ?? '') : text.slice(0, 200)
    const hint = response.status === 401 || response.status === 403 ? ` (check the key in ${config.apiKeyEnv})` : ''
    throw new BraveSearchError(`the Brave Search API answered ${response.status}${why ? `: ${why}` : ''}${hint}`)
  }
  const parsed = BraveSearchResponse.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new BraveSearchError(`the Brave Search API's answer is not a web search result (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'not JSON'})`)
  }
  return (parsed.data.web?.results ?? []).filter((r) => /^https?:\/\//.test(r.url)).map((r) => ({ title: plainTitle(r.title) || r.url, url: r.url }))
}

/** Brave marks the query's words in titles with <strong>; the model gets plain text. */
function plainTitle(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim()
}
