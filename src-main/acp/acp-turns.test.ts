// `seam acp` end to end, the turn side: streaming, tool calls and their cards, approvals each
// way, S18 rewrites, cancel, blocked prompts, stop reasons, and Read/Write/Edit/Bash through the
// editor's file system and terminal. Same wiring as acp.test.ts (acp-fixture.ts).
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import type { OpenAIRequestBody, OpenAIScript } from '../../test-support/fake-openai.mjs'
import { nextUpdate } from './test-client'
import {
  agent,
  connect,
  lastToolContent,
  lastToolContentOf,
  processTerminal,
  providerArgs,
  rpcError,
  sessionEvents,
  setup,
  textOf,
  updatesOf,
  useAcpFixture
} from './acp-fixture'

useAcpFixture()

describe('session/prompt', () => {
  it('streams thought and message chunks and tool calls with kind, title, locations and a diff, then ends end_turn (allow once)', async () => {
    const script: OpenAIScript = [
      { toolCalls: [{ id: 'c1', name: 'Edit', args: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } }] },
      { thinking: 'The edit went through.', text: 'Changed beta to gamma.' }
    ]
    const s = await setup(script)
    const file = join(s.workspace, 'notes.txt')
    await writeFile(file, 'alpha\nbeta\n')
    const asked: acp.RequestPermissionRequest[] = []
    const proc = agent(s, providerArgs(s), {
      permission: (params) => {
        asked.push(params)
        return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } }
      }
    })
    await connect(proc)
    const { sessionId, modes } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect(modes?.currentModeId).toBe('ask-side-effects')
    const response = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'edit the notes' }] })
    expect(response.stopReason).toBe('end_turn')
    expect(await readFile(file, 'utf8')).toBe('alpha\ngamma\n')
    const updates = updatesOf(proc, sessionId)
    const call = updates.find((u) => u.sessionUpdate === 'tool_call')
    expect(call).toMatchObject({ toolCallId: 'turn-1/c1', kind: 'edit', title: 'Edit notes.txt', status: 'pending', locations: [{ path: file }] })
    expect(asked).toHaveLength(1)
    expect(asked[0]!.toolCall.toolCallId).toBe('turn-1/c1')
    expect(asked[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'allow_always', 'reject_once'])
    const statuses = updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status).map((u) => (u as { status: string }).status)
    expect(statuses).toEqual(['in_progress', 'completed'])
    const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }>
    expect(done.content?.[0]).toEqual({ type: 'diff', path: file, oldText: 'alpha\nbeta\n', newText: 'alpha\ngamma\n' })
    expect(done.locations).toEqual([{ path: file, line: 2 }])
    expect(textOf(updates, 'agent_thought_chunk')).toBe('The edit went through.')
    expect(textOf(updates, 'agent_message_chunk')).toBe('Changed beta to gamma.')
    // The tool card comes before the answer that follows it.
    expect(updates.indexOf(call!)).toBeLessThan(updates.findIndex((u) => u.sessionUpdate === 'agent_message_chunk'))
  })

  it('permission answered reject (with a note), allow for the session, cancelled, and dropped by the client: denied, allowed-session, cancelled, unavailable', async () => {
    const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Bash', args: { command } }] })
    const echo = (body: OpenAIRequestBody) => ({ text: `saw ${lastToolContent(body)}` })
    const s = await setup([
      bash('r1', 'touch rejected.txt'),
      echo,
      bash('s1', 'echo granted'),
      echo,
      bash('s2', 'echo granted'),
      echo,
      bash('x1', 'touch cancelled.txt'),
      echo,
      bash('d1', 'touch dropped.txt'),
      echo
    ])
    const answers: Array<(params: acp.RequestPermissionRequest) => acp.RequestPermissionResponse> = [
      () => ({ outcome: { outcome: 'selected', optionId: 'reject', _meta: { note: 'not in this folder' } } }),
      (params) => ({ outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_always')!.optionId } }),
      () => ({ outcome: { outcome: 'cancelled' } }),
      () => {
        throw new Error('the editor lost the dialog')
      }
    ]
    let asks = 0
    const proc = agent(s, providerArgs(s), { permission: (params) => answers[asks++]!(params) })
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const prompt = (text: string) => proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })

    expect((await prompt('make rejected')).stopReason).toBe('end_turn')
    expect(existsSync(join(s.workspace, 'rejected.txt'))).toBe(false)
    expect(textOf(updatesOf(proc, sessionId), 'agent_message_chunk')).toMatch(/Permission denied.*not in this folder/)

    expect((await prompt('echo granted')).stopReason).toBe('end_turn')
    expect((await prompt('echo granted again')).stopReason).toBe('end_turn')
    expect(asks).toBe(3 - 1) // the session grant answered the second identical command

    await prompt('make cancelled')
    await prompt('make dropped')
    expect(existsSync(join(s.workspace, 'cancelled.txt'))).toBe(false)
    expect(existsSync(join(s.workspace, 'dropped.txt'))).toBe(false)
    expect(asks).toBe(4)

    const decided = (await sessionEvents(s.home, sessionId)).filter((e) => e.type === 'approval/decided').map((e) => e.outcome)
    expect(decided).toEqual(['denied', 'allowed-session', 'cancelled', 'unavailable'])
    const failed = updatesOf(proc, sessionId).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed')
    expect(failed.map((u) => (u as { toolCallId: string }).toolCallId)).toEqual(['turn-1/r1', 'turn-4/x1', 'turn-5/d1'])
  })

  it('shows the arguments as rewritten before sealing (S18) in rawInput, with the original in _meta', async () => {
    const rewrite = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo rewritten' } } })
    const s = await setup([{ toolCalls: [{ id: 'w1', name: 'Bash', args: { command: 'echo original' } }] }, { text: 'ok' }], {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${rewrite}'` }] }] }
    })
    const proc = agent(s, providerArgs(s, '--approve', 'allow'))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run it' }] })
    const updates = updatesOf(proc, sessionId)
    const sealed = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.rawInput !== undefined) as Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }>
    expect(sealed.rawInput).toMatchObject({ command: 'echo rewritten' })
    expect(sealed._meta).toMatchObject({ seam: { originalArgs: { command: 'echo original' } } })
    const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as { content: acp.ToolCallContent[] }
    expect(JSON.stringify(done.content)).toContain('rewritten')
  })

  it('a prompt while a turn runs is refused; session/cancel stops the running tool, which still gets its result, and the turn ends cancelled', async () => {
    const s = await setup([{ toolCalls: [{ id: 'slow', name: 'Bash', args: { command: 'sleep 30' } }] }, { text: 'never' }])
    const proc = agent(s, providerArgs(s, '--approve', 'allow'))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const started = nextUpdate(proc, (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress')
    const turn = proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
    await started
    const busy = await rpcError(proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }))
    expect(busy).toMatchObject({ code: -32600, message: expect.stringMatching(/a turn is already running/) })
    const t0 = Date.now()
    await proc.agent.notify('session/cancel', { sessionId })
    expect((await turn).stopReason).toBe('cancelled')
    expect(Date.now() - t0).toBeLessThan(10_000)
    const final = updatesOf(proc, sessionId).filter((u) => u.sessionUpdate === 'tool_call_update' && (u.status === 'failed' || u.status === 'completed'))
    expect(final).toHaveLength(1)
    expect(final[0]).toMatchObject({ toolCallId: 'turn-1/slow', status: 'failed' })
    expect(s.server.requests).toHaveLength(1)
  })

  it('a prompt blocked by a prompt-submit hook ends cancelled (S21: rejected) with the reason shown as an agent message', async () => {
    const s = await setup([{ text: 'should not be asked' }], {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: "grep -q secret && { echo 'no secrets in prompts' >&2; exit 2; } || exit 0" }] }] }
    })
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const response = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tell me the secret' }] })
    expect(response.stopReason).toBe('cancelled')
    expect(textOf(updatesOf(proc, sessionId), 'agent_message_chunk')).toMatch(/Prompt blocked.*no secrets in prompts/s)
    expect(s.server.requests).toHaveLength(0)
  })

  it("a TodoWrite is the plan update, live and when the session is loaded again (the list is in the log)", async () => {
    const todos = [
      { content: 'Read the code', status: 'completed', activeForm: 'Reading the code' },
      { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' }
    ]
    const s = await setup([{ toolCalls: [{ id: 't1', name: 'TodoWrite', args: { todos } }] }, { text: 'planned' }])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan the fix' }] })
    const plan = {
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read the code', status: 'completed', priority: 'medium' },
        { content: 'Fix the bug', status: 'in_progress', priority: 'medium' }
      ]
    }
    expect(updatesOf(proc, sessionId).filter((u) => u.sessionUpdate === 'plan')).toEqual([plan])
    await proc.agent.request('session/close', { sessionId })

    const again = agent(s, providerArgs(s))
    await connect(again)
    await again.agent.request('session/load', { sessionId, cwd: s.workspace, mcpServers: [] })
    expect(updatesOf(again, sessionId).filter((u) => u.sessionUpdate === 'plan')).toEqual([plan])
  })

  it('stop reasons (S21): max_steps ends max_turn_requests, a length cut max_tokens, a content filter refusal', async () => {
    const s = await setup([
      { toolCalls: [{ id: 'g1', name: 'Glob', args: { pattern: '*' } }] },
      { text: 'cut', finishReason: 'length' },
      { text: 'filtered', finishReason: 'content_filter' }
    ])
    const proc = agent(s, providerArgs(s, '--max-steps', '1'))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const prompt = (text: string) => proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    expect((await prompt('look')).stopReason).toBe('max_turn_requests')
    expect((await prompt('talk')).stopReason).toBe('max_tokens')
    expect((await prompt('more')).stopReason).toBe('refusal')
  })
})

