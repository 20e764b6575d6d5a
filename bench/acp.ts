// The editor's wait for the first word: time from `session/prompt` to the first
// `agent_message_chunk` of `seam acp`, against the same prompt's first token on stdout of
// `seam run` (from the moment it logs the session and submits the prompt), in the same run,
// both against the same loopback OpenAI-wire server. Each sample is a fresh session, so both
// include the session's first turn (session-start, the first model request): once in an agent
// process that already served a prompt (how an editor uses it), once as the first prompt of a
// fresh process (as cold as `seam run`). Needs `npm run build`.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeOpenAI } from '../test-support/fake-openai.mjs'
import { nextUpdate, SEAM_BIN, startAgent } from '../src-main/acp/test-client'
import { line, type BenchLine } from './measure'

const SAMPLES = 15
const REPLY = { text: 'The first words of the answer, then the rest of it.' }

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export async function run(): Promise<BenchLine[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-bench-acp-'))
  const workspace = join(dir, 'ws')
  await mkdir(workspace)
  const env = { ...process.env, SEAM_HOME: join(dir, 'home'), HOME: join(dir, 'user') }
  const server = await startFakeOpenAI(Array.from({ length: SAMPLES * 3 + 2 }, () => REPLY))
  const provider = ['--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm']
  try {
    const acpTimes: number[] = []
    const agent = startAgent(provider, env)
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    for (let i = 0; i < SAMPLES + 1; i++) {
      const { sessionId } = await agent.agent.request('session/new', { cwd: workspace, mcpServers: [] })
      const first = nextUpdate(agent, (u) => u.sessionUpdate === 'agent_message_chunk')
      const start = performance.now()
      const done = agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say something' }] })
      await first
      const elapsed = performance.now() - start
      await done
      if (i > 0) acpTimes.push(elapsed) // the first sample warms the process up
    }
    await agent.stop()

    // Cold: the first prompt of a fresh `seam acp` process, as `seam run`'s only prompt is.
    const coldTimes: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const fresh = startAgent(provider, env)
      await fresh.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
      const { sessionId } = await fresh.agent.request('session/new', { cwd: workspace, mcpServers: [] })
      const first = nextUpdate(fresh, (u) => u.sessionUpdate === 'agent_message_chunk')
      const start = performance.now()
      const done = fresh.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say something' }] })
      await first
      coldTimes.push(performance.now() - start)
      await done
      await fresh.stop()
    }

    const runTimes: number[] = []
    for (let i = 0; i < SAMPLES; i++) runTimes.push(await seamRunFirstToken(provider, workspace, env))
    const baseline = median(runTimes)
    return [
      line('acp', `session/prompt to first agent_message_chunk, new session in a running agent, median of ${SAMPLES} (baseline: seam run, prompt submitted to first stdout token)`, median(acpTimes), 'ms', baseline),
      line('acp', `session/prompt to first agent_message_chunk, first prompt of a fresh process, median of ${SAMPLES} (baseline: seam run, same)`, median(coldTimes), 'ms', baseline)
    ]
  } finally {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
}

/** `seam run`: from its "session <id>" line (printed as it submits the prompt) to the first byte of the answer. */
function seamRunFirstToken(provider: string[], workspace: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SEAM_BIN, 'run', '--workspace', workspace, ...provider, 'say something'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let submitted: number | undefined
    let firstToken: number | undefined
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (submitted === undefined && /^session \S+$/m.test(stderr)) submitted = performance.now()
    })
    child.stdout.on('data', () => {
      if (firstToken === undefined) firstToken = performance.now()
    })
    child.on('exit', (code) => {
      if (code !== 0 || submitted === undefined || firstToken === undefined) reject(new Error(`seam run failed (exit ${code}): ${stderr}`))
      else resolve(firstToken - submitted)
    })
  })
}
