// Fault suite, kill -9 (issue 11, "printed means persisted"): the real `seam run --json` against a
// loopback OpenAI server, killed with SIGKILL at seeded random moments (during start-up, while the
// model streams, while tools run). After each kill:
// - every event it printed to stdout is in the session file, exactly as printed;
// - every side effect a tool had (a Bash command appending a token to a file) has its tool/call
//   in the file;
// - the session loads, and `seam resume` continues it (the cut turn gets its turn/end).
// SEAM_FAULT_SEED picks another seed; the seed is in every failure message.
import { execFile, spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import { startFakeOpenAI, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { SessionStore } from '../session/store'
import { ensureBuilt } from '../../test-support/built-cli'

const root = resolve(import.meta.dirname, '../..')
const seamBin = join(root, 'bin', 'seam.mjs')
const SEED = Number(process.env.SEAM_FAULT_SEED ?? 11)
const KILLS = 6

let home: string
let workspace: string

beforeAll(async () => {
  await ensureBuilt()
  home = await mkdtemp(join(tmpdir(), 'seam-kill9-home-'))
  workspace = await mkdtemp(join(tmpdir(), 'seam-kill9-ws-'))
}, 120_000)

afterAll(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

/** mulberry32: a small seeded PRNG, so a failing schedule can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Three steps of Bash calls (one step with a Read beside it), then a closing text; streamed slowly enough to be cut mid-stream. */
function workScript(run: number): OpenAIScript {
  const bash = (step: number) => ({ name: 'Bash', args: { command: `echo run${run}-step${step} >> marker.txt` } })
  return [
    { text: 'Starting.', toolCalls: [bash(1)], chunkDelayMs: 3 },
    { text: 'Two at once.', toolCalls: [bash(2), { name: 'Read', args: { file_path: join(workspace, 'marker.txt') } }], chunkDelayMs: 3 },
    { toolCalls: [bash(3)], chunkDelayMs: 3 },
    { text: 'All done, the marker file has three lines from this run.', chunkDelayMs: 3 }
  ]
}

interface KilledRun {
  stdout: string
  killed: boolean
}

/** Runs `seam run --json`, and SIGKILLs the host alone (not its process group) when `when` says so. */
async function runAndKill(url: string, run: number, when: { afterLines: number; delayMs: number } | { atMs: number }): Promise<KilledRun> {
  const args = [seamBin, 'run', '--json', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', '--approve', 'allow', `run ${run}`]
  const child = spawn(process.execPath, args, { cwd: workspace, env: { ...process.env, SEAM_HOME: home }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let killed = false
  const kill = () => {
    if (killed || child.exitCode !== null) return
    killed = true
    child.kill('SIGKILL')
  }
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    if ('afterLines' in when && stdout.split('\n').length - 1 >= when.afterLines) setTimeout(kill, when.delayMs)
  })
  child.stderr.resume()
  if ('atMs' in when) setTimeout(kill, when.atMs)
  const safety = setTimeout(kill, 60_000)
  await new Promise<void>((done) => child.on('close', () => done()))
  clearTimeout(safety)
  try {
    process.kill(-child.pid!, 'SIGKILL') // anything the host left behind (its tools' processes)
  } catch {
    // the group is already gone
  }
  return { stdout, killed }
}

function seam(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [seamBin, ...args], { cwd: workspace, env: { ...process.env, SEAM_HOME: home }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    )
  })
}

it(`kill -9 at random moments (seed ${SEED}, ${KILLS} kills): every printed event is in the file, every side effect has its tool/call, the session loads and resumes`, async () => {
  const next = random(SEED)
  const sessionsDir = join(home, 'sessions')
  const store = new SessionStore(sessionsDir)
  let kills = 0
  for (let run = 0; run < KILLS; run++) {
    const context = `seed ${SEED}, run ${run}`
    const before = new Set(existsSync(sessionsDir) ? readdirSync(sessionsDir) : [])
    // Most kills aim at the turn (after the n-th printed event); some anywhere from start-up on.
    // A full run prints 17 events, so a kill after at most 14 always lands; a timed one may come too late.
    const when = run % 3 === 2 ? { atMs: Math.floor(next() * 2000) } : { afterLines: 1 + Math.floor(next() * 14), delayMs: Math.floor(next() * 25) }
    const server = await startFakeOpenAI(workScript(run))
    let result: KilledRun
    try {
      result = await runAndKill(server.url, run, when)
    } finally {
      await server.close()
    }
    if (result.killed) kills++

    const created = readdirSync(sessionsDir).filter((name) => name.endsWith('.jsonl') && !before.has(name))
    const printed = result.stdout
      .split('\n')
      .slice(0, -1) // a line cut by the kill was never printed whole
      .map((line) => JSON.parse(line) as SessionEvent)
    if (created.length === 0) {
      expect(printed, `${context}: printed events but left no session file`).toEqual([])
      continue
    }
    expect(created, context).toHaveLength(1)
    const id = created[0].slice(0, -'.jsonl'.length)

    const log = await store.open(id) // loads: a kill never leaves a file that cannot be opened
    const inFile = [...log.events]
    await log.close()
    for (const event of printed) expect(inFile[event.seq - 1], `${context}: printed event seq ${event.seq} (${event.type}) is not in the file`).toStrictEqual(event)

    const marker = existsSync(join(workspace, 'marker.txt')) ? await readFile(join(workspace, 'marker.txt'), 'utf8') : ''
    const commands = inFile.flatMap((e) => (e.type === 'tool/call' ? [String(e.args.command)] : []))
    for (const token of marker.split('\n').filter((t) => t.startsWith(`run${run}-`))) {
      expect(commands.some((c) => c.includes(token)), `${context}: ${token} was written by a Bash call whose tool/call is not in the file`).toBe(true)
    }

    const resumeServer = await startFakeOpenAI([{ text: 'Picked up where we were.' }])
    try {
      const resumed = await seam(['resume', id, '--json', '--provider', 'openai-compatible', '--base-url', resumeServer.url, '--model', 'm', '--approve', 'allow', 'carry on'])
      expect(resumed.code, `${context}: seam resume failed: ${resumed.stderr}`).toBe(0)
    } finally {
      await resumeServer.close()
    }
    const after = await store.open(id)
    const turns = after.events.filter((e) => e.type === 'turn/start').map((e) => (e.type === 'turn/start' ? e.turnId : ''))
    const ended = after.events.filter((e) => e.type === 'turn/end').map((e) => (e.type === 'turn/end' ? e.turnId : ''))
    expect(ended, `${context}: every turn has its turn/end after the resume`).toEqual(turns)
    // The resumed turn's answer, then its usage/step (the fake server reports usage) and turn/end.
    expect(after.events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'completed' })
    expect(after.events.findLast((e) => e.type === 'assistant/message')).toMatchObject({ type: 'assistant/message', text: 'Picked up where we were.' })
    await after.close()
  }
  // The schedule must actually cut runs short, or this proves nothing (only the timed kills may miss).
  expect(kills, `seed ${SEED}`).toBeGreaterThanOrEqual(KILLS - Math.ceil(KILLS / 3))
}, 300_000)
