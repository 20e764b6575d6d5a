// Benchmark: building the model's history over a long turn (issue 11, "sessions of any size").
// One turn of N steps (1k, 10k) through the real agent loop: the in-process scripted model asks
// for one no-op tool call per step, the session log is real (JSON Lines in a temp dir), and every
// step builds its request from the log's cached history. The value is the cost per step over the
// last tenth of the turn; the baseline is the cost per step over the first tenth, in the same run.
// A history that copies every message each step grows with the turn (ratio >> 1); a linear one
// stays near 1 (what remains is the request's own array of references). Median of 3 turns each.
import { z } from 'zod'
import type { ToolDefinition, ToolOutput } from '../src-shared/host/tools'
import { createLoopFixture } from '../src-main/agent/loop-fixture'
import { line, type BenchLine } from './measure'

const OUTPUT: ToolOutput = { content: 'ok' }
const noop: ToolDefinition<Record<string, never>> = {
  name: 'Noop',
  description: 'Does nothing.',
  inputSchema: z.object({}),
  sideEffects: false,
  execute: () => OUTPUT
}

export async function run(): Promise<BenchLine[]> {
  const lines: BenchLine[] = []
  await turnOf(1_000) // warm-up (JIT)
  for (const steps of [1_000, 10_000]) {
    const runs = [await turnOf(steps), await turnOf(steps), await turnOf(steps)]
    const label = `${steps / 1000}k`
    lines.push(line('history', `per step at the end of a turn of ${label} steps (last tenth, vs first tenth)`, median(runs.map((r) => r.last)), 'us/step', median(runs.map((r) => r.first))))
  }
  return lines
}

/** Microseconds per step over the first and the last tenth of one turn of `steps` steps. */
async function turnOf(steps: number): Promise<{ first: number; last: number }> {
  const startedAt: number[] = []
  const fixture = await createLoopFixture({
    script: (_request, index) => {
      startedAt.push(performance.now())
      return index < steps ? { toolCalls: [{ name: 'Noop' }] } : { text: 'done' }
    },
    settings: { maxSteps: steps + 1 },
    keepRequests: false,
    setup: (_kernel, tools) => void tools.register(noop)
  })
  try {
    fixture.agent.send('go')
    await fixture.agent.whenIdle()
    if (startedAt.length !== steps + 1) throw new Error(`expected ${steps + 1} model requests, got ${startedAt.length}`)
    const tenth = Math.floor(steps / 10)
    const perStep = (from: number, to: number): number => ((startedAt[to] - startedAt[from]) * 1000) / (to - from)
    return { first: perStep(0, tenth), last: perStep(steps - tenth, steps) }
  } finally {
    await fixture.cleanup()
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
