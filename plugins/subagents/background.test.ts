// Background subagents and isolation on the real loop (issue 27): the whole host against the
// loopback OpenAI-wire server. A `run_in_background` call (or an agent with `background: true`)
// returns Claude Code's async_launched result at once; the agent runs on as a background task
// (TaskOutput, TaskStop), its final text lands in its output file, and the parent hears of it as a
// <task-notification>: at its next step, or in a turn of its own when idle. Closing the session
// stops a background agent. The worker waits on a gate file the test opens: no timing decides order.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isAlive, scaledTestMs, waitFor } from '@seam/sdk/testing'
import { hostPerTest, ofType, type Conversation } from './test-host'

const WAIT_MS = scaledTestMs(10_000)
const WORKER_WITH_BASH = ['---', 'name: worker', 'description: Does one job', 'tools: Read, Bash', '---', 'You are WORKER-MARKER.', ''].join('\n')
const WORKER = (extra = '') => ['---', 'name: worker', 'description: Does one job', 'tools: Read', extra, '---', 'You are WORKER-MARKER.', ''].filter((line) => line !== '').join('\n')

const startHost = hostPerTest()

const isParent = (body: { messages: Array<{ content?: unknown }> }) => !JSON.stringify(body.messages[0]).includes('WORKER-MARKER')

