// The background-tasks plugin on the real loop (createTestHost): real Bash processes, real output
// files, the scripted model as the only double. Pids come from the commands themselves ($$).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelMessage } from '@seam/sdk'
import { createTestHost, isAlive, scaledTestMs, waitFor, waitUntilDead, writtenPid, type ScriptStep, type TestHost } from '@seam/sdk/testing'
import backgroundTasks from './index'

let host: TestHost | undefined

afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

async function setup(script: ScriptStep[], config: Record<string, unknown> = {}): Promise<TestHost> {
  host = await createTestHost({ plugins: [[backgroundTasks, config]], script })
  return host
}

function toolResults(t: TestHost) {
  return t.events('tool/result').map((e) => ({ name: e.name, content: e.content, isError: e.isError, structured: e.structured as Record<string, unknown> | undefined }))
}

/** The task id in a Bash background answer. */
function taskIdIn(messages: readonly ModelMessage[]): string {
  const text = messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content).join('\n')
  const id = /with ID: (b[0-9a-z]{8})/.exec(text)?.[1]
  if (!id) throw new Error(`no task id in the tool results: ${text}`)
  return id
}

const pidFile = (t: TestHost, name: string) => path.join(t.workspace, `${name}.pid`)
const hasPid = (t: TestHost, name: string) => writtenPid(pidFile(t, name)) !== undefined
function readPid(t: TestHost, name: string): number {
  const pid = writtenPid(pidFile(t, name))
  if (pid === undefined) throw new Error(`${name}.pid holds no pid yet`)
  return pid
}

