// The Agent tool on the real loop (issue 27): a whole host (base profile, built-in tools, hook
// bridges) against the loopback OpenAI-protocol server, one scripted conversation per agent.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '@seam/sdk'
import { scaledTestMs, waitFor } from '@seam/sdk/testing'
import { cwdOf, hostPerTest, ofType } from './test-host'

const REVIEWER = ['---', 'name: reviewer', 'description: Reviews one file and says what it holds', 'tools: Read, Glob', 'model: inherit', '---', 'You are REVIEWER-MARKER. Read the file you are given and report.', ''].join('\n')

const startHost = hostPerTest()

function childEvents(logPath: string, file: string): SessionEvent[] {
  return readFileSync(join(dirname(logPath), file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SessionEvent)
}

/** Polling deadlines follow the machine's speed (scripts/time-factor.mjs). */
const WAIT_MS = scaledTestMs(10_000)

describe('the Agent tool on the real loop', () => {
  it('runs a project agent as a child turn: own system prompt (body + environment), own tools, own history; the parent gets the final text and Claude Code result fields; child calls are sealed under the Agent call (S9)', async () => {
    const host = await startHost({
      files: { 'workspace/.claude/agents/reviewer.md': REVIEWER, 'workspace/a.txt': 'hello from a\n' },
      conversations: [
        {
          marker: 'REVIEWER-MARKER',
          turns: [(body) => ({ toolCalls: [{ name: 'Read', args: { file_path: join(cwdOf(body), 'a.txt') } }] }), { text: 'a.txt says hello' }]
        },
        {
          marker: '',
          turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Review a file', prompt: 'Review a.txt', subagent_type: 'reviewer' } }] }, { text: 'main done' }]
        }
      ]
    })
    const { session, events } = await host.run('review a.txt with the reviewer')
    const results = ofType(events, 'tool/result')
    expect(results.map((r) => [r.name, r.isError])).toEqual([['Agent', false]])
    expect(results[0].content).toBe('a.txt says hello')
    const structured = results[0].structured as Record<string, unknown>
    expect(structured).toMatchObject({ status: 'completed', agentType: 'reviewer', totalToolUseCount: 1, content: [{ type: 'text', text: 'a.txt says hello' }], prompt: 'Review a.txt' })
    expect(typeof structured.agentId).toBe('string')
    expect(ofType(events, 'turn/end').at(-1)?.reason).toBe('completed')

    // The child's requests: its own system prompt and tools, its own history (no parent messages).
    const childRequests = host.model.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('REVIEWER-MARKER'))
    expect(childRequests).toHaveLength(2)
    const first = childRequests[0].body
    const system = String(first.messages[0].content)
    expect(system.startsWith('You are REVIEWER-MARKER.')).toBe(true)
    expect(system).toContain(`Working directory: ${host.workspace}`)
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(['Glob', 'Read'])
    expect(first.messages.slice(1)).toEqual([{ role: 'user', content: 'Review a.txt' }])

    // The parent log ties the child to the Agent call; the child's own log holds its calls.
    const call = ofType(events, 'tool/call')[0]
    const start = ofType(events, 'subagent/start')[0]
    const end = ofType(events, 'subagent/end')[0]
    expect(start).toMatchObject({ token: call.token, agentType: 'reviewer', description: 'Review a file', agentId: structured.agentId })
    expect(end).toMatchObject({ token: call.token, reason: 'completed', toolUseCount: 1, steps: 2 })
    const child = childEvents(session.log.path, start.file)
    const childCall = ofType(child, 'tool/call')[0]
    expect(childCall).toMatchObject({ name: 'Read', parent: call.token })
    expect(ofType(child, 'tool/result')[0].content).toContain('hello from a')
    expect(ofType(child, 'assistant/message').at(-1)?.text).toBe('a.txt says hello')
  })

  it('an unknown subagent_type is an error naming the available agents; with maxDepth 1 a subagent has no Agent tool', async () => {
    const host = await startHost({
      conversations: [
        { marker: 'read-only exploration agent', turns: [{ text: 'explored' }] },
        {
          marker: '',
          turns: [
            { toolCalls: [{ name: 'Task', args: { description: 'x', prompt: 'y', subagent_type: 'nope' } }] },
            { toolCalls: [{ name: 'Task', args: { description: 'Explore', prompt: 'look around', subagent_type: 'explore' } }] },
            { text: 'done' }
          ]
        }
      ]
    })
    const { events } = await host.run('go')
    const results = ofType(events, 'tool/result')
    expect(results[0]).toMatchObject({ name: 'Task', isError: true })
    expect(results[0].content).toContain("Agent type 'nope' not found. Available agents: general-purpose, Explore, Plan")
    // `Task` is accepted as the old name; `explore` finds `Explore` (case-insensitive).
    expect(results[1]).toMatchObject({ name: 'Task', isError: false, content: 'explored' })
    const childRequest = host.model.requests.find((r) => JSON.stringify(r.body.messages[0]).includes('read-only exploration agent'))!
    // Explore is read-only: of the host's tools it gets only the ones that look.
    const names = childRequest.body.tools?.map((t) => t.function.name) ?? []
    expect(names).toEqual(expect.arrayContaining(['Glob', 'Grep', 'Read']))
    expect(names.every((name) => ['Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch'].includes(name))).toBe(true)
    // The parent offers the Agent tool; the subagent (depth 1 of maxDepth 1) does not.
    expect(host.model.requests[0].body.tools?.some((t) => t.function.name === 'Agent')).toBe(true)
  })

  it('cancelling the parent cancels its running subagent: the child turn ends cancelled and the parent records it', async () => {
    const host = await startHost({
      conversations: [
        { marker: 'You are an agent working for a coding assistant', turns: [{ text: 'thinking...', hangAfterChars: 4 }] },
        { marker: '', turns: [{ toolCalls: [{ name: 'Agent', args: { description: 'Long task', prompt: 'work forever' } }] }] }
      ]
    })
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('start a long subagent')
    await waitFor(() => host!.model.requests.length >= 2, WAIT_MS, 'the subagent request')
    await session.agent.cancel()
    await session.agent.whenIdle()
    const events = session.log.events
    expect(ofType(events, 'turn/end').at(-1)?.reason).toBe('cancelled')
    await waitFor(() => ofType(session.log.events, 'subagent/end').length === 1, WAIT_MS, 'subagent/end')
    expect(ofType(session.log.events, 'subagent/end')[0].reason).toBe('cancelled')
    const start = ofType(session.log.events, 'subagent/start')[0]
    expect(existsSync(join(dirname(session.log.path), start.file))).toBe(true)
  })
})
