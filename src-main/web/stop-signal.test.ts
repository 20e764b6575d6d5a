// Issue 25: a stop signal to the web host (`npm run web`, out/main/web.js) while a turn runs a
// hook, an MCP server and a background command ends the turn cancelled in the log, leaves none of
// those processes and exits with the signal's status. The turn is driven as the UI drives it: over
// the host's WebSocket, with the access cookie and the page's Origin. Real processes throughout.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { REPO_ROOT, useCliScratch } from '../../test-support/built-cli'
import { prepareStopScenario } from '../../test-support/stop-scenario'
import { isAlive, waitFor, waitUntilDead } from '../process/liveness'

const WEB_ENTRY = join(REPO_ROOT, 'out', 'main', 'web.js')
const TOKEN = 'stop-signal-test-token'

let home: string
let root: string
useCliScratch('web-signal', (dirs) => ({ home, workspace: root } = dirs))

let host: ChildProcess | undefined
afterEach(() => {
  if (host?.exitCode === null && host.signalCode === null) host.kill('SIGKILL')
  host = undefined
})

/** Starts the web host and resolves with its origin once it printed its URL. */
function startHost(seamHome: string, output: { text: string }): Promise<string> {
  const child = spawn(process.execPath, [WEB_ENTRY], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOME: home, SEAM_HOME: seamHome, PORT: '0', SEAM_WEB_HOST: '127.0.0.1', SEAM_WEB_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  host = child
  child.stderr.on('data', (chunk: Buffer) => (output.text += chunk.toString()))
  return new Promise((resolve, reject) => {
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /Seam web UI: (http:\/\/[^/\s]+)/.exec(stdout)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the web host exited (${code}) before it was ready:\n${output.text}`)))
  })
}

/** A WebSocket client speaking the host's wire protocol: `{id, method, input}` → `{id, ok, output|error}`. */
async function connect(origin: string): Promise<{ call(method: string, input: unknown): Promise<unknown>; close(): void }> {
  const port = new URL(origin).port
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, { headers: { Origin: origin, Cookie: `seam_token_${port}=${TOKEN}` } })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  let next = 1
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number | null; ok?: boolean; output?: unknown; error?: { message: string } }
    if (typeof message.id !== 'number') return
    const entry = waiting.get(message.id)
    waiting.delete(message.id)
    if (message.ok) entry?.resolve(message.output)
    else entry?.reject(new Error(message.error?.message ?? 'failed'))
  })
  return {
    call(method, input) {
      const id = next++
      ws.send(JSON.stringify({ id, method, input }))
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }))
    },
    close: () => ws.close()
  }
}

it.each([
  ['SIGTERM', 143],
  ['SIGINT', 130]
] as const)('%s to the web host while a hook, an MCP server and a background command run: the turn ends cancelled in the log, no process is left, exit %i', async (signal, status) => {
  const workspace = await mkdtemp(join(root, `${signal}-`))
  const seamHome = join(home, `seam-${signal}`)
  const scenario = await prepareStopScenario(workspace)
  const server = await startFakeOpenAI(scenario.script)
  const stderr = { text: '' }
  try {
    const origin = await startHost(seamHome, stderr)
    const child = host!
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const ui = await connect(origin)
    await ui.call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'm', apiKey: 'sk-test' })
    await ui.call('workspace/set', { path: workspace })
    await ui.call('workspace/trust', { trusted: true })
    await ui.call('settings/set', { approvalMode: 'never-ask' })
    const { id } = (await ui.call('sessions/create', {})) as { id: string }
    await ui.call('chat/send', { sessionId: id, content: 'run it' })
    await waitFor(() => scenario.allStarted(), 30_000, 'the hook, the MCP server and the background command to start').catch((error: Error) => {
      throw new Error(`${error.message}\n${stderr.text}`)
    })
    const pids = await scenario.pids()
    expect(Object.values(pids).every(isAlive), stderr.text).toBe(true)

    child.kill(signal)
    expect(await exited, stderr.text).toBe(status)
    ui.close()
    for (const [what, pid] of Object.entries(pids)) expect(await waitUntilDead(pid, 2_000), `the ${what} (pid ${pid}) outlived the web host`).toBe(true)
    const lines = (await readFile(join(seamHome, 'sessions', `${id}.jsonl`), 'utf8')).trimEnd().split('\n')
    const events = lines.map((line) => JSON.parse(line) as { type: string; reason?: string })
    expect(events.filter((e) => e.type === 'turn/end')).toMatchObject([{ reason: 'cancelled' }])
    expect(stderr.text).toContain(`${signal}: cancelling the turn`)
  } finally {
    await server.close()
  }
}, 90_000)
