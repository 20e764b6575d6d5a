// The `WebSearch` tool (claude-code-extensions.md 1(f)): `{query, allowed_domains?,
// blocked_domains?}` -> titles and URLs, through the provider's own search (Anthropic's
// server-side `web_search` tool) or an MCP server's search tool the user configured. Structured
// result: Claude Code's `{query, results: [{tool_use_id, content: [{title, url}]} | string], durationSeconds}`.
import { z } from 'zod'
import { defineTool, type ProviderWebSearchResponse, type SessionModelService, type ToolDefinition, type ToolExec, type ToolRegistry } from '@seam/sdk'
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
}

/** Why WebSearch is not offered right now, or undefined when a backend is there. */
export function searchUnavailable({ config, models, tools }: WebSearchDeps): string | undefined {
  const { backend, mcpTool } = config.search
  if (backend === 'none') return 'WebSearch is turned off (the web-tools setting search.backend is none)'
  const mcpReady = mcpTool !== undefined && tools.get(mcpTool) !== undefined
  if ((backend === 'mcp' || backend === 'auto') && mcpReady) return undefined
  if (backend === 'mcp') return `WebSearch's MCP tool ${mcpTool ?? '(none set)'} is not available`
  if (models()?.inUse()?.provider === 'anthropic') return undefined
  return HOW_TO_ADD
}

export const HOW_TO_ADD =
  "No web search backend: WebSearch uses the Anthropic provider's own search, or an MCP server's search tool named in the web-tools setting search.mcpTool (mcp__<server>__<tool>)"

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
    if (backend !== 'provider' && mcpTool !== undefined && deps.tools.get(mcpTool) !== undefined) return searchWithTool(mcpTool, input, exec)
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
    const keep = (url: string) =>
      (!input.allowed_domains?.length || input.allowed_domains.some((d) => inDomain(url, d))) && !(input.blocked_domains ?? []).some((d) => inDomain(url, d))
    const links = linksIn(result.content, result.structured).filter((link) => keep(link.url))
    return links.length > 0 ? [{ tool_use_id: callId, content: links }] : ['No links found in the search tool\'s answer.']
  }
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
