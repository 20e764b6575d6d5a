// What the session log's syncs cost the agent loop (issue 26), each against the same work with
// the log's durability bypassed (every durable flush made a plain write, in the same run):
// (a) a turn without tools (prompt, streamed answer, turn end) through the real loop and log;
// (b) a step whose one call is a tool declaring side effects (synced before it runs);
// (c) how long after turn/end is written the turn is on the device (the background sync), against
//     writing the turn's lines to a fresh file and fdatasyncing it, bare.
// Microseconds; sessions are real JSON Lines files in a temp dir; alternating rounds, medians.
import { closeSync, fdatasync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { z } from 'zod'
import type { ToolDefinition } from '../src-shared/host/tools'
import { createLoopFixture, type LoopFixture } from '../src-main/agent/loop-fixture'
import { line, type BenchLine } from './measure'

const TURNS = 100
const STEPS = 50
const ROUNDS = 5

const change: ToolDefinition<Record<string, never>> = {
  name: 'Change',
  description: 'Declares side effects; does nothing.',
  inputSchema: z.object({}),
  sideEffects: true,
  execute: () => ({ content: 'ok' })
}

/** The log as if it had no durability: every durable flush becomes a plain (written) flush. */
function bypassDurability(f: LoopFixture): void {
  const flush = f.log.flush.bind(f.log)
  f.log.flush = () => flush()
}

/** Microseconds per turn of TURNS turns without tools, one session. */
async function noToolTurns(bypass: boolean): Promise<number> {
  const f = await createLoopFixture({ script: () => ({ text: 'Sure, here is the answer.' }), keepRequests: false })
  if (bypass) bypassDurability(f)
  try {
    const started = performance.now()
    for (let i = 0; i < TURNS; i++) {
      f.agent.send(`question ${i}`)
      await f.agent.whenIdle()
    }
    return ((performance.now() - started) * 1000) / TURNS
  } finally {
    await f.cleanup()
  }
}

/** Microseconds per step of one turn of STEPS steps, each calling the side-effect tool once. */
async function sideEffectSteps(bypass: boolean): Promise<number> {
  const f = await createLoopFixture({
    script: (_request, index) => (index < STEPS ? { toolCalls: [{ name: 'Change' }] } : { text: 'done' }),
    settings: { maxSteps: STEPS + 1 },
    keepRequests: false,
    setup: (_kernel, tools) => void tools.register(change)
  })
  if (bypass) bypassDurability(f)
  try {
    const started = performance.now()
    f.agent.send('go')
    await f.agent.whenIdle()
    return ((performance.now() - started) * 1000) / STEPS
  } finally {
    await f.cleanup()
  }
}

/** Microseconds from turn/end's write to the turn being on the device, and a bare write + fdatasync of the same bytes to a new file. */
async function turnEndSync(): Promise<{ sync: number; bare: number }> {
  const f = await createLoopFixture({ script: () => ({ text: 'Sure.' }), keepRequests: false })
  try {
    let endWritten = 0
    f.log.onAppend((event) => {
      if (event.type === 'turn/end') endWritten = performance.now()
    })
    f.agent.send('question')
    await f.agent.whenIdle()
    await f.log.flush({ durable: true }) // shares the turn end's sync, in flight or done
    const sync = (performance.now() - endWritten) * 1000
    const bytes = readFileSync(f.log.path)
    const fd = openSync(join(f.dir, 'bare.jsonl'), 'a')
    try {
      const started = performance.now()
      writeSync(fd, bytes)
      await promisify(fdatasync)(fd)
      return { sync, bare: (performance.now() - started) * 1000 }
    } finally {
      closeSync(fd)
    }
  } finally {
    await f.cleanup()
  }
}

export async function run(): Promise<BenchLine[]> {
  await noToolTurns(false) // warm-up (JIT)
  await noToolTurns(true)
  await sideEffectSteps(false)
  const turns = { durable: [] as number[], bypassed: [] as number[] }
  const steps = { durable: [] as number[], bypassed: [] as number[] }
  const ends = { sync: [] as number[], bare: [] as number[] }
  for (let r = 0; r < ROUNDS; r++) {
    turns.bypassed.push(await noToolTurns(true))
    turns.durable.push(await noToolTurns(false))
    steps.bypassed.push(await sideEffectSteps(true))
    steps.durable.push(await sideEffectSteps(false))
    const end = await turnEndSync()
    ends.sync.push(end.sync)
    ends.bare.push(end.bare)
  }
  return [
    line('durability', 'a turn without tools (send to idle; turn end synced in the background), vs durability bypassed', median(turns.durable), 'us/turn', median(turns.bypassed)),
    line('durability', 'a step calling a side-effect tool (synced before it runs), vs durability bypassed', median(steps.durable), 'us/step', median(steps.bypassed)),
    line('durability', 'turn/end written to on the device (the background sync), vs a bare write + fdatasync of the same bytes', median(ends.sync), 'us', median(ends.bare))
  ]
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
