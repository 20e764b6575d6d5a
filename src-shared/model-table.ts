// The shape of the model table: a model's context window and prices, as the settings file holds
// them and the settings page edits them. The defaults and the arithmetic live in
// src-main/llm/model-table.ts.
import { z } from 'zod'
import type { ProviderKind } from './model'

const PROVIDER_KINDS = ['deepseek', 'openai', 'anthropic', 'ollama', 'openai-compatible'] as const satisfies readonly ProviderKind[]

export const ModelPricesSchema = z
  .object({
    /** Prompt tokens not served from the cache. */
    input: z.number().nonnegative(),
    /** Prompt tokens read from the provider's cache (default: the input price). */
    cachedInput: z.number().nonnegative().optional(),
    /** Prompt tokens written to the cache (Anthropic; default: the input price). */
    cacheWrite: z.number().nonnegative().optional(),
    output: z.number().nonnegative()
  })
  .strict()
export type ModelPrices = z.infer<typeof ModelPricesSchema>

export const ModelInfoSchema = z
  .object({
    contextWindow: z.number().int().positive().optional(),
    /** USD per million tokens. */
    prices: ModelPricesSchema.optional(),
    /** The model accepts images in user messages (absent: it does not; attaching one is refused with a message). */
    vision: z.boolean().optional(),
    /** The provider kind that serves it: the model picker lists it under that provider. */
    provider: z.enum(PROVIDER_KINDS).optional()
  })
  .strict()
export type ModelInfo = z.infer<typeof ModelInfoSchema>

/** The model table of the settings file: model name -> overrides. */
export const ModelTableSchema = z.record(z.string().min(1), ModelInfoSchema)
export type ModelTable = z.infer<typeof ModelTableSchema>

/** Automatic compaction before a request that would fill more than `threshold` of the context window. */
export const CompactionSettingsSchema = z.object({ auto: z.boolean().default(true), threshold: z.number().gt(0).max(1).default(0.8) }).strict()
export type CompactionSettings = z.infer<typeof CompactionSettingsSchema>

/** One model as the settings page shows it: what Seam ships, the user's entry, and what is in force. */
export const ModelTableRowSchema = z.object({
  model: z.string(),
  /** Seam's built-in entry ({} when Seam knows nothing of the model). */
  defaults: ModelInfoSchema,
  /** The user's entry in the settings file's `models`, null when there is none. */
  override: ModelInfoSchema.nullable(),
  /** The user's entry over the defaults, field by field. */
  effective: ModelInfoSchema,
  /** The model the configured provider uses. */
  inUse: z.boolean()
})
export type ModelTableRow = z.infer<typeof ModelTableRowSchema>

export const ModelTableViewSchema = z.object({ models: z.array(ModelTableRowSchema), compaction: CompactionSettingsSchema })
export type ModelTableView = z.infer<typeof ModelTableViewSchema>
