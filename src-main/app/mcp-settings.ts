// The MCP client as the settings page and `seam mcp` reach it: the running `mcp` service, and
// enabling/disabling a server, remembered in settings.json (`mcpDisabled`).
import type { McpServerStatus, McpService } from '../../plugins/mcp/index'
import type { HostRuntime } from './runtime'

export function requireMcp(runtime: HostRuntime): McpService {
  const mcp = runtime.kernel.getService('mcp')
  if (!mcp) throw Object.assign(new Error('The MCP client is not running (the "mcp" profile entry is disabled or failed).'), { code: 'UNAVAILABLE' })
  return mcp
}

/** Applied to the running client at once, and remembered for the next start. */
export async function setMcpEnabled(runtime: HostRuntime, name: string, enabled: boolean): Promise<McpServerStatus> {
  const status = await requireMcp(runtime).setEnabled(name, enabled)
  const disabled = new Set(runtime.settings.value.mcpDisabled)
  if (enabled) disabled.delete(name)
  else disabled.add(name)
  runtime.settings.update({ mcpDisabled: [...disabled] })
  return status
}
