// The web tools' settings (a patch layer's `- id: web-tools` row sets them), with their defaults.
import { z } from 'zod'

const MB = 1024 * 1024

export const WebToolsConfigSchema = z
  .strictObject({
    /**
     * Let WebFetch reach loopback, link-local (the cloud metadata address), private (RFC 1918,
     * unique-local IPv6) and other non-public addresses. Off: the model cannot reach the user's
     * machine or intranet through Seam.
     */
    allowPrivateAddresses: z.boolean().default(false),
    /** Upgrade `http:` URLs to `https:` (as Claude Code does). */
    upgradeToHttps: z.boolean().default(true),
    /** A fetch (connection, redirects, body) that takes longer fails. */
    timeoutMs: z.number().int().positive().default(60_000),
    /** A body larger than this fails the fetch (it is not read past it). */
    maxBytes: z.number().int().positive().default(10 * MB),
    /** Same-host redirects followed before giving up. */
    maxRedirects: z.number().int().min(0).max(20).default(10),
    /** The page's Markdown is cut to this many characters before the prompt runs over it. */
    maxMarkdownChars: z.number().int().positive().default(100_000),
    /** Without a small model, the Markdown the model gets back is cut to this many characters. */
    maxRawResultChars: z.number().int().positive().default(30_000),
    /** How long a fetched page and an answer are reused (Claude Code: 15 minutes). */
    cacheTtlMs: z.number().int().min(0).default(15 * 60_000),
    /** Pages kept in the cache at most (least recently used go first). */
    cacheMaxPages: z.number().int().min(0).default(50),
    conversion: z
      .strictObject({
        /** Converting one page's HTML to Markdown (in the converter worker) that takes longer fails. */
        timeoutMs: z.number().int().positive().default(30_000),
        /** The converter worker's heap limit; a page that needs more fails and the worker is replaced. */
        maxHeapMb: z.number().int().min(32).default(512)
      })
      .prefault({}),
    /**
     * The small model that runs WebFetch's prompt, per provider kind of the session. A provider
     * without one (or `null`) gets the page's Markdown back, cut to `maxRawResultChars`.
     */
    summaryModels: z
      .record(z.string(), z.string().min(1).nullable())
      .default({ anthropic: 'claude-haiku-4-5', openai: 'gpt-4.1-mini', deepseek: 'deepseek-chat' }),
    search: z
      .strictObject({
        /**
         * `auto`: the configured MCP tool when there is one, else the Brave Search API when its
         * key is set, else the provider's own search (Anthropic). `provider` / `mcp` / `brave`:
         * only that one. `none`: WebSearch is not offered.
         */
        backend: z.enum(['auto', 'provider', 'mcp', 'brave', 'none']).default('auto'),
        /** An MCP server's search tool, as Seam names it: `mcp__<server>__<tool>`; it gets `{query}`. */
        mcpTool: z.string().regex(/^mcp__.+__.+$/, 'must be an MCP tool name, mcp__<server>__<tool>').optional(),
        /** The Brave Search API (api.search.brave.com, a key from its dashboard). */
        brave: z
          .strictObject({
            /** The environment variable holding the key (Seam's settings `env`, or the host's environment). */
            apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').default('BRAVE_SEARCH_API_KEY'),
            /** The API's address; only tests change it (a loopback server speaking the API). */
            baseUrl: z.url().default('https://api.search.brave.com'),
            /** Results asked for per search (the API allows 1 to 20). */
            count: z.number().int().min(1).max(20).default(10),
            /** A search that takes longer fails. */
            timeoutMs: z.number().int().positive().default(30_000)
          })
          .prefault({}),
        /** Searches the provider may run for one WebSearch call (Claude Code: 8). */
        maxUsesPerCall: z.number().int().positive().max(20).default(8),
        /** WebSearch calls per session (Claude Code: 200). */
        maxCallsPerSession: z.number().int().positive().default(200)
      })
      .refine((search) => search.backend !== 'mcp' || search.mcpTool !== undefined, { message: 'backend mcp needs mcpTool', path: ['mcpTool'] })
      .prefault({})
  })
  .prefault({})

export type WebToolsConfig = z.output<typeof WebToolsConfigSchema>
