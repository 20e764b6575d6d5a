// Cost of the tool pipeline per call: ToolRegistry.execute() of a no-op tool, (a) with no
// listeners and (b) with 10 pass-through listeners on each of the five stages (input-rewrite,
// pre-execute, execute, post-execute, result), each against calling the tool's execute() directly
// in the same run. Reports microseconds per call; ratio = value / baseline.
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition, ToolExec, ToolOutput } from '../src-shared/host/tools'
import { Kernel } from '../src-shared/kernel'
import { toolsPlugin } from '../src-main/tools'

import { line as benchLine, type BenchLine } from './measure'

const WARMUP_CALLS = 5_000
const TIMED_CALLS = 20_000
const LISTENERS_PER_STAGE = 10

const OUTPUT: ToolOutput = { content: 'ok' }
const noop: ToolDefinition<Record<string, never>> = {
  name: 'Noop',
  description: 'Does nothing.',
  inputSchema: z.object({}),
  execute: () => OUTPUT
}

const request: ToolCallRequest = { name: 'Noop', args: {}, callId: 'bench', sessionId: 'bench', cwd: '/' }

export async function run(): Promise<BenchLine[]> {
  const bare = pipeline(0)
  const busy = pipeline(LISTENERS_PER_STAGE)

  const direct = () => directCalls(noop)
  await direct()
  await timeCalls(() => bare.execute(request), WARMUP_CALLS)
  await timeCalls(() => busy.execute(request), WARMUP_CALLS)

  // Interleave baseline and measurement so both see the same machine state.
  const baselineA = await direct()
  const bareUs = await timeCalls(() => bare.execute(request), TIMED_CALLS)
  const baselineB = await direct()
  const busyUs = await timeCalls(() => busy.execute(request), TIMED_CALLS)

  return [
    line('execute(), no listeners', bareUs, baselineA),
    line(`execute(), ${LISTENERS_PER_STAGE} pass-through listeners on each of 5 stages`, busyUs, baselineB),
    line('added cost per listener', (busyUs - bareUs) / (5 * LISTENERS_PER_STAGE), baselineB)
  ]
}

function pipeline(listenersPerStage: number) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  const ctx = kernel.context
  ctx.tools.register(noop)
  for (let i = 0; i < listenersPerStage; i++) {
    ctx.on('tools/input-rewrite', (_call, next) => next())
    ctx.on('tools/pre-execute', (_call, next) => next())
    ctx.on('tools/execute', (_call, _control, next) => next())
    ctx.on('tools/post-execute', (_call, _result, _verdict, next) => next())
    ctx.on('tools/result', () => {})
  }
  return kernel.getService('tools')!
}

async function directCalls(tool: ToolDefinition<Record<string, never>>): Promise<number> {
  const exec: ToolExec = { signal: new AbortController().signal, token: 't', cwd: '/', sessionId: 'bench', env: {}, progress: () => {} }
  return timeCalls(async () => tool.execute({}, exec), TIMED_CALLS)
}

/** Microseconds per awaited call. */
async function timeCalls(call: () => Promise<unknown>, count: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await call()
  return ((performance.now() - started) * 1000) / count
}

function line(metric: string, value: number, baseline: number): BenchLine {
  return benchLine('tool-pipeline', metric, value, 'us/call', baseline)
}
