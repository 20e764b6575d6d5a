// Claude Code's resource tools: ListMcpResourcesTool (every server's resources, or one
// server's) and ReadMcpResourceTool (one resource by server and URI).
import { z } from 'zod'
import type { ToolDefinition } from '@seam/sdk'
import type { ServerConnection } from './connection'
import { capText, type ResultLimits } from './tool-adapter'
import { formatBytes } from './bytes'

export function resourceTools(connections: () => ServerConnection[], limits: ResultLimits): Array<ToolDefinition<never>> {
  const find = (server: string): ServerConnection => {
    const found = connections().find((connection) => connection.name === server)
    if (!found) throw new Error(`no MCP server named "${server}" (servers: ${connections().map((c) => c.name).join(', ') || 'none'})`)
    return found
  }
  const list: ToolDefinition<{ server?: string }> = {
    name: 'ListMcpResourcesTool',
    description: 'Lists the resources MCP servers offer (all servers, or the one named by "server"). Each entry has the server, uri, name and mimeType.',
    inputSchema: z.object({ server: z.string().optional().describe('Only this server\'s resources') }).strict(),
    concurrent: true,
    async execute({ server }, exec) {
      const targets = server !== undefined ? [find(server)] : connections().filter((c) => c.state === 'connected' && c.hasResources)
      const all: Array<Record<string, unknown>> = []
      const failures: string[] = []
      for (const connection of targets) {
        try {
          for (const resource of await connection.listResources(exec.signal)) all.push({ ...resource, server: connection.name })
        } catch (error) {
          if (server !== undefined) throw error
          failures.push(`${connection.name}: ${(error as Error).message}`)
        }
      }
      const text = JSON.stringify(all, null, 2) + (failures.length > 0 ? `\n\nCould not list: ${failures.join('; ')}` : '')
      return { content: capText(text, limits.maxOutputTokens), structured: all as never }
    }
  }
  const read: ToolDefinition<{ server: string; uri: string }> = {
    name: 'ReadMcpResourceTool',
    description: 'Reads one resource from an MCP server, by server name and resource URI.',
    inputSchema: z.object({ server: z.string().min(1).describe('The MCP server name'), uri: z.string().min(1).describe('The resource URI') }).strict(),
    concurrent: true,
    async execute({ server, uri }, exec) {
      const contents = await find(server).readResource(uri, exec.signal)
      const text = contents
        .map((item) => (typeof item.text === 'string' ? item.text : `[${String(item.mimeType ?? 'binary')} resource ${String(item.uri)}, ${formatBytes(Math.floor((String(item.blob ?? '').length * 3) / 4))}]`))
        .join('\n')
      return { content: capText(text, limits.maxOutputTokens), structured: { contents } as never }
    }
  }
  return [list, read] as unknown as Array<ToolDefinition<never>>
}
