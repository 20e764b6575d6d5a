// The `WebSearch` tool (claude-code-extensions.md 1(f)): `{query, allowed_domains?,
// blocked_domains?}` -> titles and URLs, through the provider's own search (Anthropic's
// server-side `web_search` tool) or an MCP server's search tool the user configured. Structured
// result: Claude Code's `{query, results: [{tool_use_id, content: [{title, url}]} | string], durationSeconds}`.
import { z } from 'zod'
import { defineTool, type ProviderWebSearchResponse, type SessionModelService, type ToolDefinition, type ToolExec, type ToolRegistry } from '@seam/sdk'
import { BraveSearchError, braveKey, braveSearch } from './brave-search'
import type { WebToolsConfig } from './config'
import { inDomain, linksIn } from './search-links'

export const WEB_SEARCH = 'WebSearch'

export const WebSearchInputSchema = z
  .strictObject({
    query: z.string().min(2).describe('The search query'),
    allowed_domains: z.array(z.string()).optional().describe('Only include results from these domains'),
    blocked_domains: z.array(z.string()).optional().describe('Never include results from these domains')
  })
  .refine((input) => !(input.allowed_domains?.length && input.blocked_domains?.length), {
    message: 'Cannot specify both allowed_domains and blocked_domains in the same request',
    path: ['allowed_domains']
  })
export type WebSearchInput = z.infer<typeof WebSearchInputSchema>

export type WebSearchResultEntry = { tool_use_id: string; content: Array<{ title: string; url: string }> } | string

/** Claude Code's WebSearch tool_response. */
export interface WebSearchStructured {
  query: string
  results: WebSearchResultEntry[]
  durationSeconds: number
}

const DESCRIPTION = [
  'Searches the web and returns the results\' titles and URLs (no page is fetched: use WebFetch to read one).',
  'Use it for anything newer than your knowledge or that you must check. `allowed_domains` or `blocked_domains` (not both) narrow the results.',
  'Cite the sources you use in your answer as Markdown links.'
].join('\n')

export interface WebSearchDeps {
  config: WebToolsConfig
  models: () => SessionModelService | undefined
  tools: ToolRegistry
  /** The environment the Brave key is read from (Seam's settings env over the host's). */
  env: () => Readonly<Record<string, string | undefined>>
  /** The provider a session's requests go to, known without waiting (undefined: the host's in use). */
  providerOf?: (sessionId: string) => string | undefined
}

/** Why WebSearch is not offered to this session (or, without one, to a session on the host's provider in use), or undefined when a backend is there. */
export function searchUnavailable(deps: WebSearchDeps, sessionId?: string): string | undefined {
  const { config, models, tools } = deps
  const { backend, mcpTool } = config.search
  if (backend === 'none') return 'WebSearch is turned off (the web-tools setting search.backend is none)'
  const mcpReady = mcpTool !== undefined && tools.get(mcpTool) !== undefined
  if ((backend === 'mcp' || backend === 'auto') && mcpReady) return undefined
  if (backend === 'mcp') return `WebSearch's MCP tool ${mcpTool ?? '(none set)'} is not available`
  const braveReady = braveKey(config.search.brave, deps.env()) !== undefined
  if ((backend === 'brave' || backend === 'auto') && braveReady) return undefined
  if (backend === 'brave') return `WebSearch's Brave Search API key is not set (the environment variable ${config.search.brave.apiKeyEnv}, named by the web-tools setting search.brave.apiKeyEnv)`
  const provider = (sessionId !== undefined ? deps.providerOf?.(sessionId) : undefined) ?? models()?.inUse()?.provider
  if (provider === 'anthropic') return undefined
  return HOW_TO_ADD
}

export const HOW_TO_ADD =
  "No web search backend: WebSearch uses the Anthropic provider's own search, the Brave Search API (its key in the environment variable the web-tools setting search.brave.apiKeyEnv names, BRAVE_SEARCH_API_KEY by default), or an MCP server's search tool named in the web-tools setting search.mcpTool (mcp__<server>__<tool>)"

