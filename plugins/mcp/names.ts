// Tool names as Claude Code builds them: `mcp__<server>__<tool>`, each part with every character
// outside [A-Za-z0-9_-] replaced by "_". Providers accept at most 64 characters, so a longer
// name cannot be offered to the model and is reported instead.

export const MAX_TOOL_NAME = 64

export function normalizeNameForMcp(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_')
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeNameForMcp(server)}__${normalizeNameForMcp(tool)}`
}

/** Why a server's tool name cannot become a Seam tool, or `undefined` when it can. */
export function toolNameProblem(server: string, tool: string): string | undefined {
  if (tool.length === 0) return 'the server named a tool with an empty name'
  const name = mcpToolName(server, tool)
  if (name.length > MAX_TOOL_NAME) return `tool "${tool}" would be named ${name} (${name.length} characters); model providers accept at most ${MAX_TOOL_NAME}`
  return undefined
}
