// Cost of the agent loop per tool call, with the in-process scripted model and a no-op tool:
// (a) one turn of 200 steps with one call each (every step re-derives the request from the log),
// (b) one turn of one step with 200 calls (concurrent tool, default cap of 10),
// each against ToolRegistry.execute() of the same no-op tool alone (the tool pipeline) in the
// same run. The session log is real (JSON Lines in a temp dir). Reports microseconds per call,
// wall time and CPU time (process.cpuUsage, user + system): on a loaded machine the wall time is
// mostly waiting for a core, the CPU time is the work; ratio = value / baseline.
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition, ToolOutput } from '../src-shared/host/tools'
import type { ScriptedReply } from '../test-support/scripted-model'
import { createLoopFixture } from '../src-main/agent/loop-fixture'

import { line as benchLine, type BenchLine } from './measure'

const CALLS = 200
// Steady state: V8 tiers the loop's functions up over the first several turns (two warm-up turns
// left most of them in the baseline tiers, and the timed turns paid for that compilation).
const WARMUP_RUNS = 10
const TIMED_RUNS = 15

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
  const steps: Cost[] = []
  const batch: Cost[] = []
  const alone: Cost[] = []
  // Interleaved so the loop and its baseline see the same machine state.
  for (let i = 0; i < TIMED_RUNS; i++) {
    alone.push(await pipelineAlone())
    steps.push(await loopTurn(manySteps))
    batch.push(await loopTurn(oneStep))
  }
  const wall = (costs: Cost[]) => median(costs.map((c) => c.wall))
  const cpu = (costs: Cost[]) => median(costs.map((c) => c.cpu))
  return [
    line(`loop per tool call, 1 turn of ${CALLS} steps x 1 call`, wall(steps), wall(alone)),
    line(`loop per tool call, 1 turn of 1 step x ${CALLS} calls`, wall(batch), wall(alone)),
    line(`loop CPU per tool call, 1 turn of ${CALLS} steps x 1 call`, cpu(steps), cpu(alone), 'us CPU/call'),
    line(`loop CPU per tool call, 1 turn of 1 step x ${CALLS} calls`, cpu(batch), cpu(alone), 'us CPU/call')
  ]
}

/** Microseconds per call: wall time, and CPU time of the whole process (user + system). */
interface Cost {
  wall: number
  cpu: number
}

/** Runs `work` (which makes `calls` tool calls) and returns its cost per call. */
async function costOf(calls: number, work: () => Promise<void>): Promise<Cost> {
  const cpuStart = process.cpuUsage()
  const started = performance.now()
  await work()
  const elapsed = performance.now() - started
  const used = process.cpuUsage(cpuStart)
  return { wall: (elapsed * 1000) / calls, cpu: (used.user + used.system) / calls }
}

/** Cost per tool call of one whole turn (send to idle), session setup excluded. */
async function loopTurn(shape: Shape): Promise<Cost> {
  const fixture = await createLoopFixture({
    script: (_request, index) => shape(index),
    settings: { maxSteps: CALLS + 1 },
    keepRequests: false,
    setup: (_kernel, tools) => void tools.register(noop)
  })
  try {
    const cost = await costOf(CALLS, async () => {
      fixture.agent.send('go')
      await fixture.agent.whenIdle()
    })
    const results = fixture.ofType('tool/result').length
    if (results !== CALLS) throw new Error(`expected ${CALLS} tool results, got ${results}`)
    return cost
  } finally {
    await fixture.cleanup()
  }
}

/** Cost per ToolRegistry.execute() of the same tool, nothing else. */
async function pipelineAlone(): Promise<Cost> {
  const fixture = await createLoopFixture({ setup: (_kernel, tools) => void tools.register(noop) })
  try {
    const request: ToolCallRequest = { name: 'Noop', args: {}, callId: 'bench', sessionId: fixture.log.id, turnId: 'turn-1', cwd: fixture.dir }
    return await costOf(CALLS * 10, async () => {
      for (let i = 0; i < CALLS * 10; i++) await fixture.tools.execute(request)
    })
  } finally {
    await fixture.cleanup()
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function line(metric: string, value: number, baseline: number, unit = 'us/call'): BenchLine {
  return benchLine('agent-loop', metric, value, unit, baseline)
}
