// `seam acp` end to end: the built CLI as a child process, driven over stdio by the SDK's client
// side, against the loopback server that speaks OpenAI's wire protocol.
import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type * as acp from '@agentclientprotocol/sdk'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { nextUpdate, REPO_ROOT, SEAM_BIN, startAgent, type AgentProcess, type EditorHandlers } from './test-client'

const run = promisify(execFile)

let scratch: string
const running: AgentProcess[] = []
const servers: FakeProviderServer<OpenAIRequestBody>[] = []

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, 'out', 'main', 'cli.js'))) {
    await run(process.execPath, [join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: REPO_ROOT })
  }
  scratch = await mkdtemp(join(tmpdir(), 'seam-acp-'))
}, 120_000)

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()))
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

interface Setup {
  home: string
  workspace: string
  env: NodeJS.ProcessEnv
  url: string
  server: FakeProviderServer<OpenAIRequestBody>
}

let counter = 0
async function setup(script: OpenAIScript, settings?: Record<string, unknown>): Promise<Setup> {
  const dir = join(scratch, `t${++counter}`)
  const home = join(dir, 'seam-home')
  const workspace = join(dir, 'ws')
  const userHome = join(dir, 'home')
  await mkdir(home, { recursive: true })
  await mkdir(workspace, { recursive: true })
  await mkdir(userHome, { recursive: true })
  if (settings) await writeFile(join(home, 'settings.json'), JSON.stringify(settings))
  const server = await startFakeOpenAI(script)
  servers.push(server)
  const env: NodeJS.ProcessEnv = { ...process.env, SEAM_HOME: home, HOME: userHome }
  for (const key of ['DEEPSEEK_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY']) delete env[key]
  return { home, workspace, env, url: server.url, server }
}

function providerArgs(s: Setup, ...more: string[]): string[] {
  return ['--provider', 'openai-compatible', '--base-url', s.url, '--model', 'm', ...more]
}

function agent(s: Setup, args: string[], handlers?: EditorHandlers): AgentProcess {
  const proc = startAgent(args, s.env, handlers)
  running.push(proc)
  return proc
}

async function connect(proc: AgentProcess, capabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
  return proc.agent.request('initialize', { protocolVersion: 1, clientCapabilities: capabilities })
}

async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise
  } catch (error) {
    const e = error as { code: number; message: string }
    return { code: e.code, message: e.message }
  }
  throw new Error('expected a JSON-RPC error')
}

function updatesOf(proc: AgentProcess, sessionId: string): acp.SessionUpdate[] {
  return proc.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update)
}

function textOf(updates: acp.SessionUpdate[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates
    .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: typeof kind }> => u.sessionUpdate === kind)
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('')
}

async function sessionEvents(home: string, sessionId: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(home, 'sessions', `${sessionId}.jsonl`), 'utf8')
  return text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
}

const lastToolContent = (body: OpenAIRequestBody): string => JSON.stringify(body.messages.at(-1)?.content ?? '')

