// `mcp_server` on the tool events of an MCP tool (`mcp__<server>__<tool>`): which server the
// tool comes from and where that server was configured, as Claude Code's hook input carries it
// (claude-code-hooks.md §6 PreToolUse, schema). Read from the `mcp` service's servers; a tool no
// running server offers (or no `mcp` plugin) gets no field.
import type {} from '../mcp/index'
import type { McpServerStatus } from '../mcp/manager'

/** Claude Code's configuration scopes for a server, the `source` of `mcp_server`. */
export type ClaudeMcpSource = 'project' | 'user' | 'dynamic'

export interface ClaudeMcpServer {
  name: string
  source: ClaudeMcpSource
}

/**
 * Where Seam read the server, in Claude Code's words: a workspace file (`.mcp.json`, the
 * workspace's `.codex/config.toml`) is `project`; a user-level file (Seam's settings, Codex's
 * home `config.toml`) is `user`; a server an editor handed to one session (ACP `mcpServers`) is
 * `dynamic`, as Claude Code calls servers given on its command line or by its SDK.
 */
export function claudeMcpSource(source: McpServerStatus['source']): ClaudeMcpSource {
  switch (source) {
    case 'project':
    case 'codex-project':
      return 'project'
    case 'seam':
    case 'codex-user':
      return 'user'
    // A Claude Code plugin's server: installed by the user (the spec does not record the value Claude Code sends here).
    case 'plugin':
      return 'user'
    // A subagent's own server (its agent file's inline mcpServers) is started for it at run time, as dynamic ones are.
    case 'session':
    case 'agent':
      return 'dynamic'
  }
}

/** The server offering `toolName` to `sessionId` (a session's own servers first), or undefined. */
export function mcpServerOf(servers: readonly McpServerStatus[], toolName: string, sessionId: string): ClaudeMcpServer | undefined {
  if (!toolName.startsWith('mcp__')) return undefined
  const offering = servers.filter((server) => (server.sessionId === undefined || server.sessionId === sessionId) && server.tools.some((tool) => tool.name === toolName))
  // A subagent's own server (agentId) is named only when no shared server offers the tool.
  const shared = offering.filter((server) => server.agentId === undefined)
  const pool = shared.length > 0 ? shared : offering
  const server = pool.find((candidate) => candidate.sessionId !== undefined) ?? pool[0]
  return server ? { name: server.name, source: claudeMcpSource(server.source) } : undefined
}
