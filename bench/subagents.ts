// Benchmark: what running a trivial subagent adds (issue 27). On the real agent loop (kernel,
// tools, the subagents plugin, the host's childTurns, session logs on disk, an in-process scripted
// model answering at once): the Agent call of the built-in `general-purpose` agent whose one model
// request answers with text and no tool, from the call to its result (the tool/result's duration:
// definition look-up, the concurrency slot, the child's own log, its turn and its one request, the
// subagent/start and subagent/end records), against a plain turn making the same one request, from
// `send` to idle, in the same fixture. Medians of 31 alternating rounds after a warm-up; the
// difference is the overhead, with its 2 ms target as `bound`.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLoopFixture } from '../src-main/agent/loop-fixture'
import type { ModelRequest } from '../src-shared/model'
import subagents from '../plugins/subagents/index'
import { BUILTIN_AGENTS } from '../plugins/subagents/builtins'
import { line, type BenchLine } from './measure'

const ROUNDS = 31
const CHILD_PROMPT = BUILTIN_AGENTS[0].prompt.slice(0, 60)

export async function run(): Promise<BenchLine[]> {
  const home = await mkdtemp(join(tmpdir(), 'seam-bench-subagents-'))
  let mode: 'plain' | 'agent' = 'plain'
  const script = (request: ModelRequest) => {
    if (mode === 'plain' || request.system.startsWith(CHILD_PROMPT)) return { text: 'ok' }
    const last = request.messages.at(-1)
    // The parent: start the subagent, then end the turn once its result is in.
    return last?.role === 'user' && typeof last.content === 'string' ? { toolCalls: [{ name: 'Agent', args: { description: 'Say ok', prompt: 'Answer ok.' } }] } : { text: 'done' }
  }
  const fixture = await createLoopFixture({ script, keepRequests: false, setup: (kernel) => void kernel.plugin(subagents, { home }) })
  try {
    const plain: number[] = []
    const agent: number[] = []
    for (let r = 0; r < ROUNDS + 3; r++) {
      mode = 'plain'
      const t0 = performance.now()
      fixture.agent.send('hello')
      await fixture.agent.whenIdle()
      const plainMs = performance.now() - t0
      mode = 'agent'
      fixture.agent.send('delegate')
      await fixture.agent.whenIdle()
      const result = fixture.ofType('tool/result').at(-1)
      if (result?.name !== 'Agent' || result.isError) throw new Error(`the Agent call failed: ${result?.content ?? 'no result'}`)
      if (r < 3) continue // warm-up: module loading, the JIT
      plain.push(plainMs)
      agent.push(result.durationMs ?? 0)
    }
    const added = median(agent) - median(plain)
    return [
      line('subagents', 'a trivial subagent (one request, no tools), Agent call to its result, vs the same request as a plain turn', median(agent), 'ms', median(plain)),
      line('subagents', 'added by running it as a subagent (target < 2 ms)', added, 'ms', median(plain), { bound: 2 })
    ]
  } finally {
    await fixture.cleanup()
    await rm(home, { recursive: true, force: true })
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
