// Issue 28, background commands end to end: the built `seam` as a real process, a loopback server
// speaking the Anthropic protocol as the model, real background processes (checked by their real
// pids). A background node HTTP server the model then queries with curl through Bash and stops
// with TaskStop; a watcher left running when the run ends (the session closes: nothing is left);
// hooks and `/tasks` see the tools with Claude Code's names; a host killed with SIGKILL takes its
// tasks with it, and the resumed session lists them as ended.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic, type AnthropicRequestBody } from '../../test-support/fake-anthropic.mjs'
import { runSeamHeadless, SEAM_BIN, useCliScratch, type CliResult } from '../../test-support/built-cli'
import { isAlive, scaledTestMs, waitFor, waitUntilDead, writtenPid } from '../process/liveness'

let home: string
let workspace: string
useCliScratch('background-tasks', (dirs) => ({ home, workspace } = dirs))

afterEach(async () => {
  await rm(join(workspace, '.claude'), { recursive: true, force: true })
  for (const file of ['server.pid', 'watcher.pid', 'hooks.jsonl']) await rm(join(workspace, file), { force: true })
})

function seam(args: string[]): Promise<CliResult> {
  return runSeamHeadless(args, { cwd: workspace, home })
}

function flags(url: string): string[] {
  return ['--workspace', workspace, '--trust-workspace', '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow']
}

/** The tool results of a request, in order. */
function toolResults(body: AnthropicRequestBody): Array<{ content: string; isError: boolean }> {
  return body.messages
    .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ content: typeof b.content === 'string' ? b.content : JSON.stringify(b.content), isError: b.is_error === true }))
}

function taskId(body: AnthropicRequestBody): string {
  const id = /with ID: (b[0-9a-z]{8})/.exec(toolResults(body).map((r) => r.content).join('\n'))?.[1]
  if (!id) throw new Error(`no task id in ${JSON.stringify(body.messages)}`)
  return id
}

