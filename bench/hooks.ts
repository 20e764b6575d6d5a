// Cost of Claude Code hooks through the bridge (plugins/hooks-claude), measured with the real
// kernel, tool pipeline, session log and agent loop (scripted model):
// (1) the latency one trivial `true` PreToolUse hook adds to a tool call, against spawning
//     `/bin/sh -c true` directly in the same run (target: at most 1.5 ms above the bare spawn);
// (2) four 1-second hooks on one event: wall time of the call (target: <= 1.05 s), against four
//     bare `/bin/sh -c 'sleep 1'` spawned at once (Node's spawn is synchronous, so four spawns
//     start one after the other there too);
// (3) 100 tool calls with 5 hooks each, cap 8: total time of the turn (against the same turn
//     without hooks) and the peak number of hook processes at once (must be <= 8), both as the
//     limiter counts it and as the hooks themselves saw it (marks appended to a file).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { ToolCallRequest, ToolDefinition } from '../src-shared/host/tools'
import { createHarness, hooksOf, type Harness } from '../plugins/hooks-claude/test-harness'
import { line, type BenchLine } from './measure'

const noop: ToolDefinition<{ n?: number }> = {
  name: 'Noop',
  description: 'Does nothing.',
  inputSchema: z.object({ n: z.number().optional() }),
  concurrent: true,
  execute: () => ({ content: 'ok' })
}

export async function run(): Promise<BenchLine[]> {
  return [...(await oneTrivialHook()), ...(await fourSlowHooks()), ...(await manyCalls())]
}

// ---- (1) one `true` hook ----------------------------------------------------------------------

const ROUNDS = 7
const CALLS_PER_ROUND = 60

async function oneTrivialHook(): Promise<BenchLine[]> {
  const withHook = await session({ user: { hooks: hooksOf(['PreToolUse', 'Noop', 'true']) } })
  const without = await session({})
  try {
    const callWith = caller(withHook)
    const callWithout = caller(without)
    // Warm up all three.
    for (let i = 0; i < 20; i++) {
      await bareSpawn('true')
      await callWith()
      await callWithout()
    }
    const bare: number[] = []
    const hooked: number[] = []
    const plain: number[] = []
    // Interleaved rounds: the machine's load hits all three alike.
    for (let r = 0; r < ROUNDS; r++) {
      bare.push(await perCall(() => bareSpawn('true')))
      hooked.push(await perCall(callWith))
      plain.push(await perCall(callWithout))
    }
    const spawnMs = median(bare)
    const added = median(hooked) - median(plain)
    const recorded = withHook.events('hook/result').length
    if (recorded === 0) throw new Error('the hook never ran')
    return [
      line('hooks', 'tool call without hooks', median(plain), 'ms/call', median(plain)),
      line('hooks', 'latency one `true` PreToolUse hook adds to a tool call (baseline: bare /bin/sh -c true spawn)', added, 'ms', spawnMs),
      line('hooks', 'bridge cost above the bare spawn (target <= 1.5 ms; baseline: bare spawn)', added - spawnMs, 'ms', spawnMs)
    ]
  } finally {
    await withHook.cleanup()
    await without.cleanup()
  }
}

async function perCall(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < CALLS_PER_ROUND; i++) await fn()
  return (performance.now() - started) / CALLS_PER_ROUND
}

function caller(h: Harness): () => Promise<unknown> {
  const tools = h.kernel.getService('tools')
  if (!tools) throw new Error('no tools service')
  let n = 0
  return () => {
    const request: ToolCallRequest = { name: 'Noop', args: {}, callId: `bench-${n++}`, sessionId: h.log.id, turnId: 'turn-1', cwd: h.workspace }
    return tools.execute(request)
  }
}

function bareSpawn(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] })
    child.stdin.on('error', () => undefined) // EPIPE: the shell may exit before reading
    child.stdin.end('{}')
    child.stdout.resume()
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', () => resolve())
  })
}

