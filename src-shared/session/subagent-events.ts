// A subagent's start and end in its parent's log. The child's own history (its messages, tool
// calls and results, usage) is a session log of its own beside the parent's
// (`<sessionId>.agents/<agentId>.jsonl`); these two events tie it to the parent call that ran it.
// Not model-visible: the parent's model reads only the Agent call's result. No Node imports.
import { z } from 'zod'

const base = { seq: z.number().int().positive(), ts: z.number() }

export const SubagentStartEvent = z.object({
  type: z.literal('subagent/start'),
  ...base,
  turnId: z.string().optional(),
  /** The Agent call's token (the parent of every call the child makes). */
  token: z.string(),
  agentId: z.string(),
  agentType: z.string(),
  description: z.string(),
  /** The child log's file name, relative to the parent log's folder. */
  file: z.string(),
  background: z.boolean().optional(),
  /** A background agent's output file (absolute path): a resumed session lists it as a task. */
  outputFile: z.string().optional()
})

export const SubagentUsageShape = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative()
})

export const SubagentEndEvent = z.object({
  type: z.literal('subagent/end'),
  ...base,
  turnId: z.string().optional(),
  token: z.string(),
  agentId: z.string(),
  reason: z.enum(['completed', 'rejected', 'cancelled', 'error', 'max_steps']),
  error: z.string().optional(),
  steps: z.number().int().nonnegative(),
  toolUseCount: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  usage: SubagentUsageShape,
  /** What its requests cost, when the model table has prices for its model. */
  costUsd: z.number().nonnegative().optional(),
  model: z.string()
})
