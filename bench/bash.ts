// When a Bash result is delivered (issue 26):
// (1) the Bash tool running `true` (its own process group under the host's death watcher, the
//     session's cwd tracking) from the call to its result, against a bare spawn of the same
//     `/bin/bash -c true` waiting for its 'close', in alternating rounds (target: at most 5 ms
//     above the bare spawn);
// (2) the built `seam run` against the loopback OpenAI-wire server: the time from the end of a
//     model response carrying a Bash `true` tool_use to the next model request, against the same
//     gap for a Read of a small file (no process) in the same run. This is the measure the issue
//     compares with Claude Code (bench/README.md says how).
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ToolExec } from '../src-shared/host/tools'
import { bashTool } from '../src-main/tools/builtin/bash'
import { startFakeOpenAI, type OpenAIRequestBody } from '../test-support/fake-openai.mjs'
import type { ScriptStep } from '../test-support/scripted-turns.mjs'
import { line, type BenchLine } from './measure'

const ROOT = path.resolve(import.meta.dirname, '..')

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seam-bench-bash-'))
  try {
    return [...(await toolCall(dir)), ...(await toolUseToNextRequest(dir))]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

// ---- (1) the tool against a bare spawn -------------------------------------------------------

const ROUNDS = 9
const CALLS_PER_ROUND = 20

async function toolCall(dir: string): Promise<BenchLine[]> {
  let cwd = dir
  const exec: ToolExec = {
    signal: new AbortController().signal,
    token: 'bench',
    cwd,
    sessionId: 'bench',
    env: {},
    progress: () => undefined,
    moveCwd: (to) => (cwd = to)
  }
  const call = async (): Promise<void> => {
    const output = await bashTool.execute({ command: 'true', description: 'bench' }, exec)
    if (output.isError) throw new Error(`Bash true failed: ${output.content}`)
  }
  for (let i = 0; i < 10; i++) {
    await call()
    await bareSpawn()
  }
  const tool: number[] = []
  const bare: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    bare.push(await perCall(bareSpawn))
    tool.push(await perCall(call))
  }
  const value = median(tool)
  const baseline = median(bare)
  return [
    line('bash', 'Bash `true`: call to result delivered (baseline: bare /bin/bash -c true spawn to close)', value, 'ms/call', baseline),
    line('bash', 'Bash result delivered after exit, above the bare spawn (target <= 5 ms; baseline: bare spawn)', value - baseline, 'ms', baseline)
  ]
}

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.resume()
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', () => resolve())
  })
}

async function perCall(fn: () => Promise<void>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < CALLS_PER_ROUND; i++) await fn()
  return (performance.now() - started) / CALLS_PER_ROUND
}

// ---- (2) tool_use to the next model request, through the CLI ----------------------------------

const STEPS = 8

async function toolUseToNextRequest(dir: string): Promise<BenchLine[]> {
  await writeFile(path.join(dir, 'small.txt'), 'one line\n')
  const bash = await gaps(dir, { name: 'Bash', args: { command: 'true', description: 'bench' } })
  const read = await gaps(dir, { name: 'Read', args: { file_path: path.join(dir, 'small.txt') } })
  return [
    line('bash', `seam run: end of a response with a Bash \`true\` tool_use to the next model request, median of ${STEPS} (baseline: the same for a Read)`, median(bash), 'ms', median(read))
  ]
}

/** Each gap between a response's end (tool_use) and the arrival of the request after it. */
async function gaps(workspace: string, toolCall: { name: string; args: Record<string, unknown> }): Promise<number[]> {
  const arrived: number[] = []
  const step: ScriptStep<OpenAIRequestBody> = (_body, ctx) => {
    arrived[ctx.index] = performance.now()
    return ctx.index < STEPS ? { toolCalls: [toolCall] } : { text: 'done' }
  }
  const server = await startFakeOpenAI(Array.from({ length: STEPS + 1 }, () => step))
  const ended: number[] = []
  try {
    const home = await mkdtemp(path.join(tmpdir(), 'seam-bench-bash-home-'))
    const host = spawn(
      process.execPath,
      [path.join(ROOT, 'bin/seam.mjs'), 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'fake', '--approve', 'allow', 'go'],
      { cwd: workspace, env: { ...process.env, SEAM_HOME: home, OPENAI_API_KEY: 'bench' }, stdio: 'ignore' }
    )
    const watching = new Set<number>()
    const watch = setInterval(() => {
      for (const request of server.requests) {
        if (watching.has(request.index)) continue
        watching.add(request.index)
        void request.closed.then(() => (ended[request.index] = performance.now()))
      }
    }, 1)
    const code = await new Promise<number | null>((resolve) => host.on('exit', resolve))
    clearInterval(watch)
    await rm(home, { recursive: true, force: true })
    if (code !== 0) throw new Error(`seam run exited with ${code}`)
  } finally {
    await server.close()
  }
  if (arrived.length !== STEPS + 1) throw new Error(`expected ${STEPS + 1} model requests, got ${arrived.length}`)
  return Array.from({ length: STEPS }, (_, i) => arrived[i + 1]! - ended[i]!)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
