// Cost of the agent loop per tool call, with the in-process scripted model and a no-op tool:
// (a) one turn of 200 steps with one call each (every step re-derives the request from the log),
// (b) one turn of one step with 200 calls (concurrent tool, default cap of 10),
// each against ToolRegistry.execute() of the same no-op tool alone (the tool pipeline) in the
// same run. The session log is real (JSON Lines in a temp dir). Reports microseconds per call;
// ratio = value / baseline.
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition, ToolOutput } from '../src-shared/host/tools'
import type { ScriptedReply } from '../test-support/scripted-model'
import { createLoopFixture } from '../src-main/agent/loop-fixture'

import { line as benchLine, type BenchLine } from './measure'

const CALLS = 200
const WARMUP_RUNS = 2
const TIMED_RUNS = 5

const OUTPUT: ToolOutput = { content: 'ok' }
const noop: ToolDefinition<Record<string, never>> = {
  name: 'Noop',
  description: 'Does nothing.',
  inputSchema: z.object({}),
  concurrent: true,
  execute: () => OUTPUT
}

type Shape = (index: number) => ScriptedReply

const manySteps: Shape = (i) => (i < CALLS ? { toolCalls: [{ name: 'Noop' }] } : { text: 'done' })
const oneStep: Shape = (i) => (i === 0 ? { toolCalls: Array.from({ length: CALLS }, () => ({ name: 'Noop' })) } : { text: 'done' })

export async function run(): Promise<BenchLine[]> {
  for (let i = 0; i < WARMUP_RUNS; i++) {
    await loopTurn(manySteps)
    await loopTurn(oneStep)
    await pipelineAlone()
  }
  const steps: number[] = []
  const batch: number[] = []
  const alone: number[] = []
  // Interleaved so the loop and its baseline see the same machine state.
  for (let i = 0; i < TIMED_RUNS; i++) {
    alone.push(await pipelineAlone())
    steps.push(await loopTurn(manySteps))
    batch.push(await loopTurn(oneStep))
  }
  const baseline = median(alone)
  return [
    line(`loop per tool call, 1 turn of ${CALLS} steps x 1 call`, median(steps), baseline),
    line(`loop per tool call, 1 turn of 1 step x ${CALLS} calls`, median(batch), baseline)
  ]
}

/** Microseconds per tool call for one whole turn (send to idle), session setup excluded. */
async function loopTurn(shape: Shape): Promise<number> {
  const fixture = await createLoopFixture({
    script: (_request, index) => shape(index),
    settings: { maxSteps: CALLS + 1 },
    keepRequests: false,
    setup: (_kernel, tools) => void tools.register(noop)
  })
  try {
    const started = performance.now()
    fixture.agent.send('go')
    await fixture.agent.whenIdle()
    const elapsed = performance.now() - started
    const results = fixture.ofType('tool/result').length
    if (results !== CALLS) throw new Error(`expected ${CALLS} tool results, got ${results}`)
    return (elapsed * 1000) / CALLS
  } finally {
    await fixture.cleanup()
  }
}

/** Microseconds per ToolRegistry.execute() of the same tool, nothing else. */
async function pipelineAlone(): Promise<number> {
  const fixture = await createLoopFixture({ setup: (_kernel, tools) => void tools.register(noop) })
  try {
    const request: ToolCallRequest = { name: 'Noop', args: {}, callId: 'bench', sessionId: fixture.log.id, turnId: 'turn-1', cwd: fixture.dir }
    const started = performance.now()
    for (let i = 0; i < CALLS * 10; i++) await fixture.tools.execute(request)
    return ((performance.now() - started) * 1000) / (CALLS * 10)
  } finally {
    await fixture.cleanup()
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function line(metric: string, value: number, baseline: number): BenchLine {
  return benchLine('agent-loop', metric, value, 'us/call', baseline)
}
