// Deadlines for tool calls (S13): a tools/execute wrapper. The deadline is the call's numeric
// `timeout` argument (ms, where the tool's schema has one, capped by maxTimeoutMs), else the
// tool's timeoutMs, else defaultTimeoutMs. At the deadline the signal the tool sees aborts; a
// tool then has graceMs to hand back what it has, after which it is abandoned. Either way the
// call's result is a TIMEOUT error.
import { z } from 'zod'
import type { ExecControl, SealedCall, ToolResult } from '@seam/sdk'
import { definePlugin } from '@seam/sdk'
import '@seam/sdk'

export const ToolTimeoutConfigSchema = z
  .object({
    /** Deadline for tools that declare no timeoutMs. */
    defaultTimeoutMs: z.number().int().positive().default(120_000),
    /** Upper bound for a per-call `timeout` argument. */
    maxTimeoutMs: z.number().int().positive().default(600_000),
    /** After the deadline aborts the signal: how long a tool may take to return its partial output. */
    graceMs: z.number().int().min(0).default(2_500),
    /** For a tool that ends its own run at its deadline (`endsAtOwnDeadline`, Bash): how long after that deadline this one backstops it. */
    ownDeadlineSlackMs: z.number().int().min(0).default(5_000)
  })
  .strict()
  .prefault({})

export type ToolTimeoutConfig = z.output<typeof ToolTimeoutConfigSchema>

export default definePlugin({
  name: 'tool-timeout',
  schema: ToolTimeoutConfigSchema,
  inject: ['tools'],
  apply(ctx, config) {
    const tools = ctx.get('tools')
    ctx.on('tools/execute', (call, control, next) => {
      const tool = tools.get(call.name)
      const ms = deadlineFor(call, tool?.timeoutMs, config) + (tool?.endsAtOwnDeadline ? config.ownDeadlineSlackMs : 0)
      return withDeadline(call, control, next, ms, config.graceMs)
    })
  }
})

/** The deadline of one call, in ms. */
export function deadlineFor(call: SealedCall, toolTimeoutMs: number | undefined, config: ToolTimeoutConfig): number {
  const requested = call.args.timeout
  if (typeof requested === 'number' && Number.isFinite(requested) && requested > 0) return Math.min(requested, config.maxTimeoutMs)
  return toolTimeoutMs ?? config.defaultTimeoutMs
}

async function withDeadline(call: SealedCall, control: ExecControl, next: () => Promise<ToolResult>, ms: number, graceMs: number): Promise<ToolResult> {
  const deadline = new AbortController()
  const caller = control.signal
  control.signal = AbortSignal.any([caller, deadline.signal])
  let timer: ReturnType<typeof setTimeout> | undefined
  let expired = false
  // A cancelled call is the pipeline's to abandon: no deadline timer may outlive it (and keep a
  // headless run from exiting for up to the maximum timeout).
  const onCancel = () => clearTimeout(timer)
  caller.addEventListener('abort', onCancel, { once: true })
  // Resolves `undefined` when the deadline plus grace passes without a result.
  const abandoned = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      expired = true
      deadline.abort(new DOMException(`Tool ${call.name} timed out after ${ms} ms`, 'TimeoutError'))
      timer = graceMs > 0 ? setTimeout(resolve, graceMs, undefined) : undefined
      if (graceMs === 0) resolve(undefined)
    }, ms)
  })
  try {
    const result = await Promise.race([next(), abandoned])
    if (!expired) return result as ToolResult
    return timedOut(call.name, ms, result)
  } finally {
    clearTimeout(timer)
    caller.removeEventListener('abort', onCancel)
  }
}

function timedOut(name: string, ms: number, partial: ToolResult | undefined): ToolResult {
  const message = `Tool ${name} timed out after ${ms} ms`
  if (partial === undefined || partial.content === '') return { isError: true, code: 'TIMEOUT', content: message }
  const result: ToolResult = { isError: true, code: 'TIMEOUT', content: `${message}. What it returned when stopped:\n${partial.content}` }
  if (partial.structured !== undefined) result.structured = partial.structured
  return result
}
