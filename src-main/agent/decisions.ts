// S2: each agent waterfall returns a Decision from its own union. Anything else a listener
// returns is a listener failure; the loop turns it into a turn error (S20), never an allow.
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import type { ContinuationDecision, PromptDecision, ToolBatchDecision } from '../../src-shared/host/agent'

const PromptDecisionSchema: z.ZodType<PromptDecision> = z.discriminatedUnion('action', [
  z.object({ action: z.literal('allow'), content: z.string().optional(), additionalContext: z.array(z.string()).optional() }),
  z.object({ action: z.literal('block'), reason: z.string(), by: z.string().optional() })
])

const ContinuationDecisionSchema: z.ZodType<ContinuationDecision> = z.discriminatedUnion('action', [
  z.object({ action: z.literal('stop') }),
  z.object({ action: z.literal('continue'), reason: z.string().optional(), by: z.string().optional(), additionalContext: z.array(z.string()).optional() })
])

const ToolBatchDecisionSchema: z.ZodType<ToolBatchDecision> = z.discriminatedUnion('action', [
  z.object({ action: z.literal('continue'), additionalContext: z.array(z.string()).optional() }),
  z.object({ action: z.literal('stop'), reason: z.string(), by: z.string().optional() })
])

export class InvalidDecisionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidDecisionError'
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown, seam: string): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new InvalidDecisionError(formatZodError(`${seam} returned an invalid decision`, result.error))
  return result.data
}

export const checkPromptDecision = (value: unknown): PromptDecision => check(PromptDecisionSchema, value, 'agent/prompt-submit')
export const checkContinuationDecision = (value: unknown): ContinuationDecision =>
  check(ContinuationDecisionSchema, value, 'agent/turn-continuation')
export const checkToolBatchDecision = (value: unknown): ToolBatchDecision => check(ToolBatchDecisionSchema, value, 'agent/tool-batch')