describe('initialize', () => {
  it('negotiates the protocol version and advertises load, embedded context and the session methods', async () => {
    const s = await setup([])
    const proc = agent(s, providerArgs(s))
    const newer = await proc.agent.request('initialize', { protocolVersion: 7, clientCapabilities: {} })
    expect(newer.protocolVersion).toBe(1)
    expect(newer.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { embeddedContext: true, image: false }, sessionCapabilities: { list: {}, close: {} } })
    expect(newer.agentInfo).toMatchObject({ name: 'seam' })
    expect(newer.authMethods).toEqual([])
    const older = await rpcError(proc.agent.request('initialize', { protocolVersion: 0, clientCapabilities: {} }))
    expect(older.code).toBe(-32022)
  })

  it('SIGTERM closes the sessions (a running turn ends cancelled in the log) and exits 0', async () => {
    const s = await setup([{ text: 'slow answer', chunkDelayMs: 200 }])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const { sessionId } = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    const firstChunk = nextUpdate(proc, (u) => u.sessionUpdate === 'agent_message_chunk')
    void proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'talk slowly' }] }).catch(() => undefined)
    await firstChunk
    const exit = new Promise<number | null>((r) => proc.child.on('exit', (code) => r(code)))
    proc.child.kill('SIGTERM')
    expect(await exit).toBe(0)
    const end = (await sessionEvents(s.home, sessionId)).filter((e) => e.type === 'turn/end')
    expect(end).toMatchObject([{ reason: 'cancelled' }])
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
  it('cwd that is relative, missing or a file; a missing field; MCP servers; an unknown session; an unknown method', async () => {
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
    const mcp = await rpcError(
      proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [{ name: 'files', command: '/usr/bin/env', args: [], env: [] }] })
    )
    expect(mcp).toMatchObject({ code: -32602, message: expect.stringMatching(/mcpServers: Seam cannot start MCP servers yet.*"files"/) })
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
    expect(image.message).toMatch(/prompt\[0\]: image content is not supported/)
    expect((await connect(proc)).protocolVersion).toBe(1)
  })

  it('malformed JSON and a batch get JSON-RPC errors on stdout, which carries protocol lines only', async () => {
    const s = await setup([])
    const child = spawn(process.execPath, [SEAM_BIN, 'acp', ...providerArgs(s)], { env: s.env, stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const lines = async (count: number) => {
      for (let i = 0; i < 200 && out.split('\n').filter(Boolean).length < count; i++) await new Promise((r) => setTimeout(r, 25))
      return out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number; message: string }; result?: unknown })
    }
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize",\n')
    child.stdin.write('[{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}]\n')
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":1}}\n')
    const replies = await lines(3)
    child.stdin.end()
    await new Promise((r) => child.on('exit', r))
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32700 } })
    expect(replies[1]).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } })
    expect(replies[2]).toMatchObject({ id: 3, result: { protocolVersion: 1 } })
  })
})

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
    expect(asked[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once'])
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
    const wrongCwd = await rpcError(second.agent.request('session/load', { sessionId, cwd: scratch, mcpServers: [] }))
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
    expect(replay.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'tool_call', 'tool_call_update', 'tool_call_update', 'agent_thought_chunk', 'agent_message_chunk'])
    expect(textOf(replay, 'user_message_chunk')).toBe('what does it say?')
    expect(replay[1]).toMatchObject({ toolCallId: 'turn-1/l1', kind: 'read', locations: [{ path: file, line: 1 }] })
    expect(replay[3]).toMatchObject({ status: 'completed' })
    expect(textOf(replay, 'agent_message_chunk')).toBe('It says hello.')
    const listed = await second.agent.request('session/list', { cwd: s.workspace })
    expect(listed.sessions.map((x) => x.sessionId)).toEqual([sessionId])
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
    expect(textOf(updates, 'agent_message_chunk')).toMatch(/from-the-terminal.*Exit code 3/)
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
    expect(bad.message).toMatch(/modeId: unknown mode "yolo"/)
    expect(updatesOf(proc, sessionId).filter((u) => u.sessionUpdate === 'current_mode_update')).toHaveLength(2)
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

function lastToolContentOf(server: FakeProviderServer<OpenAIRequestBody>, requestIndex: number): string {
  return lastToolContent(server.requests[requestIndex]!.body)
}

/** The test editor's terminal: real processes, as an editor would run them. */
function processTerminal(requests: string[]): NonNullable<EditorHandlers['terminal']> {
  const terminals = new Map<string, { output: string; exit: Promise<{ exitCode: number | null; signal: string | null }>; kill(): void }>()
  return {
    create: ({ command, args, cwd }) => {
      requests.push(`terminal ${command} ${(args ?? []).join(' ')}`)
      const child = spawn(command, args ?? [], { cwd: cwd ?? undefined })
      const id = `term-${terminals.size + 1}`
      const entry = {
        output: '',
        exit: new Promise<{ exitCode: number | null; signal: string | null }>((r) => child.on('exit', (exitCode, signal) => r({ exitCode, signal }))),
        kill: () => child.kill()
      }
      child.stdout.on('data', (c: Buffer) => (entry.output += c.toString()))
      child.stderr.on('data', (c: Buffer) => (entry.output += c.toString()))
      terminals.set(id, entry)
      return { terminalId: id }
    },
    output: async ({ terminalId }) => {
      const t = terminals.get(terminalId)!
      const status = await Promise.race([t.exit, new Promise<undefined>((r) => setTimeout(r, 0, undefined))])
      return { output: t.output, truncated: false, exitStatus: status ?? null }
    },
    waitForExit: ({ terminalId }) => terminals.get(terminalId)!.exit,
    kill: ({ terminalId }) => {
      requests.push(`kill ${terminalId}`)
      terminals.get(terminalId)!.kill()
      return {}
    },
    release: ({ terminalId }) => {
      requests.push(`release ${terminalId}`)
      return {}
    }
  }
}
