// WebFetch and WebSearch, Claude Code's web tools (claude-code-extensions.md 1(f)). Pages come
// through Node's own HTTP client (fetch-page.ts), never from the user's machine or networks unless
// a setting allows it (address-policy.ts); HTML becomes Markdown (page-text.ts) and a small model
// of the session's provider answers the call's prompt over it (web-fetch.ts). The conversion runs in
// a worker thread (markdown-converter.ts), so a large page does not stall the host. Searches go through
// the provider's own search or a configured MCP search tool (web-search.ts); with neither,
// WebSearch is not offered.
import { definePlugin, type AgentHandle, type SessionEvent } from '@seam/sdk'
import { WebToolsConfigSchema } from './config'
import { MarkdownConverter } from './markdown-converter'
import workerPath from './markdown-worker?modulePath'
import { createWebFetchTool } from './web-fetch'
import { WEB_SEARCH, createWebSearchTool, searchUnavailable } from './web-search'

export { WebToolsConfigSchema, type WebToolsConfig } from './config'
export { WEB_FETCH, type WebFetchStructured } from './web-fetch'
export { WEB_SEARCH, HOW_TO_ADD, type WebSearchStructured } from './web-search'

export default definePlugin({
  name: 'web-tools',
  schema: WebToolsConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const tools = ctx.get('tools')
    // Read per call: the host provides it; a test host without a provider has none.
    const models = () => ctx.maybe('sessionModels')
    // One converter worker per host, started by the first HTML page, ended with the plugin.
    const converter = new MarkdownConverter({ workerPath, ...config.conversion })
    ctx.onDispose(() => converter.dispose())
    ctx.tools.register(createWebFetchTool({ config, models, converter }))
    if (config.search.backend === 'none') return
    // The Brave key: Seam's settings env (Claude Code's `env`) over the host's environment, read per call.
    const env = () => ({ ...process.env, ...(ctx.maybe('settingsEnv')?.vars() ?? {}) })
    // Each session's provider, for whether WebSearch is offered to it: a session switched to
    // Anthropic gets the provider's search, one on an OpenAI-wire provider does not.
    const sessions = new Map<string, AgentHandle>()
    ctx.on('agent/session-start', (agent) => void (agent.subagent ? undefined : sessions.set(agent.sessionId, agent)))
    ctx.on('agent/session-end', (agent) => void (agent.subagent ? undefined : sessions.delete(agent.sessionId)))
    const providerOf = (sessionId: string) => switchedProvider(sessions.get(sessionId)?.events ?? [])
    const deps = { config, models, tools, env, providerOf }
    ctx.tools.register(createWebSearchTool(deps))
    ctx.guard('tools/offer', (name, sessionId) => (name === WEB_SEARCH ? searchUnavailable(deps, sessionId) : undefined))
  }
})

/** The provider a session switched to (its last `model/switched`), or undefined: it uses the host's provider in use. */
function switchedProvider(events: readonly SessionEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'model/switched') return event.provider
  }
  return undefined
}
