// Background tasks over ACP, with the editor's terminal (issue 28): the built `seam acp` as a child
// process, driven by a real ACP client (test-client.ts) whose terminal runs real processes
// (processTerminal). A command that reaches its timeout in the client's terminal moves to the
// background there; TaskOutput reads it through terminal/output, TaskStop ends it through
// terminal/kill, and its end is told to the client even when the session is idle.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { scaledTestMs, waitFor } from '../process/liveness'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { nextUpdate } from './test-client'
import { agent, connect, lastToolContent, processTerminal, providerArgs, setup, updatesOf, useAcpFixture } from './acp-fixture'

useAcpFixture()

/** The task id in the last tool result the model was shown. */
function taskIdIn(body: OpenAIRequestBody): string {
  const id = /with ID: (b[0-9a-z]{8})/.exec(lastToolContent(body))?.[1]
  if (!id) throw new Error(`no task id in ${lastToolContent(body)}`)
  return id
}

/** The output file named in the last tool result the model was shown. */
function outputFileIn(body: OpenAIRequestBody): string {
  const file = /Output is being written to: (\S+\.output)/.exec(lastToolContent(body))?.[1]
  if (!file) throw new Error(`no output file in ${lastToolContent(body)}`)
  return file
}

/** The background-tasks plugin's config for the `seam acp` of this Seam home (the user's patch layer). */
async function backgroundTasksConfig(home: string, config: string): Promise<void> {
  await writeFile(join(home, 'cordis.patch.yml'), `- id: background-tasks\n  config: ${config}\n`)
}

const readIfThere = (file: string): Promise<string> => readFile(file, 'utf8').catch(() => '')

const isTaskNotice = (update: acp.SessionUpdate): boolean =>
  update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && update.content.text.startsWith('<task-notification>')

