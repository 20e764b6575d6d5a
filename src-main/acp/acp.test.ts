// `seam acp` end to end, the protocol side: initialize and auth, bad input, session/load,
// workspace trust, modes and models, shutdown. The built CLI as a child process, driven over
// stdio by the SDK's client side, against the loopback server speaking OpenAI's wire protocol.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { nextUpdate, SEAM_BIN } from './test-client'
import type { ScriptedTurn } from '../../test-support/fake-openai.mjs'
import { prepareStopScenario } from '../../test-support/stop-scenario'
import { isAlive, waitFor, waitUntilDead } from '../process/liveness'
import {
  agent,
  connect,
  providerArgs,
  rpcError,
  scratch,
  sessionEvents,
  setup,
  textOf,
  updatesOf,
  useAcpFixture
} from './acp-fixture'

useAcpFixture()

describe('initialize', () => {
  it('negotiates the protocol version and advertises load, embedded context and the session methods', async () => {
    const s = await setup([])
    const proc = agent(s, providerArgs(s))
    const newer = await proc.agent.request('initialize', { protocolVersion: 7, clientCapabilities: {} })
    expect(newer.protocolVersion).toBe(1)
    expect(newer.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { embeddedContext: true, image: true }, sessionCapabilities: { list: {}, close: {} } })
    expect(newer.agentInfo).toMatchObject({ name: 'seam' })
    expect(newer.authMethods).toEqual([])
    const older = await rpcError(proc.agent.request('initialize', { protocolVersion: 0, clientCapabilities: {} }))
    expect(older.code).toBe(-32022)
  })

  it('SIGTERM closes the sessions (a running turn ends cancelled in the log) and exits 143, the conventional status', async () => {
    const s = await setup([{ text: 'slow answer', chunkDelayMs: 200 }])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const firstChunk = nextUpdate(proc, (u) => u.sessionUpdate === 'agent_message_chunk')
    void proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'talk slowly' }] }).catch(() => undefined)
    await firstChunk
    const exit = new Promise<number | null>((r) => proc.child.on('exit', (code) => r(code)))
    proc.child.kill('SIGTERM')
    expect(await exit).toBe(143)
    const end = (await sessionEvents(s.home, sessionId)).filter((e) => e.type === 'turn/end')
    expect(end).toMatchObject([{ reason: 'cancelled' }])
  })

  it('SIGTERM while a hook, an MCP server and a background command run leaves none of them (issue 25)', async () => {
    // The script is read at request time: the scenario's pid files live in the workspace setup makes.
    let steps: ScriptedTurn[] = []
    const s = await setup([0, 1, 2].map((i) => () => steps[i]!))
    const scenario = await prepareStopScenario(s.workspace)
    steps = scenario.script as ScriptedTurn[]
    await writeFile(join(s.home, 'settings.json'), JSON.stringify({ trustedWorkspaces: [s.workspace], approvalMode: 'never-ask' }))
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    void proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run it' }] }).catch(() => undefined)
    await waitFor(() => scenario.allStarted(), 30_000, 'the hook, the MCP server and the background command to start')
    const pids = await scenario.pids()
    expect(Object.values(pids).every(isAlive)).toBe(true)
    const exit = new Promise<number | null>((r) => proc.child.on('exit', (code) => r(code)))
    proc.child.kill('SIGTERM')
    expect(await exit).toBe(143)
    for (const [what, pid] of Object.entries(pids)) expect(await waitUntilDead(pid, 2_000), `the ${what} (pid ${pid}) outlived seam acp`).toBe(true)
    expect((await sessionEvents(s.home, sessionId)).filter((e) => e.type === 'turn/end')).toMatchObject([{ reason: 'cancelled' }])
  })

  it('offers an auth method naming the variable when the provider key is missing, and session/new fails with it; the process stays up', async () => {
    const s = await setup([])
    const proc = agent(s, ['--provider', 'deepseek'])
    const init = await connect(proc)
    expect(init.authMethods).toHaveLength(1)
    expect(init.authMethods?.[0]?.description).toMatch(/DEEPSEEK_API_KEY/)
    const error = await rpcError(proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] }))
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/DEEPSEEK_API_KEY/)
    const auth = await rpcError(proc.agent.request('authenticate', { methodId: init.authMethods![0]!.id }))
    expect(auth.message).toMatch(/DEEPSEEK_API_KEY/)
    expect((await connect(proc)).protocolVersion).toBe(1)
  })
})

