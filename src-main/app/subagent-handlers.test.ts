// Subagents as the UI reaches them (issue 27): a whole host in web mode against the loopback
// OpenAI-protocol server, driven through the real router. A subagent's events arrive as
// `subagent/appended` pushes and are read back with `subagents/events`; an approval it asks for
// names it; Stop ends just that subagent with Claude Code's interrupted result while the parent's
// turn goes on; the settings list shows the agents found and the files skipped.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type OpenAIRequestBody, type ScriptedTurn } from '../../test-support/fake-openai.mjs'
import type { FakeProviderServer } from '../../test-support/fake-provider-server.mjs'
import type { PushPayload } from '../../src-shared/contract/ipc'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'
import { scaledTestMs, waitFor } from '../process/liveness'
import { createHost, type Host } from './host'

const WAIT_MS = scaledTestMs(15_000)
const caller = { transport: 'web' as const }
const CHILD_MARKER = 'You are an agent working for a coding assistant'

let host: Host | undefined
let model: FakeProviderServer<OpenAIRequestBody> | undefined
let root: string | undefined
afterEach(async () => {
  await host?.close()
  await model?.close()
  if (root) await rm(root, { recursive: true, force: true })
  host = model = root = undefined
})

type Turn = ScriptedTurn | ((body: OpenAIRequestBody) => ScriptedTurn)

