// Which tools a subagent may call: its `tools` allowlist (absent: every tool), minus its
// `disallowedTools` (the denylist wins), narrowed further by a caller's `allowedTools`, and the
// `Agent(type, ...)` form that limits which agent types it may start. `Task` is `Agent`'s old name.
import type { AgentDefinition } from './definitions'

export const AGENT_TOOL = 'Agent'
export const AGENT_TOOL_ALIASES: readonly string[] = ['Task']

export interface ToolAccess {
  allows(tool: string): boolean
  /** The agent types it may start with the Agent tool; undefined: any. */
  readonly spawnable: readonly string[] | undefined
}

interface Rule {
  tool: string
  specifier?: string
}

function parseRule(entry: string): Rule {
  const match = /^([^()]+?)\s*\((.*)\)\s*$/.exec(entry.trim())
  const tool = canonical((match ? match[1] : entry).trim())
  return match ? { tool, specifier: match[2].trim() } : { tool }
}

function canonical(tool: string): string {
  return AGENT_TOOL_ALIASES.includes(tool) ? AGENT_TOOL : tool
}

/** `mcp__srv` in a list covers every tool of that server. */
function covers(rule: Rule, tool: string): boolean {
  return rule.tool === tool || (rule.tool.startsWith('mcp__') && tool.startsWith(`${rule.tool}__`))
}

/** Claude Code's MCP name normalization (`mcp__<server>__`): every character outside [A-Za-z0-9_-] becomes `_`. */
function serverPrefix(server: string): string {
  return `mcp__${server.replace(/[^A-Za-z0-9_-]/g, '_')}__`
}

/**
 * `servers`: the MCP servers the agent file names in `mcpServers`: their tools are the agent's even
 * when its `tools` list leaves them out (a bare deny and a caller's narrowing still apply).
 */
export function toolAccess(agent: Pick<AgentDefinition, 'tools' | 'disallowedTools'>, options: { canSpawn: boolean; narrowedTo?: readonly string[]; servers?: readonly string[] }): ToolAccess {
  const ownPrefixes = (options.servers ?? []).map(serverPrefix)
  const allow = agent.tools?.map(parseRule)
  const deny = (agent.disallowedTools ?? []).map(parseRule)
  const narrowed = options.narrowedTo?.map(parseRule)
  const agentRule = allow?.find((rule) => rule.tool === AGENT_TOOL && rule.specifier !== undefined)
  const spawnable = agentRule?.specifier
    ?.split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '')
  return {
    spawnable,
    allows(name) {
      const tool = canonical(name)
      if (tool === AGENT_TOOL && !options.canSpawn) return false
      // A bare deny refuses the tool; a rule with a specifier (`Bash(rm:*)`) is the permission policy's business.
      if (deny.some((rule) => rule.specifier === undefined && covers(rule, tool))) return false
      if (allow && !allow.some((rule) => covers(rule, tool)) && !ownPrefixes.some((prefix) => tool.startsWith(prefix))) return false
      if (narrowed && !narrowed.some((rule) => covers(rule, tool))) return false
      return true
    }
  }
}