describe('bad input gets a JSON-RPC error naming the problem; the process stays up', () => {
  it('cwd that is relative, missing or a file; a missing field; an MCP server without a name; an unknown session; an unknown method', async () => {
    const s = await setup([])
    await writeFile(join(s.workspace, 'file.txt'), 'x')
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const relative = await rpcError(proc.agent.request('session/new', { cwd: 'some/dir', mcpServers: [] }))
    expect(relative).toMatchObject({ code: -32602, message: expect.stringMatching(/cwd: must be an absolute path/) })
    const missing = await rpcError(proc.agent.request('session/new', { cwd: join(s.workspace, 'nope'), mcpServers: [] }))
    expect(missing.message).toMatch(/cwd: the folder .* does not exist/)
    const file = await rpcError(proc.agent.request('session/new', { cwd: join(s.workspace, 'file.txt'), mcpServers: [] }))
    expect(file.message).toMatch(/is not a folder/)
    const noField = await rpcError(proc.agent.request('session/new', { mcpServers: [] } as unknown as acp.NewSessionRequest))
    expect(noField).toMatchObject({ code: -32602, message: expect.stringMatching(/cwd/) })
    const mcp = await rpcError(proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [{ name: '', command: '/usr/bin/env', args: [], env: [] }] }))
    expect(mcp).toMatchObject({ code: -32602, message: expect.stringMatching(/mcpServers\[0\]\.name: must not be empty/) })
    const unknown = await rpcError(proc.agent.request('session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'hi' }] }))
    expect(unknown).toMatchObject({ code: -32002, message: expect.stringMatching(/no session "no-such-session"/) })
    const cancelUnknown = await rpcError(proc.agent.request('session/cancel', { sessionId: 'ghost' }))
    expect(cancelUnknown.message).toMatch(/no session "ghost"/)
    const method = await rpcError(proc.agent.request('session/frobnicate', {}))
    expect(method).toMatchObject({ code: -32601, message: expect.stringMatching(/session\/frobnicate/) })
    const image = await (async () => {
      const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
      return rpcError(proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }))
    })()
    // The model (`m`, not in the model table) has no vision: refused before anything is logged.
    expect(image.message).toMatch(/prompt: m does not accept images/)
    expect((await connect(proc)).protocolVersion).toBe(1)
  })

  it('malformed JSON and a batch get JSON-RPC errors on stdout, which carries protocol lines only', async () => {
    const s = await setup([])
    const child = spawn(process.execPath, [SEAM_BIN, 'acp', ...providerArgs(s)], { env: s.env, stdio: ['pipe', 'pipe', 'pipe'] })
    type Reply = { id?: unknown; error?: { code: number; message: string }; result?: unknown }
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const received = () => out.split('\n').filter(Boolean)
    // Waits for the lines themselves, or the process's end (the test's timeout bounds it): a
    // loaded machine may take longer than any fixed poll to start the CLI and answer.
    const lines = (count: number) =>
      new Promise<Reply[]>((resolve) => {
        const check = () => {
          if (received().length < count && child.exitCode === null) return
          child.stdout.off('data', check)
          resolve(received().map((l) => JSON.parse(l) as Reply))
        }
        child.stdout.on('data', check)
        child.once('close', check)
        check()
      })
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize",\n')
    child.stdin.write('[{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}]\n')
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":1}}\n')
    const replies = await lines(3)
    child.stdin.end()
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r))
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32700 } })
    expect(replies[1]).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } })
    expect(replies[2]).toMatchObject({ id: 3, result: { protocolVersion: 1 } })
  })
})