describe('background-tasks', { timeout: 30_000 }, () => {
  it('Bash run_in_background answers at once with Claude Code\'s text (task id and output file); TaskOutput blocks until it ends and gives the exit code and output', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: 'echo started; sleep 0.3; echo to-stderr >&2; echo finished; exit 4', run_in_background: true, description: 'short job' } }] },
      (request) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: taskIdIn(request.messages), block: true, timeout: 10_000 } }] }),
      { text: 'done' }
    ])
    await t.run('go')
    const [bash, output] = toolResults(t)
    expect(bash.isError).toBe(false)
    expect(bash.content).toMatch(/^Command running in background with ID: b[0-9a-z]{8}\. Output is being written to: \/.+\.tasks\/b[0-9a-z]{8}\.output$/)
    const id = bash.structured?.backgroundTaskId as string
    const file = bash.structured?.persistedOutputPath as string
    expect(file).toBe(path.join(t.log.path.replace(/\.jsonl$/, '.tasks'), `${id}.output`))
    expect(output.content).toBe(
      `<retrieval_status>success</retrieval_status>\n\n<task_id>${id}</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>failed</status>\n\n<exit_code>4</exit_code>\n\n<output>\nstarted\nto-stderr\nfinished\n</output>`
    )
    expect(output.structured).toEqual({
      retrieval_status: 'success',
      task: { task_id: id, task_type: 'local_bash', status: 'failed', description: 'short job', output: 'started\nto-stderr\nfinished\n', exitCode: 4 }
    })
    expect(readFileSync(file, 'utf8')).toBe('started\nto-stderr\nfinished\n')
    // Durable: the start and the end are in the log.
    expect(t.events('task/started').map((e) => [e.taskId, e.command, e.outputPath])).toEqual([[id, 'echo started; sleep 0.3; echo to-stderr >&2; echo finished; exit 4', file]])
    expect(t.events('task/ended').map((e) => [e.taskId, e.status, e.exitCode])).toEqual([[id, 'failed', 4]])
    // TaskOutput reported the end: no notification follows.
    expect(JSON.stringify(t.model.requests)).not.toContain('<task-notification>')
  })

  it('a background command\'s output file holds stdout and stderr in the order it wrote them (one pipe, as Claude Code merges them)', async () => {
    const command = 'for i in $(seq 1 300); do echo out$i; echo err$i >&2; done'
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command, run_in_background: true } }] },
      (request) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: taskIdIn(request.messages), block: true, timeout: 10_000 } }] }),
      { text: 'done' }
    ])
    await t.run('go')
    const [bash] = toolResults(t)
    const written = Array.from({ length: 300 }, (_, i) => `out${i + 1}\nerr${i + 1}\n`).join('')
    expect(readFileSync(bash.structured?.persistedOutputPath as string, 'utf8')).toBe(written)
    // The log and the task keep the command as the model wrote it.
    expect(t.events('task/started').map((e) => e.command)).toEqual([command])
  })

  it('TaskOutput with block false answers not_ready with the output so far; with a short timeout, timeout', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: `echo $$ > ${'w.pid'}; echo first; exec sleep 30`, run_in_background: true } }] },
      (request) => ({ toolCalls: [{ name: 'Bash', args: { command: 'sleep 0.3' } }, { name: 'TaskOutput', args: { task_id: taskIdIn(request.messages), block: false } }] }),
      (request) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: taskIdIn(request.messages), timeout: 100 } }] }),
      (request) => ({ toolCalls: [{ name: 'TaskStop', args: { task_id: taskIdIn(request.messages) } }] }),
      { text: 'done' }
    ])
    await t.run('go')
    const results = toolResults(t)
    const id = results[0].structured?.backgroundTaskId as string
    expect(results[2].content).toContain('<retrieval_status>not_ready</retrieval_status>')
    expect(results[2].content).toContain('<status>running</status>')
    expect(results[2].content).toContain('<output>\nfirst\n</output>')
    expect(results[3].content).toContain('<retrieval_status>timeout</retrieval_status>')
    expect(results[4]).toMatchObject({ name: 'TaskStop', isError: false, content: `Successfully stopped task: ${id} (echo $$ > w.pid; echo first; exec sleep 30)` })
    expect(results[4].structured).toEqual({ message: results[4].content, task_id: id, task_type: 'local_bash', command: 'echo $$ > w.pid; echo first; exec sleep 30' })
    expect(isAlive(readPid(t, 'w'))).toBe(false)
  })

  it('a watcher stopped by TaskStop: its whole process group is gone (real pids), the log says killed/stopped; a second TaskStop is a clear error', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: `sh -c 'echo $$ > child.pid; while true; do sleep 1; done' & echo $$ > w.pid; wait`, run_in_background: true } }] },
      async (request) => {
        await waitFor(() => hasPid(host!, 'child') && hasPid(host!, 'w'), scaledTestMs(5_000), 'the watcher to start')
        return { toolCalls: [{ name: 'TaskStop', args: { task_id: taskIdIn(request.messages) } }] }
      },
      (request) => ({ toolCalls: [{ name: 'TaskStop', args: { task_id: taskIdIn(request.messages) } }, { name: 'KillShell', args: { shell_id: taskIdIn(request.messages) } }, { name: 'TaskStop', args: { task_id: 'bnosuchid' } }] }),
      { text: 'done' }
    ] as ScriptStep[])
    await t.run('go')
    const results = toolResults(t)
    const id = results[0].structured?.backgroundTaskId as string
    expect(results[1].isError).toBe(false)
    expect(await waitUntilDead(readPid(t, 'w'), scaledTestMs(2_000))).toBe(true)
    expect(await waitUntilDead(readPid(t, 'child'), scaledTestMs(2_000))).toBe(true)
    expect(results.slice(2).map((r) => [r.isError, r.content])).toEqual([
      [true, `Task ${id} is not running (status: killed)`],
      [true, `Shell ${id} is not running, so cannot be killed (status: failed)`],
      [true, 'No task found with ID: bnosuchid']
    ])
    expect(t.events('task/ended').map((e) => [e.status, e.endReason])).toEqual([['killed', 'stopped']])
  })

  it('when a background command exits, the model is told on its next step: task id, output file, status, exit code and the last lines', async () => {
    const t = await setup(
      [
        { toolCalls: [{ name: 'Bash', args: { command: 'for i in 1 2 3 4 5; do echo line$i; done; exit 3', run_in_background: true, description: 'count' } }] },
        async () => {
          await waitFor(() => host!.events('task/ended').length > 0, scaledTestMs(5_000), 'the task to end')
          return { toolCalls: [{ name: 'Read', args: { file_path: path.join(host!.workspace, 'nothing') } }] }
        },
        { text: 'done' }
      ] as ScriptStep[],
      { notifyTailLines: 2 }
    )
    await t.run('go')
    const id = toolResults(t)[0].structured?.backgroundTaskId as string
    const file = toolResults(t)[0].structured?.persistedOutputPath as string
    const last = t.model.requests[2].messages.at(-1)
    expect(last).toEqual({
      role: 'user',
      content: expect.stringContaining(
        `<task-notification>\n<task-id>${id}</task-id>\n<output-file>${file}</output-file>\n<status>failed</status>\n<summary>Background command "count" failed with exit code 3</summary>\n<output-tail>\nline4\nline5\n</output-tail>\n</task-notification>`
      )
    })
    // Told once.
    expect(JSON.stringify(t.model.requests[2]).split('<task-notification>').length).toBe(2)
    expect(t.events('context/message').map((e) => e.source)).toHaveLength(1)
  })

  it('a task that ends while the session is idle is in its log at once (the tasks panel follows it), and told to the model with the next prompt', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: 'sleep 1; echo ok', run_in_background: true } }] },
      { text: 'started it' },
      { text: 'noted' }
    ])
    await t.run('start')
    expect(t.events('task/ended')).toEqual([])
    await waitFor(() => t.events('task/ended').length > 0, scaledTestMs(5_000), 'the task to end')
    // Recorded after the turn ended, with no prompt in between.
    const turnEnd = t.events('turn/end').at(-1)!
    expect(t.events('task/ended')[0]!.seq).toBeGreaterThan(turnEnd.seq)
    expect(t.events('user/message')).toHaveLength(1)
    await t.run('next')
    expect(JSON.stringify(t.model.requests[2].messages)).toContain('completed (exit code 0)')
  })

  it('a foreground command reaching its timeout moves to the background with Claude Code\'s message; one starting with sleep is killed', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: 'echo $$ > fg.pid; echo before; sleep 30', timeout: 300 } }] },
      { toolCalls: [{ name: 'Bash', args: { command: 'sleep 30', timeout: 300 } }] },
      (request) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: taskIdIn(request.messages), block: false } }] }),
      { text: 'done' }
    ])
    await t.run('go')
    const [moved, slept, output] = toolResults(t)
    const id = moved.structured?.backgroundTaskId as string
    expect(moved.isError).toBe(false)
    expect(moved.content).toBe(
      `Command did not complete within its 0.3s timeout and was moved to the background.\nCommand running in background with ID: ${id}. Output is being written to: ${moved.structured?.persistedOutputPath as string}`
    )
    expect(moved.structured).toMatchObject({ stdout: 'before', timedOutAfterMs: 300, backgroundTaskId: id })
    expect(slept.isError).toBe(true)
    expect(slept.content).toContain('Command timed out after 300 ms and was killed.')
    expect(output.content).toContain('<status>running</status>')
    expect(output.content).toContain('<output>\nbefore\n</output>')
    expect(t.events('task/started')[0].movedAfterTimeoutMs).toBe(300)
    const pid = readPid(t, 'fg')
    expect(isAlive(pid)).toBe(true)
    // Closing the session ends it.
    await t.agent.close('closed')
    expect(await waitUntilDead(pid, scaledTestMs(3_000))).toBe(true)
    expect(t.events('task/ended').map((e) => [e.taskId, e.status, e.endReason])).toEqual([[id, 'killed', 'session-closed']])
  })

  it('closing the session ends every running task: no process is left (real pids)', async () => {
    const t = await setup([
      {
        toolCalls: [
          { name: 'Bash', args: { command: 'echo $$ > a.pid; exec sleep 60', run_in_background: true } },
          { name: 'Bash', args: { command: "trap '' TERM; echo $$ > b.pid; while true; do sleep 1; done", run_in_background: true } }
        ]
      },
      { text: 'both running' }
    ], { stopGraceMs: 300 })
    await t.run('go')
    await waitFor(() => hasPid(t, 'a') && hasPid(t, 'b'), scaledTestMs(5_000), 'both tasks to start')
    const pids = [readPid(t, 'a'), readPid(t, 'b')]
    expect(pids.every(isAlive)).toBe(true)
    await t.agent.close('closed')
    for (const pid of pids) expect(await waitUntilDead(pid, scaledTestMs(3_000))).toBe(true)
    expect(t.events('task/ended').map((e) => e.endReason)).toEqual(['session-closed', 'session-closed'])
  })

  it('a session deleted while its tasks run stops them first (no process left, real pids), then removes their output files', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: "trap '' TERM; echo $$ > d.pid; while true; do echo still; sleep 1; done", run_in_background: true } }] },
      { text: 'running' }
    ], { stopGraceMs: 300 })
    await t.run('go')
    await waitFor(() => hasPid(t, 'd'), scaledTestMs(5_000), 'the task to start')
    const pid = readPid(t, 'd')
    const outputPath = t.events('task/started')[0]!.outputPath
    await waitFor(() => existsSync(outputPath), scaledTestMs(5_000), 'the output file')
    await t.agent.close('deleted')
    // close() resolves after the plugin's session-end: the task is gone before its files are.
    expect(isAlive(pid)).toBe(false)
    expect(existsSync(path.dirname(outputPath))).toBe(false)
    expect(t.events('task/ended').map((e) => e.endReason)).toEqual(['session-closed'])
  })

  it('the cap on running tasks refuses another with a clear message', async () => {
    const t = await setup(
      [
        { toolCalls: [{ name: 'Bash', args: { command: 'exec sleep 30', run_in_background: true } }] },
        { toolCalls: [{ name: 'Bash', args: { command: 'exec sleep 30', run_in_background: true } }] },
        { text: 'done' }
      ],
      { maxRunningPerSession: 1 }
    )
    await t.run('go')
    const [, refused] = toolResults(t)
    expect(refused.isError).toBe(true)
    expect(refused.content).toBe(
      "Cannot start another background task: this session already runs 1 (the limit is 1, the background-tasks plugin's maxRunningPerSession). Stop one with TaskStop first, or run the command in the foreground."
    )
    expect(t.events('task/started')).toHaveLength(1)
  })

  it('BashOutput returns only what is new since the last read, filtered by a regex, with status and exitCode; an invalid regex and an unknown id are clear errors', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: 'echo one; echo two; sleep 0.4; echo three; echo four', run_in_background: true } }] },
      async (request) => {
        const out = path.join(host!.log.path.replace(/\.jsonl$/, '.tasks'), `${taskIdIn(request.messages)}.output`)
        await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').includes('two'), scaledTestMs(5_000), 'the first lines')
        return { toolCalls: [{ name: 'BashOutput', args: { bash_id: taskIdIn(request.messages) } }] }
      },
      async (request) => {
        await waitFor(() => host!.events('task/ended').length > 0, scaledTestMs(5_000), 'the task to end')
        return {
          toolCalls: [
            { name: 'BashOutput', args: { bash_id: taskIdIn(request.messages), filter: '[' } },
            { name: 'BashOutput', args: { bash_id: taskIdIn(request.messages), filter: '^f' } },
            { name: 'BashOutput', args: { bash_id: 'bmissing1' } }
          ]
        }
      },
      { text: 'done' }
    ] as ScriptStep[])
    await t.run('go')
    const [, first, invalid, second, unknown] = toolResults(t)
    expect(first.structured).toEqual({ output: 'one\ntwo\n', status: 'running' })
    expect(first.content).toMatch(/^<status>running<\/status>\n\n<stdout>\none\ntwo\n<\/stdout>\n\n<timestamp>\d{4}-.+Z<\/timestamp>$/)
    expect(invalid).toMatchObject({ isError: true })
    expect(invalid.content).toMatch(/^filter: invalid regular expression "\[": /)
    expect(second.structured).toEqual({ output: 'four', status: 'completed', exitCode: 0 })
    expect(unknown).toMatchObject({ isError: true, content: 'No shell found with ID: bmissing1' })
  })

  it('an output flood is capped: the file keeps the last N MB and says so', async () => {
    const t = await setup(
      [
        { toolCalls: [{ name: 'Bash', args: { command: 'i=0; while [ $i -lt 20000 ]; do echo "line $i of the flood"; i=$((i+1)); done', run_in_background: true } }] },
        (request) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: taskIdIn(request.messages) } }] }),
        { text: 'done' }
      ],
      { maxOutputMB: 0.05 }
    )
    await t.run('go')
    const file = toolResults(t)[0].structured?.persistedOutputPath as string
    const text = readFileSync(file, 'utf8')
    const cap = 0.05 * 1024 * 1024
    expect(statSync(file).size).toBeLessThanOrEqual(cap * 1.25 + 200)
    expect(text.split('\n')[0]).toBe('[Seam: this output passed 0.05 MB; earlier output was dropped, the last 0.05 MB are kept]')
    expect(text.endsWith('line 19999 of the flood\n')).toBe(true)
    expect(text).not.toContain('line 0 of the flood')
    // Whole lines after the notice.
    expect(text.split('\n')[1]).toMatch(/^line \d+ of the flood$/)
  })

  it('Bash run_in_background without the plugin is a clear error', async () => {
    host = await createTestHost({ script: [{ toolCalls: [{ name: 'Bash', args: { command: 'echo x', run_in_background: true } }] }, { text: 'ok' }] })
    await host.run('go')
    expect(toolResults(host)[0]).toMatchObject({ isError: true, content: expect.stringContaining('the background-tasks plugin is disabled') })
  })

  it('Ctrl+B: the user moves a running foreground Bash to the background; the call answers at once with Claude Code\'s words, the turn goes on, the command runs on as a task with its output so far in the file', async () => {
    const t = await setup([
      { toolCalls: [{ name: 'Bash', args: { command: 'echo before; echo $$ > fg.pid; until [ -f gate ]; do sleep 0.05; done; echo after', description: 'Wait for the gate' } }] },
      { text: 'it runs on' }
    ])
    const tasks = t.kernel.getService('backgroundTasks')!
    const sessionId = t.log.id
    const turn = t.run('run it')
    await waitFor(() => hasPid(t, 'fg'), scaledTestMs(10_000), 'the command started')
    // Another call's token moves nothing.
    expect(tasks.moveToBackground(sessionId, 'not-a-call')).toEqual([])
    const token = t.events('tool/call')[0]!.token
    const [moved] = tasks.moveToBackground(sessionId, token)
    await turn

    expect(moved).toMatchObject({ command: expect.stringContaining('echo before'), description: 'Wait for the gate', status: 'running' })
    expect(moved!.movedAfterTimeoutMs).toBeUndefined()
    const [result] = toolResults(t)
    expect(result!.isError).toBe(false)
    expect(result!.content).toBe(`Command was manually backgrounded by user with ID: ${moved!.id}. Output is being written to: ${moved!.outputPath}`)
    expect(result!.structured).toMatchObject({ stdout: '', stderr: '', interrupted: false, backgroundTaskId: moved!.id, backgroundedByUser: true, persistedOutputPath: moved!.outputPath })
    // The model got it at once and the turn went on; the command still runs, its first line in the task's file.
    expect(t.model.requests).toHaveLength(2)
    expect(JSON.stringify(t.model.requests[1]!.messages)).toContain('Command was manually backgrounded by user with ID: ')
    expect(isAlive(readPid(t, 'fg'))).toBe(true)
    await waitFor(() => existsSync(moved!.outputPath) && readFileSync(moved!.outputPath, 'utf8') === 'before\n', scaledTestMs(5_000), 'the output so far in the file')
    // Once moved it is no longer in the foreground: a second Ctrl+B moves nothing.
    expect(tasks.moveToBackground(sessionId)).toEqual([])

    writeFileSync(path.join(t.workspace, 'gate'), '')
    await waitFor(() => t.events('task/ended').length === 1, scaledTestMs(10_000), 'the task to end')
    expect(t.events('task/ended')[0]).toMatchObject({ taskId: moved!.id, status: 'completed', exitCode: 0 })
    expect(readFileSync(moved!.outputPath, 'utf8')).toBe('before\nafter\n')
  })

  it('Ctrl+B at the running-task cap is refused with the cap\'s message, and the command goes on in the foreground', async () => {
    const t = await setup(
      [
        { toolCalls: [{ name: 'Bash', args: { command: 'exec sleep 30', run_in_background: true } }] },
        { toolCalls: [{ name: 'Bash', args: { command: 'echo $$ > fg.pid; until [ -f gate ]; do sleep 0.05; done; echo done here' } }] },
        { text: 'finished' }
      ],
      { maxRunningPerSession: 1 }
    )
    const tasks = t.kernel.getService('backgroundTasks')!
    const turn = t.run('go')
    await waitFor(() => hasPid(t, 'fg'), scaledTestMs(10_000), 'the foreground command started')
    expect(() => tasks.moveToBackground(t.log.id)).toThrow('Cannot start another background task: this session already runs 1 (the limit is 1')
    writeFileSync(path.join(t.workspace, 'gate'), '')
    await turn
    const results = toolResults(t)
    expect(results[1]).toMatchObject({ isError: false, content: 'done here' })
    expect(tasks.list(t.log.id)).toHaveLength(1)
  })
})