export function createWebSearchTool(deps: WebSearchDeps): ToolDefinition<WebSearchInput> {
  const { config } = deps
  const calls = new Map<string, number>()
  return defineTool({
    name: WEB_SEARCH,
    description: DESCRIPTION,
    inputSchema: WebSearchInputSchema,
    concurrent: true,
    sideEffects: true,
    timeoutMs: 120_000,
    async execute(input, exec) {
      const started = Date.now()
      const used = calls.get(exec.sessionId) ?? 0
      if (used >= config.search.maxCallsPerSession) {
        return { isError: true, content: `This session has used its ${config.search.maxCallsPerSession} web searches (the web-tools setting search.maxCallsPerSession)` }
      }
      calls.set(exec.sessionId, used + 1)
      const results = await search(input, exec)
      if (typeof results === 'string') return { isError: true, content: results }
      const structured: WebSearchStructured = { query: input.query, results, durationSeconds: (Date.now() - started) / 1000 }
      return { content: resultText(input.query, results), structured }
    }
  })

  async function search(input: WebSearchInput, exec: ToolExec): Promise<WebSearchResultEntry[] | string> {
    const { backend, mcpTool } = config.search
    if ((backend === 'auto' || backend === 'mcp') && mcpTool !== undefined && deps.tools.get(mcpTool) !== undefined) return searchWithTool(mcpTool, input, exec)
    const key = backend === 'auto' || backend === 'brave' ? braveKey(config.search.brave, deps.env()) : undefined
    if (key !== undefined) return searchWithBrave(key, input, exec)
    if (backend === 'brave') return searchUnavailable(deps, exec.sessionId) ?? HOW_TO_ADD
    const provider = backend === 'mcp' ? undefined : await deps.models()?.webSearch(exec.sessionId)
    if (!provider) return `${HOW_TO_ADD}; this session's provider has no web search.`
    try {
      const response = await provider.search({
        query: input.query,
        maxUses: config.search.maxUsesPerCall,
        signal: exec.signal,
        ...(input.allowed_domains?.length ? { allowedDomains: input.allowed_domains } : {}),
        ...(input.blocked_domains?.length ? { blockedDomains: input.blocked_domains } : {})
      })
      return fromProvider(response)
    } catch (error) {
      if (exec.signal.aborted) throw error
      return `Web search through ${provider.provider} (${provider.model}) failed: ${(error as Error)?.message ?? String(error)}`
    }
  }

  /** A nested call (S9: sealed under this call's token) to the MCP server's search tool. */
  async function searchWithTool(name: string, input: WebSearchInput, exec: ToolExec): Promise<WebSearchResultEntry[] | string> {
    const callId = `${exec.token}:search`
    const { result } = await deps.tools.execute({ name, args: { query: input.query }, callId, sessionId: exec.sessionId, parent: exec.token, cwd: exec.cwd, signal: exec.signal })
    if (result.isError) return `Web search through ${name} failed: ${result.content}`
    const links = linksIn(result.content, result.structured).filter((link) => inDomains(link.url, input))
    return links.length > 0 ? [{ tool_use_id: callId, content: links }] : ['No links found in the search tool\'s answer.']
  }

  /** One request to the Brave Search API; the domain lists filter its results. */
  async function searchWithBrave(key: string, input: WebSearchInput, exec: ToolExec): Promise<WebSearchResultEntry[] | string> {
    try {
      const links = (await braveSearch(input.query, key, config.search.brave, exec.signal)).filter((link) => inDomains(link.url, input))
      return links.length > 0 ? [{ tool_use_id: `${exec.token}:brave`, content: links }] : ['No results found.']
    } catch (error) {
      if (error instanceof BraveSearchError) return `Web search through the Brave Search API failed: ${error.message}`
      throw error
    }
  }
}

/** Whether a result's URL passes the call's allowed_domains / blocked_domains. */
function inDomains(url: string, input: WebSearchInput): boolean {
  return (!input.allowed_domains?.length || input.allowed_domains.some((d) => inDomain(url, d))) && !(input.blocked_domains ?? []).some((d) => inDomain(url, d))
}

function fromProvider(response: ProviderWebSearchResponse): WebSearchResultEntry[] {
  return response.map((entry) =>
    typeof entry === 'string' ? entry : entry.error ? `Web search error: ${entry.error}` : { tool_use_id: entry.toolUseId, content: entry.hits }
  )
}

/** What the model reads: the query, each search's links, the provider's text between them. */
export function resultText(query: string, results: readonly WebSearchResultEntry[]): string {
  const parts = [`Web search results for query: "${query}"`]
  for (const entry of results) parts.push(typeof entry === 'string' ? entry : `Links: ${JSON.stringify(entry.content)}`)
  parts.push('REMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.')
  return parts.join('\n\n')
}
