// The loop's tunables, validated where they enter (app settings, CLI flags, tests).
import { z } from 'zod'
import { parseOrThrow } from '../../src-shared/validation'

export const AgentSettingsSchema = z.object({
  /** S19: calls of one step that may run at once (only tools declared `concurrent: true` overlap). */
  maxParallelToolCalls: z.number().int().min(1).max(256).default(10),
  /** S21: model requests per turn; one more would end the turn `max_steps`. */
  maxSteps: z.number().int().min(1).default(50),
  /**
   * S7: `continue` decisions honoured per turn. A `stop` decision ends the turn, so every
   * continuation in a turn is consecutive; the one after the cap ends the turn `completed`
   * with a notice instead of forcing another step.
   */
  maxContinuations: z.number().int().min(0).default(9),
  /** The model's context window and prices (src-main/llm/model-table.ts), when known. */
  model: z
    .object({
      contextWindow: z.number().int().positive().optional(),
      prices: z
        .object({ input: z.number().nonnegative(), cachedInput: z.number().nonnegative().optional(), cacheWrite: z.number().nonnegative().optional(), output: z.number().nonnegative() })
        .optional()
    })
    .default({}),
  /** Compaction: automatic before a request that would fill more than `threshold` of the context window. */
  compaction: z
    .object({
      auto: z.boolean().default(true),
      threshold: z.number().gt(0).max(1).default(0.8)
    })
    .prefault({})
})

export type AgentSettings = z.infer<typeof AgentSettingsSchema>
export type AgentSettingsInput = z.input<typeof AgentSettingsSchema>

/** Throws a ValidationError naming the field (`agent settings: maxSteps: ...`). */
export function parseAgentSettings(input: unknown): AgentSettings {
  return parseOrThrow(AgentSettingsSchema, input ?? {}, 'agent settings')
}
