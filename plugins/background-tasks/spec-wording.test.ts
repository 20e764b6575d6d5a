// Claude Code's recorded words and shapes, compared exactly (issue 28): each expected string below
// is copied from the record of Claude Code's tools Seam follows, so a hook, a permission rule or a
// model that knows Claude Code's output sees the same. The tools run for real (createTestHost:
// real Bash processes, real output files); the scripted model is the only double.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelMessage } from '@seam/sdk'
import { createTestHost, scaledTestMs, waitFor, type ScriptStep, type TestHost } from '@seam/sdk/testing'
import backgroundTasks from './index'

// Copied from the record, word for word.
const RECORDED = {
  /** Auto-backgrounding: the result text says this, then the task ID and the output file path. */
  moved: 'Command did not complete within its 120s timeout and was moved to the background',
  /** `TaskOutput {task_id, block: boolean, timeout: number}`. */
  taskOutputInput: ['task_id', 'block', 'timeout'],
  /** `TaskStop {task_id?, shell_id? (deprecated)}` returns `{message, task_id, task_type, command?}`. */
  taskStopInput: ['task_id', 'shell_id'],
  taskStopResult: ['message', 'task_id', 'task_type', 'command'],
  /** `BashOutput {bash_id, filter?: regex}` returned `{output: new-since-last-check, status: running|completed|failed, exitCode?}`. */
  bashOutputInput: ['bash_id', 'filter'],
  bashOutputResult: ['output', 'status', 'exitCode'],
  bashOutputStatuses: ['running', 'completed', 'failed'],
  /** `KillShell {shell_id}` returned `{message, shell_id}`. */
  killShellInput: ['shell_id'],
  killShellResult: ['message', 'shell_id'],
  /** Bash output: `backgroundTaskId?`, `timedOutAfterMs?`, `persistedOutputPath?`. */
  bashBackgroundFields: ['backgroundTaskId', 'timedOutAfterMs', 'persistedOutputPath']
}

let host: TestHost | undefined
afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

function taskIdIn(messages: readonly ModelMessage[]): string {
  const text = messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content).join('\n')
  const id = /with ID: (b[0-9a-z]{8})/.exec(text)?.[1]
  if (!id) throw new Error(`no task id in ${text}`)
  return id
}

const results = (t: TestHost) => t.events('tool/result').map((e) => ({ name: e.name, content: e.content, isError: e.isError, structured: e.structured as Record<string, unknown> }))
const inputFields = (t: TestHost, tool: string) => Object.keys((t.model.requests[0]!.tools.find((spec) => spec.name === tool)!.inputSchema as { properties: object }).properties)

describe("Claude Code's recorded wording of the background tools", { timeout: 30_000 }, () => {
  it('the timeout-moved message, the background-start message and Bash\'s background fields', async () => {
    host = await createTestHost({
      plugins: [backgroundTasks],
      script: [
        { toolCalls: [{ name: 'Bash', args: { command: 'echo begun; while [ ! -f never ]; do sleep 0.05; done', timeout: 300 } }] },
        (request) => ({ toolCalls: [{ name: 'TaskStop', args: { task_id: taskIdIn(request.messages) } }] }),
        { toolCalls: [{ name: 'Bash', args: { command: 'echo at-once', run_in_background: true } }] },
        { text: 'done' }
      ]
    })
    await host.run('go')
    const [moved, , started] = results(host)
    const movedId = moved!.structured.backgroundTaskId as string
    // The record's sentence with the call's timeout in seconds (0.3s here; 120s at Bash's default).
    expect(moved!.content).toBe(`${RECORDED.moved.replace('120s', '0.3s')}.\nCommand running in background with ID: ${movedId}. Output is being written to: ${moved!.structured.persistedOutputPath as string}`)
    expect(RECORDED.bashBackgroundFields.every((field) => field in moved!.structured)).toBe(true)
    expect(moved!.structured.timedOutAfterMs).toBe(300)
    expect(started!.content).toBe(`Command running in background with ID: ${started!.structured.backgroundTaskId as string}. Output is being written to: ${started!.structured.persistedOutputPath as string}`)
    expect(started!.structured).not.toHaveProperty('timedOutAfterMs')
  })

  it('TaskOutput, TaskStop, BashOutput and KillShell take the recorded inputs and answer the recorded fields', async () => {
    host = await createTestHost({
      plugins: [backgroundTasks],
      script: [
        { toolCalls: [{ name: 'Bash', args: { command: 'echo one; exec sleep 30', run_in_background: true } }, { name: 'Bash', args: { command: 'exec sleep 30', run_in_background: true } }] },
        async (request) => {
          const id = taskIdIn(request.messages)
          const file = host!.events('task/started')[0]!.outputPath
          await waitFor(() => existsSync(file) && readFileSync(file, 'utf8') === 'one\n', scaledTestMs(5_000), 'the first task to print')
          return { toolCalls: [{ name: 'BashOutput', args: { bash_id: id } }] }
        },
        (request) => ({ toolCalls: [{ name: 'TaskStop', args: { task_id: taskIdIn(request.messages) } }] }),
        (request) => ({ toolCalls: [{ name: 'BashOutput', args: { bash_id: taskIdIn(request.messages) } }] }),
        (request) => {
          const second = /with ID: (b[0-9a-z]{8})/g
          const text = request.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content).join('\n')
          const ids = [...text.matchAll(second)].map((match) => match[1]!)
          return { toolCalls: [{ name: 'KillShell', args: { shell_id: ids[1]! } }] }
        },
        { text: 'done' }
      ]
    })
    await host.run('go')
    expect(inputFields(host, 'TaskOutput')).toEqual(RECORDED.taskOutputInput)
    expect(inputFields(host, 'TaskStop')).toEqual(RECORDED.taskStopInput)
    expect(inputFields(host, 'BashOutput')).toEqual(RECORDED.bashOutputInput)
    expect(inputFields(host, 'KillShell')).toEqual(RECORDED.killShellInput)
    const [, , running, stop, ended, kill] = results(host)
    expect(Object.keys(running!.structured)).toEqual(RECORDED.bashOutputResult.filter((field) => field !== 'exitCode'))
    expect(running!.structured).toEqual({ output: 'one\n', status: 'running' })
    expect(Object.keys(stop!.structured)).toEqual(RECORDED.taskStopResult)
    expect(stop!.structured.message).toBe(stop!.content)
    expect(Object.keys(ended!.structured)).toEqual(RECORDED.bashOutputResult)
    expect(RECORDED.bashOutputStatuses).toContain(ended!.structured.status)
    expect(Object.keys(kill!.structured)).toEqual(RECORDED.killShellResult)
    expect(kill!.structured.message).toBe(kill!.content)
  })
})