describe('client capabilities', () => {
  it('with fs and terminal offered, Read, Write, Edit and Bash go through the editor (its unsaved buffer, its terminal)', async () => {
    const s = await setup([
      { toolCalls: [{ id: 'r', name: 'Read', args: { file_path: 'buffer.txt' } }] },
      { toolCalls: [{ id: 'e', name: 'Edit', args: { file_path: 'buffer.txt', old_string: 'unsaved', new_string: 'edited' } }] },
      { toolCalls: [{ id: 'w', name: 'Write', args: { file_path: 'created-by-editor.txt', content: 'new\n' } }] },
      { toolCalls: [{ id: 'b', name: 'Bash', args: { command: 'echo from-the-terminal; exit 3' } }] },
      (body) => ({ text: `last: ${lastToolContent(body)}` })
    ])
    const file = join(s.workspace, 'buffer.txt')
    const created = join(s.workspace, 'created-by-editor.txt')
    await writeFile(file, 'on disk\n')
    const buffers = new Map<string, string>([[file, 'unsaved buffer text\n']])
    const requests: string[] = []
    const proc = agent(s, providerArgs(s, '--approve', 'allow'), {
      readTextFile: ({ path }) => {
        requests.push(`read ${path}`)
        const content = buffers.get(path)
        if (content === undefined) throw new Error(`no buffer for ${path}`)
        return { content }
      },
      writeTextFile: ({ path, content }) => {
        requests.push(`write ${path}`)
        buffers.set(path, content)
        return {}
      },
      terminal: processTerminal(requests)
    })
    await connect(proc, { fs: { readTextFile: true, writeTextFile: true }, terminal: true })
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const response = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'work in the editor' }] })
    expect(response.stopReason).toBe('end_turn')

    // Read saw the unsaved buffer, not the disk.
    expect(lastToolContentOf(s.server, 1)).toContain('unsaved buffer text')
    expect(buffers.get(file)).toBe('edited buffer text\n')
    expect(buffers.get(created)).toBe('new\n')
    expect(await readFile(file, 'utf8')).toBe('on disk\n')
    expect(existsSync(created)).toBe(false)
    expect(requests).toEqual([`read ${file}`, `read ${file}`, `write ${file}`, `read ${created}`, `write ${created}`, expect.stringMatching(/^terminal \/bin\/(ba)?sh -c echo from-the-terminal; exit 3$/), 'release term-1'])

    const updates = updatesOf(proc, sessionId)
    const running = updates.find((u) => u.sessionUpdate === 'tool_call_update' && (u as { toolCallId: string }).toolCallId === 'turn-1/b' && u.status === 'in_progress')
    expect(running).toMatchObject({ content: [{ type: 'terminal', terminalId: 'term-1' }] })
    expect(textOf(updates, 'agent_message_chunk')).toMatch(/Exit code 3.*from-the-terminal/)
    const writeDone = updates.find((u) => u.sessionUpdate === 'tool_call_update' && (u as { toolCallId: string }).toolCallId === 'turn-1/w' && u.status === 'completed') as { content: acp.ToolCallContent[] }
    expect(writeDone.content[0]).toEqual({ type: 'diff', path: created, oldText: null, newText: 'new\n' })
  })

  it("cancel during a command in the editor's terminal kills it there, releases the terminal and the call still gets its result", async () => {
    const s = await setup([{ toolCalls: [{ id: 'long', name: 'Bash', args: { command: 'sleep 30' } }] }, { text: 'never' }])
    const requests: string[] = []
    const proc = agent(s, providerArgs(s, '--approve', 'allow'), { terminal: processTerminal(requests) })
    await connect(proc, { terminal: true })
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const running = nextUpdate(proc, (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress')
    const turn = proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
    expect(await running).toMatchObject({ content: [{ type: 'terminal', terminalId: 'term-1' }] })
    await proc.agent.notify('session/cancel', { sessionId })
    expect((await turn).stopReason).toBe('cancelled')
    expect(requests.slice(1)).toEqual(['kill term-1', 'release term-1'])
    expect(updatesOf(proc, sessionId).at(-1)).toMatchObject({ sessionUpdate: 'tool_call_update', toolCallId: 'turn-1/long', status: 'failed' })
  })

  it('without them, Seam\'s own tools run on the disk', async () => {
    const s = await setup([{ toolCalls: [{ id: 'w', name: 'Write', args: { file_path: 'own-tools.txt', content: 'by seam\n' } }] }, { text: 'ok' }])
    const file = join(s.workspace, 'own-tools.txt')
    const proc = agent(s, providerArgs(s, '--approve', 'allow'))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] })
    expect(await readFile(file, 'utf8')).toBe('by seam\n')
  })
})