describe('background subagents', () => {
  /** The worker's first request runs a Bash call that waits for `gate` (the test opens it), writing its shell's pid first. */
  const gatedWorker = (files: { gate: string; pid: string }, finalText: string): Conversation => ({
    marker: 'WORKER-MARKER',
    // A function: the paths are read when the request comes (the host's folder is made after the script).
    turns: [() => ({ toolCalls: [{ name: 'Bash', args: { command: `echo $$ > '${files.pid}'; until [ -f '${files.gate}' ]; do sleep 0.02; done; echo gate open` } }] }), { text: finalText }]
  })
  const agentIdIn = (body: { messages: Array<{ content?: unknown }> }): string => /agentId: (a[0-9a-f]+)/.exec(JSON.stringify(body.messages))?.[1] ?? 'none'
  const files = { gate: '', pid: '' }
  const gateFiles = (root: string) => Object.assign(files, { gate: join(root, 'gate'), pid: join(root, 'worker.pid') })

  it('run_in_background returns async_launched at once (agentId, outputFile); when the agent ends while the parent is idle, a parent turn opens by itself with the <task-notification>', async () => {
    const host = await startHost({
      files: { 'workspace/.claude/agents/worker.md': WORKER_WITH_BASH },
      conversations: [
        gatedWorker(files, 'background work finished'),
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Do the job', prompt: 'Do it', subagent_type: 'worker', run_in_background: true } }] },
            { text: 'launched it' },
            { text: 'heard back' }
          ]
        }
      ]
    })
    gateFiles(host.root)
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('start the worker in the background')
    await session.agent.whenIdle()
    const result = ofType(session.log.events, 'tool/result')[0]
    const structured = result.structured as { status: string; agentId: string; outputFile: string; description: string; prompt: string; canReadOutputFile: boolean }
    expect(structured).toMatchObject({ status: 'async_launched', description: 'Do the job', prompt: 'Do it', canReadOutputFile: true })
    expect(result.content).toContain('Async agent launched successfully.')
    expect(result.content).toContain(`agentId: ${structured.agentId}`)
    expect(result.content).toContain(`output_file: ${structured.outputFile}`)
    expect(ofType(session.log.events, 'turn/end')).toHaveLength(1)
    // The parent's turn ended before the agent did: the agent waits for the gate.
    expect(ofType(session.log.events, 'subagent/end')).toHaveLength(0)
    // It is a background task of the session (local_agent), running.
    const tasks = session.kernel.getService('backgroundTasks')!
    expect(tasks.list(session.log.id)).toEqual([expect.objectContaining({ id: structured.agentId, taskType: 'local_agent', agentType: 'worker', status: 'running', description: 'Do the job', outputPath: structured.outputFile })])

    writeFileSync(files.gate, '')
    await waitFor(() => ofType(session.log.events, 'turn/end').length === 2, WAIT_MS, 'the turn the finished agent opens')
    await session.agent.whenIdle()
    expect(ofType(session.log.events, 'subagent/end')[0]).toMatchObject({ agentId: structured.agentId, reason: 'completed' })
    expect(readFileSync(structured.outputFile, 'utf8')).toBe('background work finished')
    expect(tasks.list(session.log.id)[0]).toMatchObject({ id: structured.agentId, status: 'completed' })

    // The second turn has no user message: it opens with the notification, and the model answers it.
    const second = ofType(session.log.events, 'turn/start')[1].turnId
    expect(ofType(session.log.events, 'user/message').filter((e) => e.turnId === second)).toHaveLength(0)
    const notice = ofType(session.log.events, 'context/message').filter((e) => e.turnId === second)
    expect(notice).toHaveLength(1)
    expect(notice[0].source).toBe('background-agent')
    expect(notice[0].text).toContain(`<task-id>${structured.agentId}</task-id>`)
    expect(notice[0].text).toContain('<status>completed</status>')
    expect(notice[0].text).toContain('<summary>Agent "Do the job" completed</summary>')
    expect(notice[0].text).toContain('<result>background work finished</result>')
    expect(ofType(session.log.events, 'assistant/message').at(-1)?.text).toBe('heard back')
    const parentRequests = host.model.requests.filter((r) => isParent(r.body))
    expect(parentRequests).toHaveLength(3)
    expect(JSON.stringify(parentRequests[2].body.messages)).toContain(`<task-id>${structured.agentId}</task-id>`)
    expect(JSON.stringify(parentRequests[1].body.messages)).not.toContain('task-notification')
  })

  it('TaskOutput reads a background agent (not_ready while it runs; blocking, its final result once it ends) and the running turn gets the notification at its next step', async () => {
    const host = await startHost({
      files: { 'workspace/.claude/agents/worker.md': WORKER_WITH_BASH },
      conversations: [
        gatedWorker(files, 'the answer is 42'),
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Find the answer', prompt: 'Find it', subagent_type: 'worker', run_in_background: true } }] },
            (body) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: agentIdIn(body), block: false } }] }),
            (body) => ({ toolCalls: [{ name: 'TaskOutput', args: { task_id: agentIdIn(body), block: true, timeout: WAIT_MS } }] }),
            { text: 'got it' }
          ]
        }
      ]
    })
    gateFiles(host.root)
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('find the answer in the background')
    // The blocking TaskOutput is waiting: open the gate.
    await waitFor(() => ofType(session.log.events, 'tool/call').filter((e) => e.name === 'TaskOutput').length === 2, WAIT_MS, 'the blocking TaskOutput call')
    writeFileSync(files.gate, '')
    await waitFor(() => ofType(session.log.events, 'turn/end').length === 1, WAIT_MS, 'the turn to end')
    await session.agent.whenIdle()
    const agentId = (ofType(session.log.events, 'tool/result')[0].structured as { agentId: string }).agentId
    const [notReady, done] = ofType(session.log.events, 'tool/result').slice(1)
    expect(notReady.content).toContain('<retrieval_status>not_ready</retrieval_status>')
    expect(notReady.content).toContain('<task_type>local_agent</task_type>')
    expect(notReady.content).toContain('<status>running</status>')
    expect(done.content).toContain('<retrieval_status>success</retrieval_status>')
    expect(done.content).toContain('<status>completed</status>')
    expect(done.content).toContain('<output>\nthe answer is 42\n</output>')
    expect(done.structured).toMatchObject({ retrieval_status: 'success', task: { task_id: agentId, task_type: 'local_agent', status: 'completed', description: 'Find the answer', output: 'the answer is 42', agentType: 'worker' } })
    // One turn: the notification joined it at its next step (the request after the blocking TaskOutput).
    expect(ofType(session.log.events, 'turn/end')).toHaveLength(1)
    const last = host.model.requests.filter((r) => isParent(r.body)).at(-1)!
    expect(JSON.stringify(last.body.messages)).toContain(`<task-id>${agentId}</task-id>`)
  })

  it('TaskStop stops a background agent and what it runs (its Bash process); the stop is told with the next prompt, without a turn of its own', async () => {
    const host = await startHost({
      files: { 'workspace/.claude/agents/worker.md': WORKER_WITH_BASH },
      conversations: [
        gatedWorker(files, 'never said'),
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Wait forever', prompt: 'Wait', subagent_type: 'worker', run_in_background: true } }] },
            { text: 'launched' },
            (body) => ({ toolCalls: [{ name: 'TaskStop', args: { task_id: agentIdIn(body) } }] }),
            { text: 'stopped it' },
            { text: 'noted' }
          ]
        }
      ]
    })
    gateFiles(host.root)
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('start a worker')
    await session.agent.whenIdle()
    // The worker's Bash runs (its shell wrote its pid) before the parent is asked to stop it.
    await waitFor(() => existsSync(files.pid) && readFileSync(files.pid, 'utf8').trim() !== '', WAIT_MS, "the worker's Bash call")
    const pid = Number(readFileSync(files.pid, 'utf8'))
    session.agent.send('stop it')
    await session.agent.whenIdle()
    const agentId = (ofType(session.log.events, 'tool/result')[0].structured as { agentId: string }).agentId
    const stop = ofType(session.log.events, 'tool/result')[1]
    expect(stop.content).toBe(`Successfully stopped task: ${agentId} (Wait forever)`)
    expect(stop.structured).toEqual({ message: stop.content, task_id: agentId, task_type: 'local_agent', command: 'Wait forever' })
    expect(ofType(session.log.events, 'subagent/end')[0]).toMatchObject({ agentId, reason: 'cancelled' })
    expect(session.kernel.getService('backgroundTasks')!.list(session.log.id)[0]).toMatchObject({ id: agentId, status: 'killed', endReason: 'stopped' })
    await waitFor(() => !isAlive(pid), WAIT_MS, "the worker's Bash process to end")
    // No turn of its own for a stopped agent; the next prompt carries the notice.
    expect(ofType(session.log.events, 'turn/end')).toHaveLength(2)
    session.agent.send('what happened?')
    await session.agent.whenIdle()
    const last = host.model.requests.filter((r) => isParent(r.body)).at(-1)!
    expect(JSON.stringify(last.body.messages)).toContain('<summary>Agent \\"Wait forever\\" was stopped</summary>')
  })

  it('an agent defined with background: true runs in the background without the flag; closing the session stops it', async () => {
    const host = await startHost({
      files: { 'workspace/.claude/agents/worker.md': WORKER('background: true') },
      conversations: [
        { marker: 'WORKER-MARKER', turns: [{ text: 'working forever', hangAfterChars: 3 }] },
        { marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Long job', prompt: 'Go', subagent_type: 'worker' } }] }, { text: 'launched' }] }
      ]
    })
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('start')
    await session.agent.whenIdle()
    expect((ofType(session.log.events, 'tool/result')[0].structured as { status: string }).status).toBe('async_launched')
    await waitFor(() => host!.model.requests.some((r) => !isParent(r.body)), WAIT_MS, 'the background agent\'s request')
    expect(ofType(session.log.events, 'subagent/end')).toHaveLength(0)
    const events = session.log.events
    await host.runtime.sessions.close(session.log.id, 'closed')
    await waitFor(() => ofType(events, 'subagent/end').length === 1, WAIT_MS, 'the background agent to stop')
    expect(ofType(events, 'subagent/end')[0].reason).toBe('cancelled')
    const outputFile = (ofType(events, 'tool/result')[0].structured as { outputFile: string }).outputFile
    await waitFor(() => readFileSync(outputFile, 'utf8') !== '', WAIT_MS, 'the output file')
    // What a stopped agent's call would have answered (Claude Code's interrupted result).
    expect(readFileSync(outputFile, 'utf8')).toBe('[Request interrupted by user for tool use]')
  })
})

