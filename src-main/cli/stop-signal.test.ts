// Issue 25: a stop signal to `seam run` while a hook and an MCP server run ends the turn cleanly:
// the turn is cancelled and logged, the hook and the MCP server are gone, and the exit status is
// the conventional one (SIGTERM 143, SIGINT 130, SIGHUP 129). Real processes throughout: the built
// CLI, a Claude Code hook that sleeps, a stdio MCP server, a loopback provider.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'
import { isAlive, waitFor, waitUntilDead } from '../process/liveness'

let home: string
let root: string
useCliScratch('cli-signal', (dirs) => ({ home, workspace: root } = dirs))

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

it.each([
  ['SIGTERM', 143],
  ['SIGINT', 130],
  ['SIGHUP', 129]
] as const)('%s to seam run while a hook and an MCP server run: the turn ends cancelled in the log, no process is left, exit %i', async (signal, status) => {
  const workspace = await mkdtemp(join(root, `${signal}-`))
  const hookPid = join(workspace, 'hook.pid')
  const serverPid = join(workspace, 'server.pid')
  await writeFile(join(workspace, 'pid-server.mjs'), PID_SERVER)
  await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { pids: { command: process.execPath, args: [join(workspace, 'pid-server.mjs'), serverPid] } } }))
  await mkdir(join(workspace, '.claude'))
  // The hook's shell writes its pid, then becomes a long sleep (same pid).
  const hook = { type: 'command', command: `echo $$ > '${hookPid}'; exec sleep 60` }
  await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }))
  const server = await startFakeOpenAI([{ toolCalls: [{ name: 'Bash', args: { command: 'echo never' } }] }, { text: 'never' }])
  try {
    const args = [SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', '--trust-workspace', 'run it']
    const child = spawn(process.execPath, args, { cwd: workspace, env: { ...process.env, SEAM_HOME: home, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    await waitFor(() => existsSync(hookPid) && existsSync(serverPid), 30_000, 'the hook and the MCP server to start')
    const pids = { hook: Number((await readFile(hookPid, 'utf8')).trim()), server: Number((await readFile(serverPid, 'utf8')).trim()) }
    expect(isAlive(pids.hook) && isAlive(pids.server), stderr).toBe(true)
    child.kill(signal)
    expect(await exited, stderr).toBe(status)
    for (const [what, pid] of Object.entries(pids)) expect(await waitUntilDead(pid, 2_000), `the ${what} (pid ${pid}) outlived seam run`).toBe(true)
    // The log is complete: every line is whole, and the cancelled turn has its turn/end.
    const id = /session (\S+)/.exec(stderr)?.[1]
    expect(id, stderr).toBeDefined()
    const lines = (await readFile(join(home, 'sessions', `${id}.jsonl`), 'utf8')).trimEnd().split('\n')
    const events = lines.map((line) => JSON.parse(line) as { type: string; reason?: string })
    expect(events.filter((e) => e.type === 'turn/end')).toMatchObject([{ reason: 'cancelled' }])
    expect(stderr).toContain(`${signal}: cancelling the turn`)
  } finally {
    await server.close()
  }
}, 90_000)