describe('background tasks in the client terminal', { timeout: 60_000 }, () => {
  it('a foreground command at its timeout moves to the background in the same terminal; TaskOutput reads it with terminal/output; its end while idle reaches the client as the notice, then the terminal is released', async () => {
    let taskId = ''
    const s = await setup([
      { toolCalls: [{ id: 'slow', name: 'Bash', args: { command: 'echo first; : > printed; while [ ! -f go ]; do sleep 0.05; done; echo second; exit 5', timeout: 400, description: 'Wait for go' } }] },
      async (body) => {
        taskId = taskIdIn(body)
        // The peek is to find `first`. The timeout moves the command at 0.4 s whether or not its
        // shell has started: on a loaded machine it may not have written anything yet, so the peek
        // waits for the file the command creates once `first` is in the terminal's pipe.
        await waitFor(() => existsSync(join(s.workspace, 'printed')), scaledTestMs(10_000), 'the command to write `first`')
        return { toolCalls: [{ id: 'peek', name: 'TaskOutput', args: { task_id: taskId, block: false } }] }
      },
      { text: 'it runs on' },
      { text: 'noted' }
    ])
    const requests: string[] = []
    const proc = agent(s, providerArgs(s, '--approve', 'allow'), { terminal: processTerminal(requests, { recordOutput: true }) })
    await connect(proc, { terminal: true })
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect((await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'start it' }] })).stopReason).toBe('end_turn')

    // Claude Code's words for a command moved at its timeout, then the task's id and file.
    const moved = lastToolContent(s.server.requests[1]!.body)
    expect(moved).toMatch(/^"Command did not complete within its 0\.4s timeout and was moved to the background\.\\nCommand running in background with ID: b[0-9a-z]{8}\. Output is being written to: \/.+\.output"$/)
    // The non-blocking read asked the client's terminal for its output.
    const peek = lastToolContent(s.server.requests[2]!.body)
    expect(peek).toContain('<retrieval_status>not_ready</retrieval_status>')
    expect(peek).toContain('<output>\\nfirst\\n</output>')
    // One terminal, never killed, not released while the task runs.
    expect(requests.filter((r) => r.startsWith('terminal '))).toHaveLength(1)
    expect(requests).not.toContain('kill term-1')
    expect(requests).not.toContain('release term-1')
    expect(requests.filter((r) => r === 'output term-1').length).toBeGreaterThanOrEqual(2)

    // The session is idle: the task's end reaches the client as the model's notice.
    const told = nextUpdate(proc, isTaskNotice)
    await writeFile(join(s.workspace, 'go'), '')
    const notice = (await told) as Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' }>
    const text = notice.content.type === 'text' ? notice.content.text : ''
    expect(text).toContain(`<task-id>${taskId}</task-id>`)
    expect(text).toContain('<status>failed</status>')
    expect(text).toContain('<summary>Background command "Wait for go" failed with exit code 5</summary>')
    expect(text).toContain('<output-tail>\nfirst\nsecond\n</output-tail>')
    expect(notice._meta).toMatchObject({ seam: { task: { id: taskId, status: 'failed', exitCode: 5 } } })
    await expect.poll(() => requests.at(-1)).toBe('release term-1')
    expect(requests).not.toContain('kill term-1')

    // The model hears of it with the next prompt, as without ACP.
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and?' }] })
    expect(JSON.stringify(s.server.requests[3]!.body.messages)).toContain(`<task-id>${taskId}</task-id>`)
    expect(updatesOf(proc, sessionId).filter(isTaskNotice)).toHaveLength(1)
  })

  it('run_in_background runs in a client terminal; TaskStop ends it with terminal/kill and releases it; closing the session does the same for a running one', async () => {
    const s = await setup([
      { toolCalls: [{ id: 'bg', name: 'Bash', args: { command: 'echo up; exec sleep 60', run_in_background: true } }] },
      (body) => ({ toolCalls: [{ id: 'stop', name: 'TaskStop', args: { task_id: taskIdIn(body) } }] }),
      { toolCalls: [{ id: 'bg2', name: 'Bash', args: { command: 'exec sleep 60', run_in_background: true } }] },
      { text: 'left running' }
    ])
    const requests: string[] = []
    const proc = agent(s, providerArgs(s, '--approve', 'allow'), { terminal: processTerminal(requests) })
    await connect(proc, { terminal: true })
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] })

    expect(lastToolContent(s.server.requests[1]!.body)).toMatch(/^"Command running in background with ID: b[0-9a-z]{8}\. Output is being written to: /)
    expect(lastToolContent(s.server.requests[2]!.body)).toMatch(/^"Successfully stopped task: b[0-9a-z]{8} \(echo up; exec sleep 60\)"$/)
    expect(requests.slice(0, 3)).toEqual([expect.stringMatching(/^terminal \/bin\/(ba)?sh -c echo up; exec sleep 60$/), 'kill term-1', 'release term-1'])
    expect(requests.slice(3)).toEqual([expect.stringMatching(/^terminal \/bin\/(ba)?sh -c exec sleep 60$/)])
    // A task TaskStop ended was reported by it: the client gets no notice of it.
    expect(updatesOf(proc, sessionId).filter(isTaskNotice)).toHaveLength(0)

    await proc.agent.request('session/close', { sessionId })
    expect(requests.slice(3)).toEqual([expect.stringMatching(/^terminal /), 'kill term-2', 'release term-2'])
  })

  it('a task in a client terminal has its output file kept up to date while it runs, with nobody reading it (terminal/output at terminalRefreshMs)', async () => {
    let outputFile = ''
    const s = await setup([
      { toolCalls: [{ id: 'bg', name: 'Bash', args: { command: 'echo first; while [ ! -f go ]; do sleep 0.05; done; echo second; exec sleep 60', run_in_background: true } }] },
      (body) => {
        outputFile = outputFileIn(body)
        return { text: 'it runs' }
      }
    ])
    await backgroundTasksConfig(s.home, '{ terminalRefreshMs: 100 }')
    const requests: string[] = []
    const proc = agent(s, providerArgs(s, '--approve', 'allow'), { terminal: processTerminal(requests, { recordOutput: true }) })
    await connect(proc, { terminal: true })
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'start it' }] })

    // The session is idle and nothing reads the task: its file follows the terminal all the same.
    await expect.poll(() => readIfThere(outputFile), { timeout: 20_000 }).toBe('first\n')
    await writeFile(join(s.workspace, 'go'), '')
    await expect.poll(() => readIfThere(outputFile), { timeout: 20_000 }).toBe('first\nsecond\n')
    expect(s.server.requests).toHaveLength(2)
    expect(requests.filter((r) => r === 'output term-1').length).toBeGreaterThanOrEqual(2)

    await proc.agent.request('session/close', { sessionId })
    expect(requests).toContain('kill term-1')
    expect(requests.at(-1)).toBe('release term-1')
  })

  it('a Read of a client-terminal task\'s output file first brings it up to date (terminal/output right before the Read)', async () => {
    let outputFile = ''
    const s = await setup([
      { toolCalls: [{ id: 'bg', name: 'Bash', args: { command: 'echo first; touch started; while [ ! -f go ]; do sleep 0.05; done; echo second; touch said; exec sleep 60', run_in_background: true } }] },
      // However slowly the command starts, its first line is out before the first Read.
      (body) => {
        outputFile = outputFileIn(body)
        return { toolCalls: [{ id: 'started', name: 'Bash', args: { command: 'while [ ! -f started ]; do sleep 0.05; done' } }] }
      },
      () => ({ toolCalls: [{ id: 'read1', name: 'Read', args: { file_path: outputFile } }] }),
      // The command prints its second line; this foreground call returns once it has.
      () => ({ toolCalls: [{ id: 'wait', name: 'Bash', args: { command: 'touch go; while [ ! -f said ]; do sleep 0.05; done' } }] }),
      () => ({ toolCalls: [{ id: 'read2', name: 'Read', args: { file_path: outputFile } }] }),
      { text: 'read it' }
    ])
    // Fetched on its own only every ten minutes: only the fetch before each Read brings the output in.
    await backgroundTasksConfig(s.home, '{ terminalRefreshMs: 600000 }')
    const requests: string[] = []
    const proc = agent(s, providerArgs(s, '--approve', 'allow'), { terminal: processTerminal(requests, { recordOutput: true }) })
    await connect(proc, { terminal: true })
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect((await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')

    const first = lastToolContent(s.server.requests[3]!.body)
    expect(first).toContain('first')
    expect(first).not.toContain('second')
    expect(lastToolContent(s.server.requests[5]!.body)).toMatch(/first\\n.*second/)
    expect(await readFile(outputFile, 'utf8')).toBe('first\nsecond\n')
    // Each Read asked the task's terminal (term-1) for its output; the foreground waits ran in terms 2 and 3.
    expect(requests.filter((r) => r === 'output term-1')).toHaveLength(2)
    await proc.agent.request('session/close', { sessionId })
  })
})
