// How long `seam` takes to start: `seam --version` through the built CLI (every module its start
// loads: the host, the plugins, zod, yaml, the shell parser), against a bare `node -e 0`; and what
// the model and MCP SDKs would add if the start loaded them (as it did before they became lazy:
// src-main/llm/sdk-modules.ts, plugins/mcp/sdk-runtime.ts). CPU time is the child's own
// (`process.cpuUsage()` at its exit), so the figures hold on a loaded machine; best of 9 rounds.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
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
  const match = /@cpu (\{.*\})/.exec(child.stderr)
  if (child.status !== 0 || !match) throw new Error(`bench child failed (${child.status}): ${child.stderr}`)
  const usage = JSON.parse(match[1]) as { user: number; system: number }
  return { cpu: (usage.user + usage.system) / 1000, wall }
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
  return [
    line('cli-start', 'seam --version, CPU (vs bare node)', r.version.cpu, 'ms', r.bare.cpu),
    line('cli-start', 'seam --version, wall (vs bare node)', r.version.wall, 'ms', r.bare.wall),
    line('cli-start', 'with the model and MCP SDKs loaded at start, CPU (vs lazy)', r.eager.cpu, 'ms', r.version.cpu)
  ]
}
