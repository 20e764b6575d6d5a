// Token usage per step as durable events, priced from the model table; the session's totals
// (issue 16: context budget).
import { afterEach, describe, expect, it } from 'vitest'
import { usageTotals } from '../../src-shared/session/usage-totals'
import { buildModelRequest } from './step'
import { createLoopFixture, testTool, type LoopFixture } from './loop-fixture'

let f: LoopFixture | undefined
afterEach(async () => {
  await f?.cleanup()
  f = undefined
})

describe('usage/step events', () => {
  it('logs one usage/step per model request, after its assistant message, with the cost from the model prices; none is model-visible', async () => {
    f = await createLoopFixture({
      script: [
        { toolCalls: [{ name: 'echo' }], usage: { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 50, reasoningTokens: 20 } },
        { text: 'done', usage: { inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 30 } }
      ],
      setup: (_kernel, tools) => tools.register(testTool('echo')),
      settings: { model: { contextWindow: 10_000, prices: { input: 2, cachedInput: 0.5, output: 8 } } }
    })
    f.agent.send('go')
    await f.agent.whenIdle()
    const usage = f.ofType('usage/step')
    expect(usage.map((u) => [u.step, u.usage, u.contextWindow, u.provider, u.model])).toEqual([
      [0, { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 50, reasoningTokens: 20 }, 10_000, 'scripted', 'scripted-1'],
      [1, { inputTokens: 1200, cachedInputTokens: 1000, outputTokens: 30, reasoningTokens: 0 }, 10_000, 'scripted', 'scripted-1']
    ])
    // (200 * 2 + 800 * 0.5 + 50 * 8) / 1e6 and (200 * 2 + 1000 * 0.5 + 30 * 8) / 1e6
    expect(usage[0].costUsd).toBeCloseTo(0.0012, 10)
    expect(usage[1].costUsd).toBeCloseTo(0.00114, 10)
    const types = f.types()
    expect(types.indexOf('usage/step')).toBe(types.indexOf('assistant/message') + 1)

    const withoutUsage = f.log.events.filter((e) => e.type !== 'usage/step')
    expect(buildModelRequest(f.log.events)).toEqual(buildModelRequest(withoutUsage))

    expect(usageTotals(f.log.events)).toEqual({
      requests: 2,
      inputTokens: 2200,
      cachedInputTokens: 1800,
      outputTokens: 80,
      reasoningTokens: 20,
      costUsd: expect.closeTo(0.00234, 10) as number,
      unpriced: 0,
      contextTokens: 1230,
      contextWindow: 10_000,
      subagents: { count: 0, requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 }
    })
  })

  it('the totals include what finished subagents used (their subagent/end), without touching the context meter', () => {
    const end = (costUsd: number | undefined, steps: number) => ({
      type: 'subagent/end' as const, seq: 9, ts: 1, token: 't', agentId: 'a1', reason: 'completed' as const, steps, toolUseCount: 1, durationMs: 5,
      usage: { inputTokens: 300, outputTokens: 30, cachedInputTokens: 100 }, model: 'm', ...(costUsd !== undefined ? { costUsd } : {})
    })
    const step = { type: 'usage/step' as const, seq: 2, ts: 1, turnId: 't1', step: 1, provider: 'p', model: 'm', usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 10, reasoningTokens: 0 }, costUsd: 0.01 }
    const totals = usageTotals([step, end(0.02, 2), end(undefined, 3)])
    expect(totals).toMatchObject({ requests: 6, inputTokens: 1600, outputTokens: 70, cachedInputTokens: 200, unpriced: 3, contextTokens: 1010 })
    expect(totals.costUsd).toBeCloseTo(0.03, 10)
    expect(totals.subagents).toEqual({ count: 2, requests: 5, inputTokens: 600, outputTokens: 60, costUsd: 0.02 })
  })

  it('a model without a price logs usage without a cost, and the totals count it as unpriced', async () => {
    f = await createLoopFixture({ script: [{ text: 'hi', usage: { inputTokens: 10, outputTokens: 2 } }] })
    f.agent.send('go')
    await f.agent.whenIdle()
    const [usage] = f.ofType('usage/step')
    expect(usage.costUsd).toBeUndefined()
    expect(usage.contextWindow).toBeUndefined()
    expect(usageTotals(f.log.events)).toMatchObject({ requests: 1, unpriced: 1, costUsd: 0, contextTokens: 12 })
  })

  it('a stream without usage logs no usage/step', async () => {
    f = await createLoopFixture({ script: [{ text: 'hi' }] })
    f.agent.send('go')
    await f.agent.whenIdle()
    expect(f.ofType('usage/step')).toEqual([])
  })
})
