// A session belongs to its workspace: its cwd, hooks, trust, patch layer, rules and grants come
// from the workspace in its log header, whatever workspace the window shows, and sessions of two
// workspaces run side by side without leaking into each other. Through the real router, with
// the loopback OpenAI fake and real Claude Code hook processes.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { createHost, type Host } from './host'

let dir: string
let host: Host
let server: FakeProviderServer<OpenAIRequestBody>
let A: string
let B: string
const caller = { transport: 'web' as const }

/** Every request: run one Bash call, then say done once its result is back. */
const bashThenDone = (body: OpenAIRequestBody) =>
  body.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'Bash', args: { command: 'pwd > bash-ran.txt', description: 'where am I' } }] }

async function call<T>(method: string, input: unknown): Promise<T> {
  const reply = await host.router.invoke(method as never, input as never, caller)
  if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`)
  return reply.output as T
}

async function hooks(workspace: string, command: string): Promise<void> {
  await mkdir(join(workspace, '.claude'), { recursive: true })
  await writeFile(join(workspace, '.claude/settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }))
}

async function show(workspace: string): Promise<void> {
  await call('workspace/set', { path: workspace })
  await call('workspace/trust', { trusted: true })
}

async function events(id: string): Promise<SessionEvent[]> {
  return [...(await host.runtime.sessions.open(id)).log.events]
}

async function runTurn(id: string): Promise<void> {
  const ends = async () => (await events(id)).filter((e) => e.type === 'turn/end').length
  const before = await ends()
  await call('chat/send', { sessionId: id, content: 'go' })
  const deadline = Date.now() + 15_000
  while ((await ends()) === before) {
    if (Date.now() > deadline) throw new Error(`the turn of ${id} did not end`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function toolResult(list: SessionEvent[]): Extract<SessionEvent, { type: 'tool/result' }> | undefined {
  return list.filter((e): e is Extract<SessionEvent, { type: 'tool/result' }> => e.type === 'tool/result').at(-1)
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-ws-binding-'))
  A = join(dir, 'a')
  B = join(dir, 'b')
  await mkdir(A)
  await mkdir(B)
  // A records where its hook ran; B blocks every Bash call and leaves a mark.
  await hooks(A, 'echo "$CLAUDE_PROJECT_DIR" >> a-hook.txt')
  await hooks(B, `echo "$CLAUDE_PROJECT_DIR" >> '${join(B, 'b-hook.txt')}'; echo 'blocked by B' >&2; exit 2`)
  server = await startFakeOpenAI(Array.from({ length: 20 }, () => bashThenDone))
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(dir, 'home'), HOME: dir } })
  await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake', apiKey: 'k' })
  await call('settings/set', { approvalMode: 'never-ask' })
})

afterEach(async () => {
  await host.close()
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

describe('a session belongs to its workspace', () => {
  it('a session of A opened after switching to trusted B with a PreToolUse hook runs A\'s hooks, not B\'s; CLAUDE_PROJECT_DIR is A', async () => {
    await show(A)
    const { id } = await call<{ id: string }>('sessions/create', {})
    await host.runtime.sessions.close(id, 'closed')
    await show(B)
    await call('sessions/open', { id })
    await runTurn(id)
    expect(toolResult(await events(id))).toMatchObject({ isError: false })
    expect(readFileSync(join(A, 'bash-ran.txt'), 'utf8').trim()).toBe(A)
    expect(readFileSync(join(A, 'a-hook.txt'), 'utf8').trim()).toBe(A)
    expect(existsSync(join(B, 'b-hook.txt'))).toBe(false)
    // A's tree lives while its session is open, and goes with it (the window shows B).
    expect(await host.runtime.kernelOf(A)).toBeDefined()
    await host.runtime.sessions.close(id, 'closed')
    const deadline = Date.now() + 5_000
    while ((await host.runtime.kernelOf(A)) !== undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await host.runtime.kernelOf(A)).toBeUndefined()
    expect(await host.runtime.kernelOf(B)).toBe(host.runtime.kernel)
  })

  it('sessions of A and B run at once, each with its own workspace\'s hooks and trust', async () => {
    await show(A)
    const a = await call<{ id: string }>('sessions/create', {})
    await show(B)
    const b = await call<{ id: string }>('sessions/create', {})
    await Promise.all([runTurn(a.id), runTurn(b.id)])
    expect(toolResult(await events(a.id))).toMatchObject({ isError: false })
    expect(toolResult(await events(b.id))).toMatchObject({ isError: true, content: expect.stringContaining('blocked by B') })
    expect(readFileSync(join(A, 'a-hook.txt'), 'utf8').trim()).toBe(A)
    expect(readFileSync(join(B, 'b-hook.txt'), 'utf8').trim()).toBe(B)
    // B's hook never ran for A's session, and A's Bash ran in A.
    expect(readFileSync(join(B, 'b-hook.txt'), 'utf8').trim().split('\n')).toEqual([B])
    expect(readFileSync(join(A, 'bash-ran.txt'), 'utf8').trim()).toBe(A)
  })

  it('trust is the session\'s workspace\'s: untrusting the window\'s workspace B leaves A\'s hooks running in A\'s session', async () => {
    await show(A)
    const a = await call<{ id: string }>('sessions/create', {})
    await show(B)
    await call('workspace/trust', { trusted: false })
    await runTurn(a.id)
    expect(readFileSync(join(A, 'a-hook.txt'), 'utf8').trim()).toBe(A)
    // The window's tree follows B (untrusted: B's workspace hooks are listed, not run).
    const preview = await call<{ workspace: string; trusted: boolean }>('workspace/trust-preview', {})
    expect(preview).toMatchObject({ workspace: B, trusted: false })
  })
})
