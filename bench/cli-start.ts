// How long `seam` takes to start: `seam --version` through the built CLI (every module its start
// loads: the host, the plugins, zod, yaml, the shell parser), against a bare `node -e 0`; and what
// the model and MCP SDKs would add if the start loaded them (as it did before they became lazy:
// src-main/llm/sdk-modules.ts, plugins/mcp/sdk-runtime.ts). CPU time is the child's own
// (`process.cpuUsage()` at its exit), so the figures hold on a loaded machine; best of 9 rounds.
// Then a whole `seam run` of one prompt against the loopback Anthropic-wire server (the provider's
// SDK loaded, one model request, the session written), against `seam --version`: what every test
// and every scripted use of `seam run` pays; and one whose model calls Bash once and then answers
// (two responses read, the shell parser loaded, a shell run), against that one-prompt run.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startFakeAnthropic } from '../test-support/fake-anthropic.mjs'
import { line, type BenchLine } from './measure'

const root = join(import.meta.dirname, '..')
const cli = pathToFileURL(join(root, 'out', 'main', 'cli.js')).href
const REPORT = `data:text/javascript,process.on("exit",()=>process.stderr.write("\\n@cpu "+JSON.stringify(process.cpuUsage())))`
const SDKS = ['@anthropic-ai/sdk', 'openai', '@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/streamableHttp.js', '@modelcontextprotocol/sdk/client/sse.js', 'ajv']

/** CPU ms (user + system) and wall ms of one child running `code` as an ES module. */
function once(code: string): { cpu: number; wall: number } {
  const start = process.hrtime.bigint()
  const child = spawnSync(process.execPath, ['--import', REPORT, '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' })
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  return { cpu: reportedCpu(child.status, child.stderr), wall }
}

function reportedCpu(status: number | null, stderr: string): number {
  const match = /@cpu (\{.*\})/.exec(stderr)
  if (status !== 0 || !match) throw new Error(`bench child failed (${status}): ${stderr}`)
  const usage = JSON.parse(match[1]) as { user: number; system: number }
  return (usage.user + usage.system) / 1000
}

/** One answer of the loopback server's script: text, or tool calls (the next answer follows their results). */
type Answer = { text: string } | { toolCalls: Array<{ name: string; args: Record<string, unknown> }> }

/**
 * CPU ms of `seam run` of one prompt whose model answers with `answers` in order, best of
 * `rounds`; the server runs in this process, so the child is spawned, not run synchronously.
 */
async function oneRun(rounds: number, answers: Answer[]): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'seam-bench-cli-'))
  const server = await startFakeAnthropic(Array.from({ length: rounds }, () => answers).flat())
  try {
    let best = Infinity
    for (let round = 0; round < rounds; round++) {
      const args = ['--import', REPORT, join(root, 'bin', 'seam.mjs'), 'run', '--workspace', dir, '--trust-workspace', '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'BENCH_KEY', '--model', 'claude-bench', '--approve', 'allow', 'say hi']
      const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, SEAM_HOME: join(dir, 'seam'), HOME: dir, BENCH_KEY: 'sk-bench' }, stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
      best = Math.min(best, reportedCpu(status, stderr))
    }
    return best
  } finally {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
}

function best(codes: Record<string, string>, rounds = 9): Record<string, { cpu: number; wall: number }> {
  const out: Record<string, { cpu: number; wall: number }> = {}
  for (let round = 0; round < rounds; round++) {
    for (const [name, code] of Object.entries(codes)) {
      const m = once(code)
      const prev = out[name]
      out[name] = { cpu: Math.min(prev?.cpu ?? Infinity, m.cpu), wall: Math.min(prev?.wall ?? Infinity, m.wall) }
    }
  }
  return out
}

export async function run(): Promise<BenchLine[]> {
  const version = `const { runCli } = await import(${JSON.stringify(cli)}); await runCli(['--version'])`
  const eager = `await Promise.all(${JSON.stringify(SDKS)}.map((m) => import(m))); ${version}`
  const r = best({ bare: '0', version, eager })
  const turn = await oneRun(7, [{ text: 'Done.' }])
  const bashTurn = await oneRun(7, [{ toolCalls: [{ name: 'Bash', args: { command: 'echo hi' } }] }, { text: 'Done.' }])
  return [
    line('cli-start', 'seam --version, CPU (vs bare node)', r.version.cpu, 'ms', r.bare.cpu),
    line('cli-start', 'seam --version, wall (vs bare node)', r.version.wall, 'ms', r.bare.wall),
    line('cli-start', 'with the model and MCP SDKs loaded at start, CPU (vs lazy)', r.eager.cpu, 'ms', r.version.cpu),
    line('cli-start', 'seam run, one prompt answered on the Anthropic wire, CPU (vs seam --version)', turn, 'ms', r.version.cpu),
    line('cli-start', 'seam run, one Bash call then the answer, CPU (vs one prompt answered)', bashTurn, 'ms', turn)
  ]
}