describe('workspace trust', () => {
  it("a workspace's own hooks run only once the user trusted the workspace in Seam, as in the app", async () => {
    const s = await setup([{ text: 'answered' }, { text: 'answered again' }])
    await mkdir(join(s.workspace, '.claude'))
    const block = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: "echo 'workspace hook says no' >&2; exit 2" }] }] } }
    await writeFile(join(s.workspace, '.claude', 'settings.json'), JSON.stringify(block))
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const untrusted = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect((await proc.agent.request('session/prompt', { sessionId: untrusted.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('end_turn')
    // The editor is told which hooks were skipped (the bridge's notice, as an agent message of its own).
    expect(textOf(updatesOf(proc, untrusted.sessionId), 'agent_message_chunk')).toMatch(/\[hooks-claude\] .*not trusted.*UserPromptSubmit/s)
    await writeFile(join(s.home, 'settings.json'), JSON.stringify({ trustedWorkspaces: [s.workspace] }))
    const trusted = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect((await proc.agent.request('session/prompt', { sessionId: trusted.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('cancelled')
    expect(textOf(updatesOf(proc, trusted.sessionId), 'agent_message_chunk')).toMatch(/workspace hook says no/)
  })
})

describe('session/load', () => {
  it('replays a stored session as session/update notifications in order, before it answers, in a new process', async () => {
    const s = await setup([{ toolCalls: [{ id: 'l1', name: 'Read', args: { file_path: 'load-target.txt' } }] }, { thinking: 'short file', text: 'It says hello.' }])
    const file = join(s.workspace, 'load-target.txt')
    await writeFile(file, 'hello\n')
    const first = agent(s, providerArgs(s, '--approve', 'allow'))
    await connect(first)
    const { sessionId } = await first.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what does it say?' }] })
    await first.stop()

    const second = agent(s, providerArgs(s))
    await connect(second)
    const wrongCwd = await rpcError(second.agent.request('session/load', { sessionId, cwd: scratch(), mcpServers: [] }))
    expect(wrongCwd.message).toMatch(/belongs to the workspace/)
    const missing = await rpcError(second.agent.request('session/load', { sessionId: 'nope', cwd: s.workspace, mcpServers: [] }))
    expect(missing.message).toMatch(/no stored session "nope"/)
    let answered = false
    const seenBeforeAnswer: number[] = []
    second.onUpdate(() => seenBeforeAnswer.push(answered ? 1 : 0))
    await second.agent.request('session/load', { sessionId, cwd: s.workspace, mcpServers: [] })
    answered = true
    const replay = updatesOf(second, sessionId)
    expect(seenBeforeAnswer.every((v) => v === 0)).toBe(true)
    // The log, then the workspace's slash commands.
    expect(replay.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'tool_call', 'tool_call_update', 'tool_call_update', 'agent_thought_chunk', 'agent_message_chunk', 'available_commands_update'])
    expect(textOf(replay, 'user_message_chunk')).toBe('what does it say?')
    expect(replay[1]).toMatchObject({ toolCallId: 'turn-1/l1', kind: 'read', locations: [{ path: file, line: 1 }] })
    expect(replay[3]).toMatchObject({ status: 'completed' })
    expect(textOf(replay, 'agent_message_chunk')).toBe('It says hello.')
    const listed = await second.agent.request('session/list', { cwd: s.workspace })
    expect(listed.sessions.map((x) => x.sessionId)).toEqual([sessionId])
  })
})

describe('modes and models', () => {
  it("session/set_mode switches the session's approval mode: never-ask stops asking, ask-all asks for a read", async () => {
    const s = await setup([
      { toolCalls: [{ id: 'm1', name: 'Bash', args: { command: 'echo one' } }] },
      { text: 'ok' },
      { toolCalls: [{ id: 'm2', name: 'Read', args: { file_path: 'mode.txt' } }] },
      { text: 'ok' }
    ])
    await writeFile(join(s.workspace, 'mode.txt'), 'x\n')
    let asks = 0
    const proc = agent(s, providerArgs(s), {
      permission: () => {
        asks++
        return { outcome: { outcome: 'selected', optionId: 'allow-once' } }
      }
    })
    await connect(proc)
    const { sessionId, configOptions } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect(configOptions?.map((o) => o.id)).toEqual(['mode', 'model'])
    await proc.agent.request('session/set_mode', { sessionId, modeId: 'never-ask' })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'one' }] })
    expect(asks).toBe(0)
    await proc.agent.request('session/set_mode', { sessionId, modeId: 'ask-all' })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read' }] })
    expect(asks).toBe(1)
    const bad = await rpcError(proc.agent.request('session/set_mode', { sessionId, modeId: 'yolo' }))
    expect(bad.message).toMatch(/modeId: unknown mode "yolo"; one of ask-side-effects, ask-all, never-ask, accept-edits, dont-ask, plan/)
    expect(updatesOf(proc, sessionId).filter((u) => u.sessionUpdate === 'current_mode_update')).toHaveLength(2)
  })

  it("offers every Seam approval mode; Claude Code's defaultMode is the current one until the editor picks another: accept-edits writes without asking, plan denies a write, dont-ask denies a command", async () => {
    const write = (id: string, file: string) => ({ toolCalls: [{ id, name: 'Write', args: { file_path: file, content: 'x\n' } }] })
    const s = await setup([
      write('a1', 'accepted.txt'),
      { text: 'ok' },
      write('p1', 'planned.txt'),
      { text: 'ok' },
      { toolCalls: [{ id: 'd1', name: 'Bash', args: { command: 'touch denied.txt' } }] },
      { text: 'ok' }
    ])
    // Claude Code's user settings (HOME is the test's own) choose acceptEdits.
    await mkdir(join(s.env.HOME!, '.claude'), { recursive: true })
    await writeFile(join(s.env.HOME!, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'acceptEdits' } }))
    let asks = 0
    const proc = agent(s, providerArgs(s), {
      permission: () => {
        asks++
        return { outcome: { outcome: 'selected', optionId: 'allow-once' } }
      }
    })
    await connect(proc)
    const { sessionId, modes, configOptions } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    expect(modes?.availableModes.map((m) => m.id)).toEqual(['ask-side-effects', 'ask-all', 'never-ask', 'accept-edits', 'dont-ask', 'plan'])
    expect(modes?.currentModeId).toBe('accept-edits')
    const modeOption = configOptions?.find((o) => o.id === 'mode') as { currentValue: string; options: Array<{ value: string }> }
    expect(modeOption.options.map((o) => o.value)).toEqual(modes?.availableModes.map((m) => m.id))
    expect(modeOption.currentValue).toBe('accept-edits')
    const prompt = (text: string) => proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })

    await prompt('write accepted')
    expect(existsSync(join(s.workspace, 'accepted.txt'))).toBe(true)
    expect(asks).toBe(0)

    await proc.agent.request('session/set_mode', { sessionId, modeId: 'plan' })
    await prompt('write planned')
    expect(existsSync(join(s.workspace, 'planned.txt'))).toBe(false)

    const set = await proc.agent.request('session/set_config_option', { sessionId, configId: 'mode', value: 'dont-ask' })
    expect(set.configOptions.find((o) => o.id === 'mode')).toMatchObject({ currentValue: 'dont-ask' })
    await prompt('touch denied')
    expect(existsSync(join(s.workspace, 'denied.txt'))).toBe(false)
    expect(asks).toBe(0)
    const decisions = (await sessionEvents(s.home, sessionId)).filter((e) => e.type === 'tool/result').map((e) => (e as { isError?: boolean }).isError)
    expect(decisions).toEqual([false, true, true])
    expect(updatesOf(proc, sessionId).filter((u) => u.sessionUpdate === 'current_mode_update').map((u) => (u as { currentModeId: string }).currentModeId)).toEqual(['plan', 'dont-ask'])
  })

  it('the model config option switches the model of the next request; an unknown model is refused by name', async () => {
    const s = await setup([{ text: 'one' }, { text: 'two' }])
    await writeFile(join(s.home, 'settings.json'), JSON.stringify({ provider: { provider: 'openai-compatible', baseUrl: s.url, model: 'other-model' } }))
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId, configOptions } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const model = configOptions?.find((o) => o.id === 'model') as { currentValue: string; options: Array<{ value: string }> }
    expect(model.currentValue).toBe('m')
    expect(model.options.map((o) => o.value)).toEqual(['m', 'other-model'])
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'one' }] })
    const set = await proc.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'other-model' })
    expect(set.configOptions.find((o) => o.id === 'model')).toMatchObject({ currentValue: 'other-model' })
    await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'two' }] })
    expect(s.server.requests.map((r) => r.body.model)).toEqual(['m', 'other-model'])
    const bad = await rpcError(proc.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'gpt-9' }))
    expect(bad.message).toMatch(/unknown model "gpt-9"/)
  })
})
