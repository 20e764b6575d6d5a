// Durable events about what fills the model's context window: the project instructions files
// that were delivered (model-visible), the token usage each step reported (not model-visible),
// and compactions (model-visible: the history restarts from the summary).
// No Node imports here: these schemas are read by the host and the renderer alike.
import { z } from 'zod'

const base = { seq: z.number().int().positive(), ts: z.number() }

/** Claude Code's `memory_type` values, plus the two kinds of Codex's AGENTS.md. */
export const InstructionsMemoryType = z.enum(['User', 'Project', 'Local', 'CodexHome', 'Agents'])
export type InstructionsMemoryType = z.infer<typeof InstructionsMemoryType>

/** Claude Code's `load_reason` values Seam produces. */
export const InstructionsLoadReason = z.enum(['session_start', 'include', 'compact', 'changed'])
export type InstructionsLoadReason = z.infer<typeof InstructionsLoadReason>

export const InstructionsFileShape = z.object({
  /** Absolute path. */
  path: z.string().min(1),
  memoryType: InstructionsMemoryType,
  loadReason: InstructionsLoadReason,
  /** The file's text as read (imports are separate entries). */
  content: z.string(),
  /** For an `@path` import: the file that imported it. */
  parent: z.string().optional()
})
export type InstructionsFile = z.infer<typeof InstructionsFileShape>

/**
 * Instructions files delivered to the model. `text` is exactly what the model gets (as a
 * user-side system reminder before the next prompt); `files` says where it came from.
 */
export const InstructionsLoadedEvent = z.object({
  type: z.literal('instructions/loaded'),
  ...base,
  turnId: z.string().optional(),
  files: z.array(InstructionsFileShape),
  /** Files that were delivered before and are gone now. */
  removed: z.array(z.string()).optional(),
  text: z.string()
})

export const TokenUsageShape = z.object({
  /** Prompt tokens the provider counted, cached ones included. */
  inputTokens: z.number().int().nonnegative(),
  /** The part of `inputTokens` served from the provider's prompt cache. */
  cachedInputTokens: z.number().int().nonnegative(),
  /** Anthropic: prompt tokens written to the cache (billed at the cache-write price). */
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative(),
  /** The part of `outputTokens` spent on reasoning, when the provider says. */
  reasoningTokens: z.number().int().nonnegative()
})
export type TokenUsage = z.infer<typeof TokenUsageShape>

/** What one model request consumed, from the provider's own usage fields. */
export const UsageStepEvent = z.object({
  type: z.literal('usage/step'),
  ...base,
  /** Absent for a manual compaction run outside any turn. */
  turnId: z.string().optional(),
  step: z.number().int().nonnegative(),
  provider: z.string(),
  model: z.string(),
  usage: TokenUsageShape,
  /** The model's context window in tokens, from the model table, when known (the UI's meter). */
  contextWindow: z.number().int().positive().optional(),
  /** Cost of this request in USD from the price table, when the model has a price. */
  costUsd: z.number().nonnegative().optional(),
  /** `compaction`: the request that wrote a compaction summary. */
  purpose: z.enum(['step', 'compaction']).optional()
})

/**
 * The model history before this event was replaced by `summary`: requests built after it start
 * from the summary (plus what follows). The log keeps every replaced event for the UI.
 */
export const CompactionEvent = z.object({
  type: z.literal('compaction'),
  ...base,
  turnId: z.string().optional(),
  trigger: z.enum(['manual', 'auto']),
  /** The user's `/compact` instructions and the PreCompact hooks' additions. */
  instructions: z.string().optional(),
  summary: z.string(),
  /** The replaced span of the log (seq, inclusive). */
  fromSeq: z.number().int().positive(),
  toSeq: z.number().int().positive(),
  /** How many model messages the summary replaced, and the estimated tokens before and after. */
  replacedMessages: z.number().int().nonnegative(),
  tokensBefore: z.number().int().nonnegative().optional(),
  tokensAfter: z.number().int().nonnegative().optional()
})

/**
 * A skill's instructions entered the conversation (Agent Skills, `SKILL.md`): the model called the
 * `Skill` tool, or a compaction re-attached a skill loaded before it. `text` is exactly what the
 * model gets, as one user-side message; it stays in the history until a compaction replaces it.
 * (A skill the user typed as `/name` is the `user/message` of its command instead.)
 */
export const SkillLoadedEvent = z.object({
  type: z.literal('skill/loaded'),
  ...base,
  turnId: z.string().optional(),
  /** The name the skill is invoked by (`deploy`, `plugin:skill`). */
  skill: z.string().min(1),
  /** Its SKILL.md (absolute). */
  file: z.string().min(1),
  args: z.string(),
  /** `model`: the Skill tool; `compact`: re-attached after a compaction; `preload`: a subagent's `skills` field. */
  trigger: z.enum(['model', 'compact', 'preload']),
  /** The Skill tool call it answers (trigger `model`). */
  callId: z.string().optional(),
  text: z.string()
})

export const ContextSessionEvents = [InstructionsLoadedEvent, UsageStepEvent, CompactionEvent, SkillLoadedEvent] as const