/** Every session log file under a sessions folder. */
function sessionLogs(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl')).map((name) => join(folder, name))
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('background commands through the built CLI', { timeout: 120_000 }, () => {
  it('a background node server answers curl through Bash, TaskStop ends it (its pid is gone), hooks see TaskStop and Bash with run_in_background, /tasks lists it', async () => {
    const port = await freePort()
    await mkdir(join(workspace, '.claude'), { recursive: true })
    const hookLog = join(workspace, 'hooks.jsonl')
    const record = { type: 'command', command: `cat >> ${hookLog}; echo >> ${hookLog}` }
    await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash|TaskStop', hooks: [record] }], PostToolUse: [{ matcher: 'TaskStop', hooks: [record] }] } }))
    const serverCode = `require('fs').writeFileSync('server.pid', String(process.pid)); require('http').createServer((q, s) => s.end('hello from the background server')).listen(${port}, '127.0.0.1', () => console.log('listening on ${port}'))`
    const server = await startFakeAnthropic([
      { text: 'Starting the server.', toolCalls: [{ name: 'Bash', args: { command: `node -e ${JSON.stringify(serverCode)}`, run_in_background: true, description: 'Start the HTTP server' } }] },
      { toolCalls: [{ name: 'Bash', args: { command: `for i in $(seq 100); do curl -s http://127.0.0.1:${port}/ && exit 0; sleep 0.1; done; exit 1` } }] },
      (body) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: taskId(body), block: false } }, { name: 'TaskStop', args: { task_id: taskId(body) } }] }),
      { text: 'The server answered and is stopped.' }
    ])
    try {
      const outcome = await seam(['run', ...flags(server.url), 'start a server and query it', '/tasks'])
      expect(outcome.code, outcome.stderr).toBe(0)
      const last = server.requests.at(-1)!.body
      const [started, curl, output, stop] = toolResults(last)
      const id = taskId(last)
      expect(started.content).toMatch(new RegExp(`^Command running in background with ID: ${id}\\. Output is being written to: ${home}/seam/sessions/[^/]+\\.tasks/${id}\\.output$`))
      expect(curl).toEqual({ content: 'hello from the background server', isError: false })
      expect(output.content).toContain('<status>running</status>')
      expect(output.content).toContain(`<output>\nlistening on ${port}\n</output>`)
      expect(stop.content).toBe(`Successfully stopped task: ${id} (node -e ${JSON.stringify(serverCode)})`)
      const pid = Number(readFileSync(join(workspace, 'server.pid'), 'utf8'))
      expect(await waitUntilDead(pid, scaledTestMs(3_000))).toBe(true)
      // `/tasks` after the turn.
      expect(outcome.stdout).toContain(`Background tasks: 0 running, 1 ended`)
      expect(outcome.stdout).toMatch(new RegExp(`${id}  stopped \\(exit code 143\\)  \\d+s  Start the HTTP server`))
      // Hooks got Claude Code's names and inputs.
      const inputs = (await readFile(hookLog, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { hook_event_name: string; tool_name: string; tool_input: Record<string, unknown>; tool_response?: Record<string, unknown> })
      expect(inputs.find((i) => i.tool_name === 'Bash')?.tool_input).toMatchObject({ run_in_background: true, description: 'Start the HTTP server' })
      expect(inputs.filter((i) => i.tool_name === 'TaskStop').map((i) => [i.hook_event_name, i.tool_input])).toEqual([
        ['PreToolUse', { task_id: id }],
        ['PostToolUse', { task_id: id }]
      ])
    } finally {
      await server.close()
    }
  })

  it('a session closed while a watcher runs leaves no process; the resumed session lists it as ended with its exit code', async () => {
    const watcher = `echo $$ > watcher.pid.part && mv watcher.pid.part watcher.pid; while true; do date +%s; sleep 0.2; done`
    const server = await startFakeAnthropic([
      { toolCalls: [{ name: 'Bash', args: { command: watcher, run_in_background: true, description: 'Watch the clock' } }] },
      // However slowly the watcher starts, it has written its pid before the session closes.
      { toolCalls: [{ name: 'Bash', args: { command: 'while [ ! -f watcher.pid ]; do sleep 0.05; done' } }] },
      { text: 'Watching.' }
    ])
    try {
      const outcome = await seam(['run', ...flags(server.url), 'watch the clock'])
      expect(outcome.code, outcome.stderr).toBe(0)
      const pid = Number(readFileSync(join(workspace, 'watcher.pid'), 'utf8'))
      // The run ended (its session closed): the watcher went with it.
      expect(await waitUntilDead(pid, scaledTestMs(3_000))).toBe(true)
      const sessionId = /session (\S+)/.exec(outcome.stderr)![1]
      const listed = await seam(['resume', sessionId, ...flags(server.url).slice(2), '/tasks'])
      expect(listed.code, listed.stderr).toBe(0)
      expect(listed.stdout).toMatch(/b[0-9a-z]{8} {2}stopped when the session closed \(exit code 143\) {2}\d+s {2}Watch the clock/)
    } finally {
      await server.close()
    }
  })

  it('the host killed with SIGKILL takes its background tasks with it (the death watcher); resumed, the session lists the task as ended when Seam stopped', async () => {
    const watcher = `echo $$ > watcher.pid.part && mv watcher.pid.part watcher.pid; exec sleep 600`
    const server = await startFakeAnthropic([
      { toolCalls: [{ name: 'Bash', args: { command: watcher, run_in_background: true } }] },
      // The turn waits here (a long foreground command) while the test kills the host.
      { toolCalls: [{ name: 'Bash', args: { command: 'exec sleep 600', timeout: 600_000 } }] },
      { text: 'never reached' }
    ])
    let child: ReturnType<typeof spawn> | undefined
    try {
      child = spawn('setsid', ['-w', process.execPath, SEAM_BIN, 'run', ...flags(server.url), 'start it'], {
        cwd: workspace,
        env: { ...process.env, SEAM_HOME: join(home, 'seam'), HOME: home, FAKE_KEY: 'sk-test' },
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      // The task's start is in this session's own log (the write follows the model request by a moment: wait for the
      // file, not the request; the earlier tests' sessions share the folder and hold task starts of their own).
      const ownLogHasStart = () => {
        const id = /session (\S+)/.exec(stderr)?.[1]
        return id !== undefined && sessionLogs(join(home, 'seam', 'sessions')).some((file) => file.endsWith(`/${id}.jsonl`) && readFileSync(file, 'utf8').includes('"task/started"'))
      }
      await waitFor(
        () => server.requests.length >= 2 && writtenPid(join(workspace, 'watcher.pid')) !== undefined && ownLogHasStart(),
        scaledTestMs(30_000),
        'the task to start, its start to be logged in this session and the second step to run'
      )
      const pid = writtenPid(join(workspace, 'watcher.pid'))!
      expect(isAlive(pid)).toBe(true)
      // setsid execs the host in place when it need not fork (its caller is no group leader); else the host is its child.
      const runsSeam = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('seam.mjs')
      const spawned = child
      const hostPid = runsSeam(spawned.pid!) ? spawned.pid! : Number(readFileSync(`/proc/${spawned.pid}/task/${spawned.pid}/children`, 'utf8').trim().split(/\s+/).find((p) => runsSeam(Number(p))))
      process.kill(hostPid, 'SIGKILL')
      await new Promise((resolve) => spawned.on('close', resolve))
      expect(await waitUntilDead(pid, scaledTestMs(5_000))).toBe(true)
      const sessionId = /session (\S+)/.exec(stderr)![1]
      const listed = await seam(['resume', sessionId, ...flags(server.url).slice(2), '/tasks'])
      expect(listed.code, listed.stderr).toBe(0)
      expect(listed.stdout).toMatch(/b[0-9a-z]{8} {2}ended when Seam stopped \(exit code unknown\)/)
    } finally {
      // A failed wait above must not leave the host running.
      if (child?.exitCode === null) child.kill('SIGKILL')
      await server.close()
    }
  })
})