/** The child (general-purpose) and the main agent each follow their own script, by system prompt. */
async function start(child: Turn[], main: Turn[]) {
  root = await mkdtemp(join(tmpdir(), 'seam-subagent-ui-'))
  const workspace = join(root, 'workspace')
  await mkdir(join(workspace, '.claude', 'agents'), { recursive: true })
  await writeFile(join(workspace, '.claude', 'agents', 'broken.md'), '---\nname: broken\n---\nno description\n')
  await writeFile(join(workspace, '.claude', 'agents', 'scout.md'), '---\nname: scout\ndescription: Looks around\ntools: Read, Grep\n---\nYou are a scout.\n')
  const pick = (body: OpenAIRequestBody): ScriptedTurn => {
    const system = String(body.messages[0]?.content ?? '')
    const script = system.includes(CHILD_MARKER) ? child : main
    const turn = script[body.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'out of script' }
    return typeof turn === 'function' ? turn(body) : turn
  }
  model = await startFakeOpenAI(Array.from({ length: 50 }, () => pick))
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(root, 'home'), HOME: root } })
  host.connections.acquire()
  const pushes: Array<{ push: string; payload: unknown }> = []
  host.pushes.subscribe((message) => pushes.push(message))
  const invoke = async (method: string, input: unknown) => {
    const reply = await host!.router.invoke(method as never, input as never, caller)
    if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply.error)}`)
    return reply.output as never
  }
  await invoke('provider/set', { provider: 'openai-compatible', baseUrl: model.url, model: 'm' })
  await invoke('workspace/set', { path: workspace })
  await invoke('workspace/trust', { trusted: true })
  const { id } = (await invoke('sessions/create', {})) as { id: string }
  return { workspace, pushes, invoke, id, router: host.router }
}

const ofType = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) => events.filter((e): e is SessionEventOf<T> => e.type === type)

describe('subagents through the contract', () => {
  it('streams a subagent\'s events, names it in its approval, reads its log back, and lists the agents found and skipped', async () => {
    const t = await start(
      [(body) => ({ toolCalls: [{ name: 'Write', args: { file_path: join(cwdOf(body), 'note.txt'), content: 'from the child\n' } }] }), { text: 'wrote the note' }],
      [{ toolCalls: [{ name: 'Agent', args: { description: 'Write a note', prompt: 'Write note.txt', subagent_type: 'general-purpose' } }] }, { text: 'main done' }]
    )
    await t.invoke('chat/send', { sessionId: t.id, content: 'delegate' })
    await waitFor(() => t.pushes.some((p) => p.push === 'approval/requested'), WAIT_MS, 'the subagent\'s approval')
    const asked = t.pushes.find((p) => p.push === 'approval/requested')!.payload as PushPayload<'approval/requested'>
    expect(asked.tool).toBe('Write')
    expect(asked.sessionId).toBe(t.id)
    expect(asked.agent).toMatchObject({ agentType: 'general-purpose', description: 'Write a note' })
    await t.invoke('approval/answer', { requestId: asked.id, outcome: 'allowed-once' })
    const session = await host!.runtime.sessions.open(t.id)
    await waitFor(() => ofType(session.log.events, 'turn/end').length > 0, WAIT_MS, 'the turn to end')
    expect(await readFile(join(t.workspace, 'note.txt'), 'utf8')).toBe('from the child\n')

    const start_ = ofType(session.log.events, 'subagent/start')[0]
    // Pushed live, under the parent session, in the child log's order.
    const pushed = t.pushes.filter((p) => p.push === 'subagent/appended').map((p) => p.payload as PushPayload<'subagent/appended'>)
    expect(pushed.every((p) => p.sessionId === t.id && p.agentId === start_.agentId)).toBe(true)
    const pushedAsk = pushed.map((p) => p.event).find((e) => e.type === 'approval/asked')
    expect(pushedAsk).toMatchObject({ tool: 'Write', agent: { agentType: 'general-purpose', description: 'Write a note' } })
    const { events } = (await t.invoke('subagents/events', { sessionId: t.id, agentId: start_.agentId })) as { events: SessionEvent[] }
    expect(events[0].type).toBe('session/header')
    expect(ofType(events, 'tool/result').map((r) => [r.name, r.isError])).toEqual([['Write', false]])
    expect(pushed.map((p) => p.event.seq)).toEqual(events.slice(1).map((e) => e.seq))

    const list = (await t.invoke('subagents/list', {})) as PushPayload<'app/status'> & { agents: Array<Record<string, unknown>>; skipped: Array<Record<string, unknown>> }
    expect(list.agents.map((a) => a.name)).toEqual(['scout', 'general-purpose', 'Explore', 'Plan'])
    expect(list.agents[0]).toMatchObject({ source: 'project', tools: ['Read', 'Grep'], file: join(t.workspace, '.claude', 'agents', 'scout.md') })
    expect(list.agents.find((a) => a.name === 'Explore')).toMatchObject({ source: 'builtin', tools: ['Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch'] })
    expect(list.skipped).toEqual([{ file: join(t.workspace, '.claude', 'agents', 'broken.md'), field: 'description', reason: expect.stringContaining('description') }])

    // Durable: search finds the subagent's own words; the session's turn owns what its subagent wrote.
    const found = (await t.invoke('sessions/search', { query: 'wrote the note' })) as Array<{ id: string; match?: { seq: number; snippet: string } }>
    expect(found.map((r) => r.id)).toEqual([t.id])
    expect(found[0].match).toMatchObject({ seq: start_.seq, snippet: 'wrote the note' })
    const turnId = ofType(session.log.events, 'turn/start')[0].turnId
    const changes = (await t.invoke('checkpoints/changes', { sessionId: t.id, turnId })) as { files: Array<{ path: string; status: string }> }
    expect(changes.files).toEqual([expect.objectContaining({ path: join(t.workspace, 'note.txt'), status: 'current' })])
    expect(await t.invoke('checkpoints/revert', { sessionId: t.id, turnId })).toMatchObject({ status: 'done' })
    expect(existsSync(join(t.workspace, 'note.txt'))).toBe(false)
  })

  it('Stop ends just that subagent: its Agent call gets Claude Code\'s interrupted result and the parent\'s turn goes on', async () => {
    const t = await start(
      [{ text: 'thinking about it for a long time', hangAfterChars: 8 }],
      [{ toolCalls: [{ name: 'Agent', args: { description: 'Take forever', prompt: 'never finish' } }] }, { text: 'the parent carried on' }]
    )
    await t.invoke('chat/send', { sessionId: t.id, content: 'delegate' })
    const session = await host!.runtime.sessions.open(t.id)
    await waitFor(() => ofType(session.log.events, 'subagent/start').length > 0, WAIT_MS, 'the subagent to start')
    const { agentId } = ofType(session.log.events, 'subagent/start')[0]
    await waitFor(() => t.pushes.some((p) => p.push === 'agent/delta' && (p.payload as { sessionId: string }).sessionId === agentId), WAIT_MS, 'the subagent to stream')
    expect(await t.invoke('subagents/stop', { sessionId: t.id, agentId })).toEqual({ stopped: true })
    await waitFor(() => ofType(session.log.events, 'turn/end').length > 0, WAIT_MS, 'the turn to end')
    const result = ofType(session.log.events, 'tool/result')[0]
    expect([result.name, result.content, result.isError]).toEqual(['Agent', '[Request interrupted by user for tool use]', true])
    expect(ofType(session.log.events, 'subagent/end')[0]).toMatchObject({ agentId, reason: 'cancelled' })
    expect(ofType(session.log.events, 'turn/end')[0].reason).toBe('completed')
    expect(ofType(session.log.events, 'assistant/message').at(-1)?.text).toBe('the parent carried on')
    // Stopped already: a second Stop says so.
    expect(await t.invoke('subagents/stop', { sessionId: t.id, agentId })).toEqual({ stopped: false })
  })

  it('rewinding to the prompt takes back the files its subagent wrote', async () => {
    const t = await start(
      [(body) => ({ toolCalls: [{ name: 'Write', args: { file_path: join(cwdOf(body), 'made.txt'), content: 'by the child\n' } }] }), { text: 'made it' }],
      [{ toolCalls: [{ name: 'Agent', args: { description: 'Make a file', prompt: 'Write made.txt' } }] }, { text: 'done' }]
    )
    await t.invoke('settings/set', { approvalMode: 'never-ask' })
    await t.invoke('chat/send', { sessionId: t.id, content: 'make the file' })
    const session = await host!.runtime.sessions.open(t.id)
    await waitFor(() => ofType(session.log.events, 'turn/end').length > 0, WAIT_MS, 'the turn to end')
    expect(await readFile(join(t.workspace, 'made.txt'), 'utf8')).toBe('by the child\n')
    const message = ofType(session.log.events, 'user/message')[0]
    const outcome = (await t.invoke('checkpoints/rewind', { sessionId: t.id, messageSeq: message.seq })) as { status: string; prompt: string }
    expect(outcome).toMatchObject({ status: 'done', prompt: 'make the file' })
    expect(existsSync(join(t.workspace, 'made.txt'))).toBe(false)
  })

  it('validates the subagent methods\' input and names the field', async () => {
    const t = await start([], [])
    const bad = await t.router.invoke('subagents/stop', { sessionId: t.id, agentId: '../etc' }, caller)
    expect(bad).toEqual({ ok: false, error: expect.objectContaining({ code: 'INVALID_INPUT', field: 'agentId' }) })
    const extra = await t.router.invoke('subagents/events', { sessionId: t.id, agentId: 'a1', more: 1 } as never, caller)
    expect(extra.ok).toBe(false)
    const unknown = await t.router.invoke('subagents/events', { sessionId: t.id, agentId: 'a0123456789abcdef' }, caller)
    expect(unknown).toEqual({ ok: false, error: expect.objectContaining({ message: expect.stringContaining('has no subagent a0123456789abcdef') }) })
    // The width of the subagent rows a window measured: whole cells, at least one, nothing else.
    for (const columns of [0, 2.5, 'wide', -3]) {
      expect(await t.router.invoke('subagents/status-columns', { sessionId: t.id, columns } as never, caller)).toEqual({ ok: false, error: expect.objectContaining({ code: 'INVALID_INPUT', field: 'columns' }) })
    }
    expect((await t.router.invoke('subagents/status-columns', { sessionId: t.id, columns: 80, wide: true } as never, caller)).ok).toBe(false)
    expect(await t.router.invoke('subagents/status-columns', { sessionId: '../x', columns: 80 }, caller)).toEqual({ ok: false, error: expect.objectContaining({ code: 'INVALID_INPUT', field: 'sessionId' }) })
    // Taken for a session running here (plugins/claude-plugins gives it to the command); not for one that is not.
    expect(await t.invoke('subagents/status-columns', { sessionId: t.id, columns: 80 })).toEqual({ applied: true })
    expect(await t.invoke('subagents/status-columns', { sessionId: 'not-open-here', columns: 80 })).toEqual({ applied: false })
  })
})

function cwdOf(body: OpenAIRequestBody): string {
  return /Working directory: (.+)/.exec(String(body.messages[0]?.content ?? ''))?.[1] ?? ''
}
