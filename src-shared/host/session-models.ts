// Side requests to a session's model provider, for plugins that need one beside the turn's own
// request: a WebFetch that runs its prompt over a page with a small model, a WebSearch through the
// provider's server-side search. The provider's address and key stay in the Host.
import type { ModelClient } from '../model'

/** One search the provider ran, with what it found (Claude Code's WebSearch `results` entry). */
export interface ProviderSearchHits {
  /** The provider's id of its server-side search call. */
  toolUseId: string
  hits: Array<{ title: string; url: string }>
  /** Set when the provider's search failed (its error code); `hits` is then empty. */
  error?: string
}

export interface ProviderWebSearchRequest {
  query: string
  /** Only results from these domains (cannot be combined with `blockedDomains`). */
  allowedDomains?: readonly string[]
  blockedDomains?: readonly string[]
  /** Upper bound on the provider's searches for this request. */
  maxUses: number
  signal?: AbortSignal
}

/** What the provider answered, in its order: its searches' hits, and its text between them. */
export type ProviderWebSearchResponse = Array<ProviderSearchHits | string>

export interface ProviderWebSearch {
  /** The provider and model that search (for the tool's result and logs). */
  readonly provider: string
  readonly model: string
  search(request: ProviderWebSearchRequest): Promise<ProviderWebSearchResponse>
}

export interface SessionModelService {
  /** The provider and model the Host uses for sessions that did not switch; undefined when none is configured. */
  inUse(): { provider: string; model: string } | undefined
  /** The provider kind and model a session's requests go to (after a model switch); undefined when none is configured. */
  current(sessionId: string): Promise<{ provider: string; model: string } | undefined>
  /** A client for `model` on the provider the session uses (its address and key). Throws a ModelError when none is configured. */
  clientFor(sessionId: string, model: string): Promise<ModelClient>
  /** The provider's own web search where it has one (Anthropic's server-side `web_search` tool), else undefined. */
  webSearch(sessionId: string): Promise<ProviderWebSearch | undefined>
}

declare module '../kernel/types' {
  interface Services {
    sessionModels: SessionModelService
  }
}
