// Issue 25: a stop signal to `seam run` while a hook, an MCP server and a background command run
// ends the turn cleanly: the turn is cancelled and logged, none of the three is left, and the exit
// status is the conventional one (SIGTERM 143, SIGINT 130, SIGHUP 129). Real processes throughout:
// the built CLI, a Claude Code hook that sleeps, a stdio MCP server, a loopback provider.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'
import { prepareStopScenario } from '../../test-support/stop-scenario'
import { isAlive, waitFor, waitUntilDead } from '../process/liveness'

let home: string
let root: string
useCliScratch('cli-signal', (dirs) => ({ home, workspace: root } = dirs))

it.each([
  ['SIGTERM', 143],
  ['SIGINT', 130],
  ['SIGHUP', 129]
] as const)('%s to seam run while a hook, an MCP server and a background command run: the turn ends cancelled in the log, no process is left, exit %i', async (signal, status) => {
  const workspace = await mkdtemp(join(root, `${signal}-`))
  const scenario = await prepareStopScenario(workspace)
  const server = await startFakeOpenAI(scenario.script)
  try {
    const args = [SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', '--trust-workspace', 'run it']
    const child = spawn(process.execPath, args, { cwd: workspace, env: { ...process.env, SEAM_HOME: home, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    await waitFor(() => scenario.allStarted(), 30_000, 'the hook, the MCP server and the background command to start').catch((error: Error) => {
      throw new Error(`${error.message}\n${stderr}`)
    })
    const pids = await scenario.pids()
    expect(Object.values(pids).every(isAlive), stderr).toBe(true)
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
