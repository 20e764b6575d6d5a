// A workspace where, mid-turn, three kinds of child process are running at once: a stdio MCP
// server, a background command (Bash `run_in_background`) and a Claude Code PreToolUse hook that
// never answers. Each writes its own pid to a file, so a test can signal the front end (`seam run`,
// `seam acp`, the web host) and then check that none of them outlived it (issue 25).
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ScriptStep } from './scripted-turns.mjs'
import type { OpenAIRequestBody } from './fake-openai.mjs'

// A minimal MCP server: writes its pid, answers initialize and tools/list, runs until stdin ends.
const PID_SERVER = `
import { writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
writeFileSync(process.argv[2], String(process.pid))
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line)
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'pid-server', version: '1.0.0' } } })
  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [] } })
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no ' + m.method } })
})
`

export type StopScenarioProcess = 'hook' | 'server' | 'background'

export interface StopScenario {
  /** The model's script: a background command, then a foreground Bash call the hook holds. */
  script: ScriptStep<OpenAIRequestBody>[]
  /** True once every process has written its pid. */
  allStarted(): boolean
  /** The pids the processes wrote. */
  pids(): Promise<Record<StopScenarioProcess, number>>
}

export async function prepareStopScenario(workspace: string): Promise<StopScenario> {
  const files: Record<StopScenarioProcess, string> = {
    hook: join(workspace, 'hook.pid'),
    server: join(workspace, 'server.pid'),
    background: join(workspace, 'background.pid')
  }
  await writeFile(join(workspace, 'pid-server.mjs'), PID_SERVER)
  await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { pids: { command: process.execPath, args: [join(workspace, 'pid-server.mjs'), files.server] } } }))
  await mkdir(join(workspace, '.claude'), { recursive: true })
  // The hook lets the background call through, then holds the next Bash call: its shell writes
  // its pid and becomes a long sleep (same pid).
  const hook = {
    type: 'command',
    command: `input=$(cat); case "$input" in *run_in_background*) exit 0;; esac; echo $$ > '${files.hook}'; exec sleep 60`
  }
  await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }))
  return {
    script: [
      { toolCalls: [{ name: 'Bash', args: { command: `echo $$ > '${files.background}'; exec sleep 60`, run_in_background: true } }] },
      { toolCalls: [{ name: 'Bash', args: { command: 'echo never' } }] },
      { text: 'never' }
    ],
    allStarted: () => Object.values(files).every((file) => existsSync(file)),
    async pids() {
      const entries = await Promise.all(Object.entries(files).map(async ([what, file]) => [what, Number((await readFile(file, 'utf8')).trim())] as const))
      return Object.fromEntries(entries) as Record<StopScenarioProcess, number>
    }
  }
}
