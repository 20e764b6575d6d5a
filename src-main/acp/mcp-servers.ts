// MCP servers an editor passes with `session/new` / `session/load`. Seam has no MCP client yet,
// so a non-empty list is refused with a message saying so (never silently ignored). When the
// MCP client exists, `attachClientMcpServers` starts them for the session and `MCP_TRANSPORTS`
// advertises what it speaks; nothing else here changes.
import { RequestError, type McpServer } from '@agentclientprotocol/sdk'
import type { AcpSession } from './session'

/** The transports advertised in `agentCapabilities.mcpCapabilities` (stdio is ACP's baseline). */
export const MCP_TRANSPORTS = { http: false, sse: false } as const

/** Throws before the session opens when the editor asks for MCP servers Seam cannot start. */
export function checkClientMcpServers(servers: readonly McpServer[]): void {
  if (servers.length === 0) return
  const names = servers.map((s) => `"${s.name}"`).join(', ')
  throw RequestError.invalidParams(
    { mcpServers: servers.map((s) => s.name) },
    `mcpServers: Seam cannot start MCP servers yet (asked for ${names}); remove them from this agent's settings or send an empty list`
  )
}

/** Starts the editor's MCP servers for an open session (nothing to start until the MCP client lands). */
export async function attachClientMcpServers(_session: AcpSession, servers: readonly McpServer[]): Promise<void> {
  checkClientMcpServers(servers)
}
