// MCP servers an editor passes with `session/new` / `session/load`, started through Seam's MCP
// client (the `mcp` service's startForSession) for that session only; they stop when it closes.
// A server that fails to start does not fail the request: the session opens (as issue 14 asks:
// the session and the other servers go on, and as other ACP agents do), the failure is logged to
// stderr, returned in the response's `_meta.seam.mcpServers`, and shown in the session as a notice
// before its next turn.
import { RequestError, type McpServer } from '@agentclientprotocol/sdk'
import type { McpServerStatus, McpSessionServer } from '../../plugins/mcp/index'
import type { AcpSession } from './session'

/** The transports advertised in `agentCapabilities.mcpCapabilities` (stdio is ACP's baseline). */
export const MCP_TRANSPORTS = { http: true, sse: true } as const

/** What the response's `_meta.seam.mcpServers` says about each server the editor passed. */
export interface ClientMcpServerState {
  name: string
  state: McpServerStatus['state']
  reason?: string
  tools: string[]
}

/** Refuses, before the session opens, a list Seam could never start as given (a repeated or empty name). */
export function checkClientMcpServers(servers: readonly McpServer[]): void {
  const seen = new Set<string>()
  servers.forEach((server, index) => {
    if (server.name.trim() === '') throw RequestError.invalidParams({ mcpServers: index }, `mcpServers[${index}].name: must not be empty`)
    if (seen.has(server.name)) {
      throw RequestError.invalidParams({ mcpServers: index }, `mcpServers[${index}].name: "${server.name}" is given twice; MCP server names must be unique`)
    }
    seen.add(server.name)
  })
}

/** ACP's server shape as the `.mcp.json` entry shape the MCP client takes. */
export function toSessionServer(server: McpServer): McpSessionServer {
  const pairs = (list: ReadonlyArray<{ name: string; value: string }>) => Object.fromEntries(list.map((p) => [p.name, p.value]))
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    return { name: server.name, type: server.type, url: server.url, headers: pairs(server.headers) }
  }
  const stdio = server as Extract<McpServer, { command: string }>
  return { name: stdio.name, command: stdio.command, args: stdio.args, env: pairs(stdio.env) }
}

/** Starts the editor's MCP servers for an open session; resolves when each is connected or failed. */
export async function attachClientMcpServers(session: AcpSession, servers: readonly McpServer[]): Promise<ClientMcpServerState[]> {
  if (servers.length === 0) return []
  const mcp = session.kernel.getService('mcp')
  if (!mcp) {
    // Only a patch layer disabling the `mcp` entry gets here: say so rather than drop the servers.
    throw RequestError.internalError({ mcpServers: servers.map((s) => s.name) }, 'mcpServers: the MCP client (profile entry "mcp") is disabled in this Seam home, so the servers cannot start')
  }
  const started = await mcp.startForSession(session.id, servers.map(toSessionServer))
  const states = started.map((s): ClientMcpServerState => ({ name: s.name, state: s.state, ...(s.reason !== undefined ? { reason: s.reason } : {}), tools: s.tools.map((t) => t.name) }))
  for (const failed of states.filter((s) => s.state !== 'connected')) {
    const text = `MCP server "${failed.name}" from the editor did not start: ${failed.reason ?? failed.state}`
    session.logLine(text)
    session.noticeBeforeNextTurn('error', text, 'mcp')
  }
  return states
}
