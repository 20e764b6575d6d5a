// Background subagents and isolation on the real loop (issue 27): the whole host against the
// loopback OpenAI-wire server. A `run_in_background` call (or an agent with `background: true`)
// returns Claude Code's async_launched result at once; the agent runs on, its final text lands in
// its output file, and the parent hears of it on a later step as a <task-notification>. Closing
// the session stops a background agent.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent, SessionEventOf } from '@seam/sdk'
import { waitFor } from '@seam/sdk/testing'
import { startSubagentHost, type SubagentHost } from './test-host'

const TIME = Number(process.env.SEAM_TEST_TIME_FACTOR) || 1
const WAIT_MS = 10_000 * TIME
const WORKER = (extra = '') => ['---', 'name: worker', 'description: Does one job', 'tools: Read', extra, '---', 'You are WORKER-MARKER.', ''].filter((line) => line !== '').join('\n')

let host: SubagentHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

function ofType<T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T): SessionEventOf<T>[] {
  return events.filter((event): event is SessionEventOf<T> => event.type === type)
}

const isParent = (body: { messages: Array<{ content?: unknown }> }) => !JSON.stringify(body.messages[0]).includes('WORKER-MARKER')

describe('background subagents', () => {
  it('run_in_background returns async_launched at once (agentId, outputFile); the agent runs on; its text lands in the output file and the parent is told with its next prompt', async () => {
    host = await startSubagentHost({
      files: { 'workspace/.claude/agents/worker.md': WORKER() },
      conversations: [
        // Slow enough that the parent's turn ends first.
        { marker: 'WORKER-MARKER', turns: [{ text: 'background work finished', chunkDelayMs: 40 * TIME }] },
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
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('start the worker in the background')
    await session.agent.whenIdle()
    const result = ofType(session.log.events, 'tool/result')[0]
    const structured = result.structured as { status: string; agentId: string; outputFile: string; description: string; prompt: string; canReadOutputFile: boolean }
    expect(structured).toMatchObject({ status: 'async_launched', description: 'Do the job', prompt: 'Do it', canReadOutputFile: true })
    expect(result.content).toContain('Async agent launched successfully.')
    expect(result.content).toContain(`agentId: ${structured.agentId}`)
    expect(result.content).toContain(`output_file: ${structured.outputFile}`)
    expect(ofType(session.log.events, 'turn/end').at(-1)?.reason).toBe('completed')
    // The parent's turn ended before the agent did.
    expect(ofType(session.log.events, 'subagent/end')).toHaveLength(0)

    await waitFor(() => ofType(session.log.events, 'subagent/end').length === 1, WAIT_MS, 'the background agent to end')
    expect(ofType(session.log.events, 'subagent/end')[0]).toMatchObject({ agentId: structured.agentId, reason: 'completed' })
    await waitFor(() => existsSync(structured.outputFile) && readFileSync(structured.outputFile, 'utf8') !== '', WAIT_MS, 'the output file')
    expect(readFileSync(structured.outputFile, 'utf8')).toBe('background work finished')

    session.agent.send('anything new?')
    await session.agent.whenIdle()
    const parentRequests = host.model.requests.filter((r) => isParent(r.body))
    expect(parentRequests).toHaveLength(3)
    const told = JSON.stringify(parentRequests[2].body.messages)
    expect(told).toContain(`<task-id>${structured.agentId}</task-id>`)
    expect(told).toContain('<status>completed</status>')
    expect(told).toContain('<summary>Agent \\"Do the job\\" completed</summary>')
    expect(told).toContain('<result>background work finished</result>')
    expect(JSON.stringify(parentRequests[1].body.messages)).not.toContain('task-notification')
  })

  it('an agent defined with background: true runs in the background without the flag; closing the session stops it', async () => {
    host = await startSubagentHost({
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
    host = await startSubagentHost({
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
