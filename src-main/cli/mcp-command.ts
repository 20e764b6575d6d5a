// `seam mcp list | enable NAME | disable NAME | restart NAME`. `list` starts the servers (as a
// session would) so it can show each one's state, tools and stderr, then stops them.
import type { McpServerStatus } from '../../plugins/mcp/index'
import type { HostRuntime } from '../app/runtime'
import { requireMcp, setMcpEnabled } from '../app/mcp-settings'
import { UsageError } from './usage-error'

const USAGE = 'seam mcp list | enable NAME | disable NAME | restart NAME'

export async function mcpCommand(runtime: HostRuntime, args: string[], json: boolean, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  const [action, name] = args
  const mcp = requireMcp(runtime)
  const needName = (): string => {
    if (!name) throw new UsageError(`seam mcp ${action} needs a server name`)
    return name
  }
  const print = (status: McpServerStatus): void => {
    io.stdout.write(json ? JSON.stringify(status) + '\n' : describe(status))
  }
  switch (action) {
    case 'list': {
      const servers = await mcp.startAll()
      for (const warning of mcp.warnings()) io.stderr.write(`warning: ${warning}\n`)
      if (servers.length === 0 && !json) io.stdout.write('No MCP servers are configured (.mcp.json, Seam settings mcpServers, Codex config.toml).\n')
      for (const status of servers) print(status)
      return servers.some((status) => status.state === 'failed') ? 1 : 0
    }
    case 'enable':
    case 'disable':
      print(await setMcpEnabled(runtime, needName(), action === 'enable'))
      return 0
    case 'restart': {
      const status = await mcp.restart(needName())
      print(status)
      return status.state === 'failed' ? 1 : 0
    }
    default:
      throw new UsageError(USAGE)
  }
}

function describe(status: McpServerStatus): string {
  const lines = [`${status.name}  ${status.transport}  ${status.state}${status.reason ? ` (${status.reason})` : ''}`, `  ${status.target}`, `  from ${status.file}`]
  if (status.tools.length > 0) lines.push(`  tools: ${status.tools.map((tool) => tool.name).join(', ')}`)
  for (const problem of status.problems) lines.push(`  problem: ${problem}`)
  const stderr = status.stderr.slice(-5)
  if (stderr.length > 0) lines.push('  stderr (last lines):', ...stderr.map((line) => `    ${line}`))
  return lines.join('\n') + '\n'
}
