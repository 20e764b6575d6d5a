// `seam acp` and slash commands, as the app has them: the editor is told the workspace's commands
// (available_commands_update, after session/new's answer and within session/load's replay, again
// when a command file changes), a built-in answers as an agent message without a model request, a
// custom command is expanded and runs as the turn, and an unknown one is refused naming it.
import { existsSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { nextUpdate } from './test-client'
import { agent, connect, providerArgs, rpcError, setup, textOf, updatesOf, useAcpFixture } from './acp-fixture'

useAcpFixture()

type CommandsUpdate = Extract<acp.SessionUpdate, { sessionUpdate: 'available_commands_update' }>
const isCommands = (update: acp.SessionUpdate): update is CommandsUpdate => update.sessionUpdate === 'available_commands_update'

async function writeCommand(workspace: string, name: string, text: string): Promise<void> {
  await mkdir(join(workspace, '.claude', 'commands'), { recursive: true })
  await writeFile(join(workspace, '.claude', 'commands', `${name}.md`), text)
}

describe('slash commands over ACP', () => {
  it('lists the commands after session/new, runs built-ins and custom commands, refuses unknown ones, and tells the editor when the list changes', async () => {
    const s = await setup([{ text: 'Hello, Ada!' }])
    await writeCommand(s.workspace, 'greet', '---\ndescription: Greet someone\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS, warmly.\n')
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const listed = nextUpdate(proc, isCommands) as Promise<CommandsUpdate>
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const first = await listed
    expect(first.availableCommands.map((c) => c.name)).toEqual(['compact', 'greet', 'help', 'model', 'tasks', 'usage'])
    expect(first.availableCommands.find((c) => c.name === 'greet')).toEqual({ name: 'greet', description: 'Greet someone', input: { hint: '<name>' } })
    expect(first.availableCommands.find((c) => c.name === 'compact')).toMatchObject({ input: { hint: '[instructions]' } })
    // For the session the answer named.
    expect(proc.updates.find((n) => isCommands(n.update))?.sessionId).toBe(sessionId)

    // A custom command: the model gets the expansion, as the turn.
    expect((await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/greet Ada' }] })).stopReason).toBe('end_turn')
    const lastUser = s.server.requests.at(-1)!.body.messages.filter((m) => m.role === 'user').at(-1)
    expect(JSON.stringify(lastUser?.content)).toContain('Say hello to Ada, warmly.')

    // A built-in: answered as an agent message, no model request.
    const before = s.server.requests.length
    expect((await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/usage' }] })).stopReason).toBe('end_turn')
    expect(textOf(updatesOf(proc, sessionId), 'agent_message_chunk')).toMatch(/Requests: 1/)
    expect(s.server.requests.length).toBe(before)
    // /tasks (issue 28) is a built-in here too.
    expect((await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/tasks' }] })).stopReason).toBe('end_turn')
    expect(textOf(updatesOf(proc, sessionId), 'agent_message_chunk')).toContain('No background tasks in this session.')
    expect(s.server.requests.length).toBe(before)

    // Unknown, and /clear (a new session is the editor's session/new): refused, naming the command.
    const unknown = await rpcError(proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/nosuch thing' }] }))
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown slash command: /nosuch') })
    const clear = await rpcError(proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/clear' }] }))
    expect(clear).toMatchObject({ code: -32602, message: expect.stringContaining('/clear is not offered over ACP') })
    expect(s.server.requests.length).toBe(before)

    // A command file added: the next prompt's end brings the new list.
    await writeCommand(s.workspace, 'review', '---\ndescription: Review the diff\n---\nReview the current diff.\n')
    const relisted = nextUpdate(proc, (u) => isCommands(u) && u.availableCommands.some((c) => c.name === 'review')) as Promise<CommandsUpdate>
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/help' }] })
    expect((await relisted).availableCommands.map((c) => c.name)).toEqual(['compact', 'greet', 'help', 'model', 'review', 'tasks', 'usage'])
    expect(textOf(updatesOf(proc, sessionId), 'agent_message_chunk')).toContain('/review')
  })

  it('/model switches the session\'s model and the editor\'s model option follows', async () => {
    const s = await setup([{ text: 'ok' }])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const option = nextUpdate(proc, (u) => u.sessionUpdate === 'config_option_update')
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/model other-model' }] })
    const update = (await option) as Extract<acp.SessionUpdate, { sessionUpdate: 'config_option_update' }>
    expect(update.configOptions.find((o) => o.id === 'model')).toMatchObject({ currentValue: 'other-model' })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })
    expect(s.server.requests.at(-1)!.body.model).toBe('other-model')
  })

  it('a session in which only built-in commands ran (/usage) is not kept when it closes; one with a prompt is (issue 31)', async () => {
    const s = await setup([{ text: 'kept' }])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const sessionFiles = () => (existsSync(join(s.home, 'sessions')) ? readdirSync(join(s.home, 'sessions')).filter((f) => f.endsWith('.jsonl')) : [])
    const { sessionId: onlyUsage } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId: onlyUsage, prompt: [{ type: 'text', text: '/usage' }] })
    expect(sessionFiles()).toContain(`${onlyUsage}.jsonl`)
    await proc.agent.request('session/close', { sessionId: onlyUsage })
    expect(sessionFiles()).not.toContain(`${onlyUsage}.jsonl`)

    const { sessionId: spoken } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId: spoken, prompt: [{ type: 'text', text: 'hello' }] })
    await proc.agent.request('session/close', { sessionId: spoken })
    expect(sessionFiles()).toContain(`${spoken}.jsonl`)
  })

  it('session/load replays the log and lists the commands before it answers', async () => {
    const s = await setup([{ text: 'first answer' }])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] })
    await proc.agent.request('session/close', { sessionId })

    const again = agent(s, providerArgs(s))
    await connect(again)
    await again.agent.request('session/load', { sessionId, cwd: s.workspace, mcpServers: [] })
    const updates = updatesOf(again, sessionId)
    expect(updates.filter(isCommands)).toHaveLength(1)
    expect(updates.findIndex(isCommands)).toBeGreaterThan(updates.findIndex((u) => u.sessionUpdate === 'agent_message_chunk'))
  })
})
