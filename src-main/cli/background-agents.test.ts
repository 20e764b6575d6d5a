// Issue 27: `seam run` does not end while a background agent it started runs. The built CLI as a
// real process, a real project agent file, a real Bash process inside the agent (it waits on a gate
// file the test opens), and the loopback OpenAI-wire server routing each request by its system
// prompt. The run waits for the agent, runs the turn its end opens (the <task-notification>), then
// exits 0; a SIGTERM while it waits ends everything (the agent's Bash process too) with 143.
// Resumed afterwards (`seam resume <id> /tasks`, a new process), the session lists the agent of the
// earlier run as an ended task, with how it ended.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { startFakeOpenAI, type OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { runSeamHeadless, SEAM_BIN, useCliScratch } from '../../test-support/built-cli'
import { isAlive, scaledTestMs, waitFor, waitUntilDead } from '../process/liveness'

const WAIT_MS = scaledTestMs(30_000)

let home: string
let root: string
useCliScratch('cli-bg-agents', (dirs) => ({ home, workspace: root } = dirs))

const WORKER = ['---', 'name: worker', 'description: Does one job', 'tools: Bash', '---', 'You are WORKER-MARKER.', ''].join('\n')

interface Scenario {
  workspace: string
  gate: string
  pidFile: string
}

async function scenario(name: string): Promise<Scenario> {
  const workspace = await mkdtemp(join(root, `${name}-`))
  await mkdir(join(workspace, '.claude', 'agents'), { recursive: true })
  await writeFile(join(workspace, '.claude', 'agents', 'worker.md'), WORKER)
  return { workspace, gate: join(workspace, 'gate'), pidFile: join(workspace, 'worker.pid') }
}

/** The worker runs one Bash call that writes its pid and waits for the gate, then reports; the parent launches it in the background, then answers each of its own requests in turn. */
function script(s: Scenario) {
  const parent = [
    { toolCalls: [{ name: 'Agent', args: { description: 'Do the job', prompt: 'Do it', subagent_type: 'worker', run_in_background: true } }] },
    { text: 'launched it' },
    { text: 'heard back: the worker is done' }
  ]
  const worker = [{ toolCalls: [{ name: 'Bash', args: { command: `echo $$ > '${s.pidFile}'; until [ -f '${s.gate}' ]; do sleep 0.02; done; echo gate open` } }] }, { text: 'worker report' }]
  return Array.from({ length: 20 }, () => (body: OpenAIRequestBody) => {
    const turns = JSON.stringify(body.messages[0]).includes('WORKER-MARKER') ? worker : parent
    return turns[body.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'no more turns' }
  })
}

function startRun(s: Scenario, url: string) {
  const args = [SEAM_BIN, 'run', '--workspace', s.workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', '--approve', 'allow', '--trust-workspace', 'start the worker in the background']
  const child = spawn(process.execPath, args, { cwd: s.workspace, env: { ...process.env, SEAM_HOME: home, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] })
  const out = { stdout: '', stderr: '' }
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, out, exited }
}

/** Waits until the parent's turn has ended ("launched it" printed) while the agent's Bash waits on its gate; its pid. */
async function agentWaiting(run: ReturnType<typeof startRun>, s: Scenario): Promise<number> {
  const pidWritten = () => existsSync(s.pidFile) && readFileSync(s.pidFile, 'utf8').trim() !== ''
  await waitFor(() => run.out.stdout.includes('launched it') && pidWritten(), WAIT_MS, 'the parent turn to end with the agent running').catch((error: Error) => {
    throw new Error(`${error.message}\n${run.out.stderr}`)
  })
  return Number(readFileSync(s.pidFile, 'utf8'))
}

/** `/tasks` of the run's session, resumed by a new `seam` process. */
async function tasksAfterResume(s: Scenario, stderr: string, url: string): Promise<string> {
  const id = /session (\S+)/.exec(stderr)![1]
  const listed = await runSeamHeadless(['resume', id, '--workspace', s.workspace, '--provider', 'openai-compatible', '--base-url', url, '--model', 'm', '--approve', 'allow', '--trust-workspace', '/tasks'], { cwd: s.workspace, home, env: { SEAM_HOME: home } })
  expect(listed.code, listed.stderr).toBe(0)
  return listed.stdout
}

async function logEvents(stderr: string): Promise<Array<{ type: string; reason?: string; source?: string; text?: string; turnId?: string; agentId?: string; outputFile?: string }>> {
  const id = /session (\S+)/.exec(stderr)?.[1]
  expect(id, stderr).toBeDefined()
  const lines = (await readFile(join(home, 'sessions', `${id}.jsonl`), 'utf8')).trimEnd().split('\n')
  return lines.map((line) => JSON.parse(line))
}

it('seam run waits for the background agent it started, runs the turn its end opens, then exits 0', async () => {
  const s = await scenario('wait')
  const server = await startFakeOpenAI(script(s))
  try {
    const run = startRun(s, server.url)
    const pid = await agentWaiting(run, s)
    expect(isAlive(pid)).toBe(true)
    expect(run.child.exitCode, run.out.stderr).toBeNull()
    await writeFile(s.gate, '')
    expect(await run.exited, run.out.stderr).toBe(0)
    expect(run.out.stdout).toContain('heard back: the worker is done')
    const events = await logEvents(run.out.stderr)
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.reason)).toEqual(['completed', 'completed'])
    const notice = events.find((e) => e.type === 'context/message' && e.source === 'background-agent')
    expect(notice?.text).toContain('<result>worker report</result>')
    expect(events.find((e) => e.type === 'subagent/end')).toMatchObject({ reason: 'completed' })

    const start = events.find((e) => e.type === 'subagent/start')!
    expect(start).toMatchObject({ background: true, outputFile: expect.stringMatching(/\.agents\/.+\.output$/) })
    const tasks = await tasksAfterResume(s, run.out.stderr, server.url)
    expect(tasks).toContain('Background tasks: 0 running, 1 ended')
    expect(tasks).toMatch(new RegExp(`${start.agentId} {2}completed {2}\\d+s {2}agent worker: Do the job\n {4}output: ${start.outputFile!.replace(/[.]/g, '\\.')}`))
    // The output file still holds the agent's final text.
    expect(readFileSync(start.outputFile!, 'utf8')).toBe('worker report')
  } finally {
    await server.close()
  }
}, 120_000)

it('SIGTERM while seam run waits for a background agent: the agent and its Bash process end, the log is whole, exit 143', async () => {
  const s = await scenario('term')
  const server = await startFakeOpenAI(script(s))
  try {
    const run = startRun(s, server.url)
    const pid = await agentWaiting(run, s)
    run.child.kill('SIGTERM')
    expect(await run.exited, run.out.stderr).toBe(143)
    expect(await waitUntilDead(pid, scaledTestMs(5_000)), `the agent's Bash process (pid ${pid}) outlived seam run`).toBe(true)
    const events = await logEvents(run.out.stderr)
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.reason)).toEqual(['completed'])
    expect(events.find((e) => e.type === 'subagent/end')).toMatchObject({ reason: 'cancelled' })
    const { agentId } = events.find((e) => e.type === 'subagent/start')!
    expect(await tasksAfterResume(s, run.out.stderr, server.url)).toMatch(new RegExp(`${agentId} {2}stopped {2}\\d+s {2}agent worker: Do the job`))
  } finally {
    await server.close()
  }
}, 120_000)
