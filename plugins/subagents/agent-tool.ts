// The `Agent` tool (`Task` accepted, its old name) as Claude Code defines it
// (claude-code-extensions.md 1(a) "The Agent tool"): the model gives a short description, the
// task and the agent type; the subagent runs as a child turn and the model gets its final text.
// `structured` carries Claude Code's completed-result fields (what PostToolUse hooks see as
// `tool_response`).
import { z } from 'zod'
import type { SubagentRunResult, ToolDefinition, ToolExec, ToolOutput } from '@seam/sdk'
import { launchedText, type Launched } from './background'
import type { AgentDefinition } from './definitions'
import { AGENT_TOOL, AGENT_TOOL_ALIASES } from './tool-access'

export const AgentInputSchema = z.object({
  description: z.string().describe('A short (3-5 word) description of the task'),
  prompt: z.string().describe('The task for the agent to perform'),
  subagent_type: z.string().optional().describe('The type of specialized agent to use for this task'),
  model: z.enum(['sonnet', 'opus', 'haiku', 'fable']).optional().describe('Optional model override for this agent; by default it inherits the caller\'s'),
  run_in_background: z.boolean().optional().describe('Set to true to run this agent in the background; you will be notified when it completes'),
  isolation: z.enum(['worktree']).optional().describe('"worktree" runs the agent in a temporary git worktree (an isolated copy of the repository), removed if it changes nothing')
})

export type AgentInput = z.output<typeof AgentInputSchema>

/** Claude Code's default when `subagent_type` is omitted. */
export const DEFAULT_AGENT_TYPE = 'general-purpose'

/** A foreground run's result, or a background launch (the agent runs on). */
export type AgentRunOutcome = { kind: 'completed'; result: SubagentRunResult } | { kind: 'launched'; launched: Launched }

export interface AgentToolRunner {
  run(input: AgentInput, exec: ToolExec): Promise<AgentRunOutcome>
}

export function agentToolDescription(agents: readonly AgentDefinition[]): string {
  const lines = agents.map((agent) => `- ${agent.name}: ${agent.description} (Tools: ${agent.tools?.join(', ') ?? '*'})`)
  return [
    'Launch a new agent to handle a complex, multi-step task on its own. Each agent type has its own tools and instructions.',
    '',
    'Available agent types and the tools they have access to:',
    ...lines,
    '',
    `Give \`subagent_type\` to pick one (default: ${DEFAULT_AGENT_TYPE}).`,
    '',
    'Notes:',
    '- The agent starts with no knowledge of this conversation: the prompt must hold everything it needs, and say exactly what it should report back.',
    '- Only the agent\'s final message comes back to you, and the user does not see it: summarise it for them.',
    '- Launch several agents at once, when their tasks are independent, by making several Agent calls in one message.'
  ].join('\n')
}

export function agentTool(description: string, runner: AgentToolRunner, timeoutMs: number): ToolDefinition<AgentInput> {
  return {
    timeoutMs,
    name: AGENT_TOOL,
    aliases: AGENT_TOOL_ALIASES,
    description,
    inputSchema: AgentInputSchema,
    // Several agents of one step run side by side (each is its own loop).
    concurrent: true,
    sideEffects: false,
    async execute(input, exec): Promise<ToolOutput> {
      const outcome = await runner.run(input, exec)
      if (outcome.kind === 'launched') {
        const { agentId, outputFile } = outcome.launched
        return {
          content: launchedText(agentId, outputFile),
          structured: { status: 'async_launched', agentId, description: input.description, prompt: input.prompt, outputFile, canReadOutputFile: true }
        }
      }
      const { result } = outcome
      const kept = result.worktree ? `\n\nThe agent's changes are kept in the git worktree ${result.worktree.path} on branch ${result.worktree.branch}.` : ''
      return {
        content: result.text + kept,
        isError: result.isError,
        structured: {
          status: 'completed',
          agentId: result.agentId,
          agentType: result.agentType,
          content: [{ type: 'text', text: result.text }],
          ...(result.model !== undefined ? { resolvedModel: result.model, modelsUsed: [result.model] } : {}),
          totalToolUseCount: result.toolUseCount,
          totalDurationMs: Math.round(result.durationMs),
          totalTokens: result.usage.inputTokens + result.usage.outputTokens,
          usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
          prompt: input.prompt,
          ...(result.worktree ? { worktreePath: result.worktree.path, worktreeBranch: result.worktree.branch } : {})
        }
      }
    }
  }
}