describe('isolation: worktree', () => {
  async function gitRepo(dir: string): Promise<void> {
    const { execFileSync } = await import('node:child_process')
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } })
    git('init', '-q', '-b', 'main')
    git('add', '-A')
    git('commit', '-q', '-m', 'start')
  }
  const cwdOf = (body: { messages: Array<{ content?: unknown }> }) => /Working directory: (.*)/.exec(String(body.messages[0].content))?.[1].trim() ?? ''

  it('an agent with isolation: worktree runs in a temporary git worktree; one that changed files is kept and named (path, branch) in the result; one that changed nothing is removed', async () => {
    const ISOLATED = ['---', 'name: isolated', 'description: Works in its own worktree', 'tools: Write, Read', 'isolation: worktree', '---', 'You are ISOLATED-MARKER.', ''].join('\n')
    const seen: string[] = []
    const host = await startHost({
      files: { 'workspace/.claude/agents/isolated.md': ISOLATED, 'workspace/README.md': 'hello\n' },
      conversations: [
        {
          marker: 'ISOLATED-MARKER',
          turns: [
            (body) => {
              seen.push(cwdOf(body))
              // The first agent writes a file; the second says it has nothing to do.
              return seen.length === 1 ? { toolCalls: [{ name: 'Write', args: { file_path: `${cwdOf(body)}/made.txt`, content: 'made here\n' } }] } : { text: 'nothing to change' }
            },
            { text: 'wrote made.txt' }
          ]
        },
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Agent', args: { description: 'Make a file', prompt: 'Make it', subagent_type: 'isolated' } }] },
            { toolCalls: [{ name: 'Agent', args: { description: 'Look only', prompt: 'Look', subagent_type: 'isolated' } }] },
            { text: 'done' }
          ]
        }
      ]
    })
    await gitRepo(host.workspace)
    const { events } = await host.run('go')
    const [changed, unchanged] = ofType(events, 'tool/result')
    const kept = changed.structured as { worktreePath: string; worktreeBranch: string }
    expect(seen).toHaveLength(2)
    expect(seen[0]).not.toBe(host.workspace)
    expect(kept.worktreePath).toBe(seen[0])
    expect(kept.worktreeBranch).toMatch(/^seam\/agent-a[0-9a-f]{16}$/)
    expect(changed.content).toBe(`wrote made.txt\n\nThe agent's changes are kept in the git worktree ${kept.worktreePath} on branch ${kept.worktreeBranch}.`)
    expect(readFileSync(`${kept.worktreePath}/made.txt`, 'utf8')).toBe('made here\n')
    expect(existsSync(`${host.workspace}/made.txt`)).toBe(false)

    expect(unchanged.content).toBe('nothing to change')
    expect(unchanged.structured).not.toHaveProperty('worktreePath')
    expect(seen[1]).not.toBe(host.workspace)
    expect(existsSync(seen[1])).toBe(false)
  })
})
