// Anthropic's server-side web search (the Messages API's `web_search_20250305` tool), as Claude
// Code's WebSearch uses it: one request that lets the model search, answered with the searches'
// result blocks (titles and URLs; no page is fetched) and the model's text between them.
import type Anthropic from '@anthropic-ai/sdk'
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import { ModelError, type ProviderConfig } from '../../src-shared/model'
import type { ProviderWebSearch, ProviderWebSearchRequest, ProviderWebSearchResponse } from '../../src-shared/host/session-models'
import { sdkOptions } from './client-shell'
import { loadAnthropicSdk } from './sdk-modules'
import { toModelError } from './errors'

/** Output budget of the search request: the model only has to run the searches and say little. */
const SEARCH_MAX_TOKENS = 4096

export function anthropicWebSearch(cfg: ProviderConfig): ProviderWebSearch {
  // The SDK loads on first use, as the adapter's does (start-up cost).
  let sdk: Promise<Anthropic> | undefined
  const client = () => (sdk ??= loadAnthropicSdk().then((module) => new module.default(sdkOptions(cfg))))
  return {
    provider: cfg.provider,
    model: cfg.model,
    async search(request) {
      let raw: unknown
      try {
        raw = await (await client()).messages.create(searchRequestBody(cfg.model, request), { signal: request.signal })
      } catch (error) {
        throw toModelError(error, { signal: request.signal, baseUrl: cfg.baseUrl })
      }
      return parseSearchResponse(raw)
    }
  }
}

/** The wire request (exported for tests that check the mapping). */
export function searchRequestBody(model: string, request: ProviderWebSearchRequest): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: SEARCH_MAX_TOKENS,
    messages: [{ role: 'user', content: `Perform a web search for the query: ${request.query}` }],
    tools: [
      {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: request.maxUses,
        ...(request.allowedDomains?.length ? { allowed_domains: [...request.allowedDomains] } : {}),
        ...(request.blockedDomains?.length ? { blocked_domains: [...request.blockedDomains] } : {})
      }
    ]
  }
}

const SearchResult = z.object({ type: z.literal('web_search_result'), title: z.string(), url: z.string() })
const SearchError = z.object({ type: z.literal('web_search_tool_result_error'), error_code: z.string() })
const Block = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('web_search_tool_result'), tool_use_id: z.string(), content: z.union([z.array(SearchResult), SearchError]) }),
  z.object({ type: z.string() })
])
const Response = z.object({ content: z.array(Block) })

/** The response's blocks in order: each search's hits (or its error), and the model's text. */
export function parseSearchResponse(raw: unknown): ProviderWebSearchResponse {
  const parsed = Response.safeParse(raw)
  if (!parsed.success) throw new ModelError('bad_response', `The web search response is not a Messages API message: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}`)
  const out: ProviderWebSearchResponse = []
  for (const block of parsed.data.content) {
    if ('text' in block && block.type === 'text') {
      if (block.text.trim() !== '') out.push(block.text)
    } else if ('tool_use_id' in block) {
      const content = block.content
      if (Array.isArray(content)) out.push({ toolUseId: block.tool_use_id, hits: content.map((r) => ({ title: r.title, url: r.url })) })
      else out.push({ toolUseId: block.tool_use_id, hits: [], error: content.error_code })
    }
  }
  return out
}