// ---- (2) four 1-second hooks --------------------------------------------------------------------

async function fourSlowHooks(): Promise<BenchLine[]> {
  const hooks = hooksOf(...['a', 'b', 'c', 'd'].map((tag): [string, string, string] => ['PreToolUse', 'Noop', `sleep 1 # ${tag}`]))
  const h = await session({ user: { hooks } })
  try {
    const call = caller(h)
    const started = performance.now()
    await call()
    const wall = performance.now() - started
    const bareStarted = performance.now()
    await Promise.all([1, 2, 3, 4].map(() => bareSpawn('sleep 1')))
    const bare = performance.now() - bareStarted
    const ran = h.events('hook/result').length
    if (ran !== 4) throw new Error(`expected 4 hook runs, got ${ran}`)
    return [line('hooks', 'four 1-second PreToolUse hooks on one call: wall time (target <= 1050 ms; baseline: four bare sleep 1 spawned at once)', wall, 'ms', bare)]
  } finally {
    await h.cleanup()
  }
}

// ---- (3) 100 calls x 5 hooks, cap 8 ---------------------------------------------------------------

const STEPS = 10
const CALLS_PER_STEP = 10
const CAP = 8

async function manyCalls(): Promise<BenchLine[]> {
  const script = (_request: unknown, index: number) =>
    index < STEPS ? { toolCalls: Array.from({ length: CALLS_PER_STEP }, (_, i) => ({ name: 'Noop', args: { n: index * CALLS_PER_STEP + i } })) } : { text: 'done' }
  const marks = 'marks.txt'
  const hooks = hooksOf(...[1, 2, 3, 4, 5].map((k): [string, string, string] => ['PreToolUse', 'Noop', `echo + >> ${marks}; sleep 0.01; echo - >> ${marks} # hook ${k}`]))
  const plain = await session({ script, settings: { maxSteps: STEPS + 1 } })
  const hooked = await session({ user: { hooks }, script, settings: { maxSteps: STEPS + 1 }, config: { concurrency: CAP } })
  try {
    const baseline = await turn(plain)
    const total = await turn(hooked)
    const results = hooked.events('hook/result').length
    if (results !== STEPS * CALLS_PER_STEP * 5) throw new Error(`expected ${STEPS * CALLS_PER_STEP * 5} hook runs, got ${results}`)
    let running = 0
    let seen = 0
    for (const mark of readFileSync(join(hooked.workspace, marks), 'utf8').split('\n')) {
      if (mark === '+') seen = Math.max(seen, ++running)
      if (mark === '-') running--
    }
    const peak = hooked.service().stats().peak
    return [
      line('hooks', `${STEPS * CALLS_PER_STEP} tool calls x 5 hooks, cap ${CAP}: total time of the turn (baseline: the same turn without hooks)`, total, 'ms', baseline),
      line('hooks', `${STEPS * CALLS_PER_STEP} tool calls x 5 hooks: peak hook processes at once, limiter count (must be <= ${CAP}; baseline: the cap)`, peak, 'processes', CAP),
      line('hooks', `${STEPS * CALLS_PER_STEP} tool calls x 5 hooks: peak hook processes at once, as the hooks saw it (baseline: the cap)`, seen, 'processes', CAP)
    ]
  } finally {
    await plain.cleanup()
    await hooked.cleanup()
  }
}

async function turn(h: Harness): Promise<number> {
  const started = performance.now()
  await h.run('go')
  const elapsed = performance.now() - started
  const results = h.events('tool/result').length
  if (results !== STEPS * CALLS_PER_STEP) throw new Error(`expected ${STEPS * CALLS_PER_STEP} tool results, got ${results}`)
  return elapsed
}

// ---- shared ---------------------------------------------------------------------------------------

async function session(options: Parameters<typeof createHarness>[0]): Promise<Harness> {
  const h = await createHarness({ tools: [noop], ...options })
  await h.agent.start() // fires session-start: the bridge knows the session, so runs are recorded in it
  return h
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
