// Background commands (issue 28): a Bash call with `run_in_background: true` through the tool
// pipeline, from the call to the answer carrying the task id (its own process group under the
// host's death watcher, the output file opened, `task/started` handed to the plugin), against a
// bare spawn of the same `/bin/bash -c 'sleep 30'` until Node reports it started, in alternating
// rounds of the same run. Each task is stopped (and each bare child killed) before the next.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Kernel, definePlugin } from '../src-shared/kernel'
import { toolsPlugin } from '../src-main/tools'
import { builtinTools } from '../src-main/tools/builtin'
import backgroundTasks from '../plugins/background-tasks/index'
import { line, type BenchLine } from './measure'

const ROUNDS = 9
const CALLS_PER_ROUND = 5

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seam-bench-tasks-'))
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.plugin(backgroundTasks, { maxRunningPerSession: 1_000, stopGraceMs: 0 })
  kernel.plugin(definePlugin({ name: 'bench-bash', inject: ['tools'], apply: (ctx) => void ctx.tools.register(builtinTools({}, undefined, () => ctx.maybe('backgroundTasks'))[0]) }))
  const tools = kernel.getService('tools')!
  const tasks = kernel.getService('backgroundTasks')!
  try {
    const start = async (): Promise<void> => {
      const { result } = await tools.execute({ name: 'Bash', args: { command: 'sleep 30', run_in_background: true }, callId: 'bench', sessionId: 'bench', cwd: dir })
      if (result.isError || !/with ID: b[0-9a-z]{8}/.test(result.content)) throw new Error(`run_in_background failed: ${result.content}`)
    }
    const stopAll = async () => {
      for (const task of tasks.list('bench')) if (task.status === 'running') await tasks.stop('bench', task.id)
    }
    for (let i = 0; i < 3; i++) {
      await timed(start, stopAll)
      await timed(bareSpawn, async () => undefined)
    }
    const tool: number[] = []
    const bare: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      bare.push(await timed(bareSpawn, async () => undefined))
      tool.push(await timed(start, stopAll))
    }
    return [line('background-tasks', 'Bash run_in_background: call to task id returned (baseline: bare /bin/bash -c "sleep 30" spawn to started)', median(tool), 'ms/call', median(bare))]
  } finally {
    kernel.dispose()
    await rm(dir, { recursive: true, force: true })
  }
}

/** Median ms per call of `fn` over CALLS_PER_ROUND calls; `after` (untimed) cleans up each round. */
async function timed(fn: () => Promise<void>, after: () => Promise<void>): Promise<number> {
  let total = 0
  for (let i = 0; i < CALLS_PER_ROUND; i++) {
    const started = performance.now()
    await fn()
    total += performance.now() - started
  }
  await after()
  return total / CALLS_PER_ROUND
}

/** A bare spawn of its own group until Node says the process started; the group is killed at once (one synchronous signal, inside the timing). */
function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', 'sleep 30'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    child.on('error', reject)
    child.on('spawn', () => {
      process.kill(-child.pid!, 'SIGKILL')
      resolve()
    })
  })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
