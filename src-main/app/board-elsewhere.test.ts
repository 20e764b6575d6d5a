// The Board (issue 32) showing sessions another process runs: the built `seam run` as a real
// second process against a loopback server speaking the Anthropic wire protocol, and a host (the
// window's, through its router) sharing its Seam home. The Board follows the other process from
// its session log and its presence file alone: the host's watch pushes `sessions/changed` as they
// change, and each wait below re-reads the Board on those pushes only. A real kill -9 leaves a
// stale presence file, which reads as not running.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import type { BoardRow } from '../../src-shared/contract/worktrees'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { SEAM_BIN, ensureBuilt } from '../../test-support/built-cli'
import { isAlive, scaledTestMs, waitUntilDead } from '../process/liveness'
import { createHost, type Host } from './host'
import { startAgent } from '../acp/test-client'

let home: string
let workspace: string
let host: Host
const children: ChildProcess[] = []

beforeAll(() => ensureBuilt(), 120_000)
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-board-elsewhere-'))
  workspace = join(home, 'project')
  mkdirSync(workspace)
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home } })
  await call('workspace/set', { path: workspace })
})
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await host.close()
  await rm(home, { recursive: true, force: true })
})

async function call<T>(method: string, input: unknown): Promise<T> {
  const reply = await host.router.invoke(method, input, { transport: 'web' })
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error)
  return reply.output as T
}

/** The Board once `match` finds a row, re-read on each `sessions/changed` push (and once at the start). */
async function boardRow(what: string, match: (row: BoardRow) => boolean): Promise<BoardRow> {
  let last: BoardRow[] = []
  return new Promise<BoardRow>((resolve, reject) => {
    let settled = false
    const check = async () => {
      last = await call<BoardRow[]>('sessions/board', {})
      const row = last.find(match)
      if (row && !settled) {
        settled = true
        stop()
        clearTimeout(timer)
        resolve(row)
      }
    }
    const stop = host.pushes.subscribe((message) => {
      if (message.push === 'sessions/changed') void check().catch(reject)
    })
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`the Board never showed ${what}; it showed ${JSON.stringify(last)}`))
    }, scaledTestMs(30_000))
    void check().catch(reject)
  })
}

/** `seam run` as its own process, in this test's home; `terminal`: under `script`, so it has a terminal to ask on. */
function seamRun(url: string, prompts: string[], terminal = false): ChildProcess {
  const args = [SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', ...prompts]
  const env = { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home, FAKE_KEY: 'sk-test' }
  const quoted = [process.execPath, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
  const child = terminal ? spawn('script', ['-qfec', quoted, '/dev/null'], { cwd: workspace, env, stdio: ['pipe', 'ignore', 'ignore'] }) : spawn(process.execPath, args, { cwd: workspace, env, stdio: 'ignore' })
  children.push(child)
  return child
}

const presenceFile = (id: string) => join(home, 'seam', 'sessions', 'live', `${id}.json`)
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')

it('a session `seam run` runs elsewhere: running with the last message of its log, then not running once that process ends', async () => {
  const server = await startFakeAnthropic([{ text: 'The first answer.' }, { text: 'Working on the second for a long while', hangAfterChars: 4 }])
  try {
    const child = seamRun(server.url, ['first', 'second'])
    const running = await boardRow('the session running elsewhere', (row) => row.status === 'running' && row.lastMessage === 'The first answer.')
    expect(running.elsewhere?.pid).toBe(child.pid)
    expect(cmdline(child.pid!)).toEqual(expect.arrayContaining([SEAM_BIN, 'run']))
    // Its asks cannot be answered here, so the Board does not open it either.
    expect(running.status).not.toBe('closed')

    // Stopped in the usual way, it closes the session: its presence file goes with it.
    child.kill('SIGTERM')
    const ended = await boardRow('the session no longer running', (row) => row.id === running.id && row.elsewhere === undefined)
    expect(ended.status).toBe('closed')
    // The cancelled turn keeps what streamed before the stop (the first 4 characters, when they had arrived).
    expect(['The first answer.', 'Work']).toContain(ended.lastMessage)
    expect(existsSync(presenceFile(running.id))).toBe(false)
  } finally {
    await server.close()
  }
}, 120_000)

it('a session waiting for an approval on its terminal elsewhere: "waiting" with its last message; after a kill -9, its stale presence file reads as not running', async () => {
  const server = await startFakeAnthropic([{ text: 'I will make the file.', toolCalls: [{ name: 'Bash', args: { command: 'touch made-by-the-session.txt', description: 'Make a file' } }] }, { text: 'done' }])
  try {
    seamRun(server.url, ['make a file'], true)
    const waiting = await boardRow('the session waiting for approval elsewhere', (row) => row.status === 'waiting')
    expect(waiting).toMatchObject({ lastMessage: 'I will make the file.', elsewhere: { pid: expect.any(Number) } })
    const pid = waiting.elsewhere!.pid
    expect(cmdline(pid)).toEqual(expect.arrayContaining([SEAM_BIN, 'run']))
    // This window has no ask to answer: it is the terminal's.
    expect(await call<unknown[]>('approval/pending', {})).toEqual([])

    process.kill(pid, 'SIGKILL')
    expect(await waitUntilDead(pid, scaledTestMs(20_000))).toBe(true)
    expect(isAlive(pid)).toBe(false)
    expect(JSON.parse(readFileSync(presenceFile(waiting.id), 'utf8'))).toMatchObject({ pid })
    // Nothing is written after a kill -9: the host notices the holder is gone and pushes.
    const gone = await boardRow('the killed session no longer running', (row) => row.id === waiting.id && row.elsewhere === undefined)
    expect(gone).toMatchObject({ status: 'closed', lastMessage: 'I will make the file.' })
    expect(existsSync(join(workspace, 'made-by-the-session.txt'))).toBe(false)
  } finally {
    await server.close()
  }
}, 120_000)

it('a session `seam acp` holds between prompts: idle with its answer, then failed after a failing turn, while that process lives; its status from the log once it exits', async () => {
  const server = await startFakeAnthropic([{ text: 'Ready when you are.' }, { error: { status: 400 } }])
  const proc = startAgent(['--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main'], { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home, FAKE_KEY: 'sk-test' })
  children.push(proc.child)
  try {
    await proc.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await proc.agent.request('session/new', { cwd: workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] })
    const idle = await boardRow('the ACP session idle', (row) => row.id === sessionId && row.status === 'idle')
    expect(idle).toMatchObject({ lastMessage: 'Ready when you are.', elsewhere: { pid: proc.child.pid } })

    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }).catch(() => undefined)
    const failed = await boardRow('the ACP session failed', (row) => row.id === sessionId && row.status === 'failed')
    expect(failed).toMatchObject({ lastMessage: 'Ready when you are.', elsewhere: { pid: proc.child.pid } })

    await proc.stop()
    const closed = await boardRow('the ACP session no longer held', (row) => row.id === sessionId && row.elsewhere === undefined)
    expect(closed.status).toBe('failed')
  } finally {
    await server.close()
  }
}, 120_000)
