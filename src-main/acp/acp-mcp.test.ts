// `seam acp` end to end, the editor's MCP servers: `mcpServers` of session/new start through
// Seam's MCP client (a real third-party server, @modelcontextprotocol/server-everything, over
// stdio), their tools go through the approval seam like any other, and they end with the
// session; a server that fails to start leaves the session open and says why. Same wiring as
// acp.test.ts (acp-fixture.ts).
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import type * as acp from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import type { OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { agent, connect, lastToolContent, providerArgs, rpcError, sessionEvents, setup, textOf, updatesOf, useAcpFixture } from './acp-fixture'

useAcpFixture()

const EVERYTHING_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const everything: acp.McpServer = { name: 'everything', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: [{ name: 'SEAM_TEST_MARK', value: 'acp' }] }

/** Command lines of the processes `pid` started. */
function childrenOf(pid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean)
  } catch {
    return [] // ps exits 1 when there is no such process
  }
}

/** server-everything over streamable HTTP on a free loopback port; resolves with its URL and a stop. */
async function everythingOverHttp(): Promise<{ url: string; stop(): void }> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
  const child = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything (streamableHttp) did not start listening')), 15_000)
    child.stderr.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on port')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() }
}

interface McpMeta {
  seam: { mcpServers: Array<{ name: string; state: string; reason?: string; tools: string[] }> }
}

describe('mcpServers from the editor (issue 15, session/new; issue 14, MCP tools through the pipeline)', () => {
  it('initialize advertises MCP over HTTP and SSE besides stdio', async () => {
    const s = await setup([])
    const proc = agent(s, providerArgs(s))
    const init = await connect(proc)
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true })
  })

  it('a stdio server given with session/new starts; the model calls mcp__everything__echo, the editor is asked and allows it, the result reaches the model; closing the session ends the server', async () => {
    const s = await setup([
      { toolCalls: [{ id: 'e1', name: 'mcp__everything__echo', args: { message: 'hello from the editor' } }] },
      (body: OpenAIRequestBody) => ({ text: `the server said ${lastToolContent(body)}` })
    ])
    const asked: acp.RequestPermissionRequest[] = []
    const proc = agent(s, providerArgs(s), {
      permission: (params) => {
        asked.push(params)
        return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } }
      }
    })
    await connect(proc)
    const created = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [everything] })
    const { sessionId } = created
    const meta = created._meta as unknown as McpMeta
    expect(meta.seam.mcpServers).toMatchObject([{ name: 'everything', state: 'connected' }])
    expect(meta.seam.mcpServers[0]!.tools).toContain('mcp__everything__echo')
    expect(childrenOf(proc.child.pid!).filter((line) => line.includes(EVERYTHING_SERVER))).toHaveLength(1)

    // A mode change recomposes the plugin tree; the editor's servers stay (ask-all still asks).
    await proc.agent.request('session/set_mode', { sessionId, modeId: 'ask-all' })
    const response = await proc.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo something' }] })
    expect(response.stopReason).toBe('end_turn')

    expect(s.server.requests[0]!.body.tools?.map((t) => t.function.name)).toContain('mcp__everything__echo')
    expect(asked).toHaveLength(1)
    expect(asked[0]!.toolCall).toMatchObject({ toolCallId: 'turn-1/e1', rawInput: { message: 'hello from the editor' } })
    const updates = updatesOf(proc, sessionId)
    expect(updates.find((u) => u.sessionUpdate === 'tool_call')).toMatchObject({ toolCallId: 'turn-1/e1', status: 'pending' })
    const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }>
    expect(JSON.stringify(done.content)).toContain('Echo: hello from the editor')
    expect(lastToolContent(s.server.requests[1]!.body)).toContain('Echo: hello from the editor')
    expect(textOf(updates, 'agent_message_chunk')).toContain('the server said')
    const decided = (await sessionEvents(s.home, sessionId)).filter((e) => e.type === 'approval/decided').map((e) => e.outcome)
    expect(decided).toEqual(['allowed-once'])

    await proc.agent.request('session/close', { sessionId })
    expect(childrenOf(proc.child.pid!).filter((line) => line.includes(EVERYTHING_SERVER))).toHaveLength(0)
  })

  it('session/load starts the servers given with it for the loaded session', async () => {
    const s = await setup([{ text: 'first' }])
    const first = agent(s, providerArgs(s))
    await connect(first)
    const { sessionId } = await first.agent.request('session/new', { cwd: s.workspace, mcpServers: [] })
    await first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })
    await first.stop()

    const second = agent(s, providerArgs(s))
    await connect(second)
    const loaded = await second.agent.request('session/load', { sessionId, cwd: s.workspace, mcpServers: [everything] })
    expect((loaded._meta as unknown as McpMeta).seam.mcpServers).toMatchObject([{ name: 'everything', state: 'connected' }])
    expect(childrenOf(second.child.pid!).filter((line) => line.includes(EVERYTHING_SERVER))).toHaveLength(1)
  })

  it('an HTTP server given with session/new connects and answers a call (mcpCapabilities.http holds)', async () => {
    const remote = await everythingOverHttp()
    try {
      const s = await setup([
        { toolCalls: [{ id: 'h1', name: 'mcp__remote__echo', args: { message: 'over http' } }] },
        (body: OpenAIRequestBody) => ({ text: `got ${lastToolContent(body)}` })
      ])
      const proc = agent(s, providerArgs(s, '--approve', 'allow'))
      await connect(proc)
      const created = await proc.agent.request('session/new', {
        cwd: s.workspace,
        mcpServers: [{ type: 'http', name: 'remote', url: remote.url, headers: [{ name: 'X-Seam-Test', value: 'present' }] }]
      })
      expect((created._meta as unknown as McpMeta).seam.mcpServers).toMatchObject([{ name: 'remote', state: 'connected' }])
      expect((await proc.agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'echo' }] })).stopReason).toBe('end_turn')
      expect(lastToolContent(s.server.requests[1]!.body)).toContain('Echo: over http')
    } finally {
      remote.stop()
    }
  })

  it('a server that fails to start leaves the session open: the response names it with the reason, stderr logs it, the next turn shows it; the other server still works', async () => {
    const s = await setup([
      { toolCalls: [{ id: 'e2', name: 'mcp__everything__echo', args: { message: 'still here' } }] },
      (body: OpenAIRequestBody) => ({ text: `got ${lastToolContent(body)}` })
    ])
    const proc = agent(s, providerArgs(s, '--approve', 'allow'))
    await connect(proc)
    const broken: acp.McpServer = { name: 'broken', command: '/nonexistent/mcp-server', args: [], env: [] }
    const created = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [broken, everything] })
    const servers = (created._meta as unknown as McpMeta).seam.mcpServers
    expect(servers.map((x) => [x.name, x.state])).toEqual([
      ['broken', 'failed'],
      ['everything', 'connected']
    ])
    expect(servers[0]!.reason).toMatch(/nonexistent\/mcp-server/)
    expect(proc.stderr()).toMatch(/MCP server "broken" from the editor did not start/)

    const response = await proc.agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'echo' }] })
    expect(response.stopReason).toBe('end_turn')
    const text = textOf(updatesOf(proc, created.sessionId), 'agent_message_chunk')
    expect(text).toMatch(/\[mcp\] MCP server "broken" from the editor did not start: .*nonexistent\/mcp-server/)
    expect(text).toContain('got ')
    expect(lastToolContent(s.server.requests[1]!.body)).toContain('Echo: still here')
    // Once: the MCP plugin's own session-start notice leaves servers started for one session to their starter.
    expect(text.match(/"broken" from the editor/g)).toHaveLength(1)
  })

  it('a name given twice, an HTTP server with a bad URL: the first is refused naming the field, the second fails that server only', async () => {
    const s = await setup([])
    const proc = agent(s, providerArgs(s))
    await connect(proc)
    const twice = await rpcError(proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [everything, { ...everything }] }))
    expect(twice).toMatchObject({ code: -32602, message: expect.stringMatching(/mcpServers\[1\]\.name: "everything" is given twice/) })
    const created = await proc.agent.request('session/new', { cwd: s.workspace, mcpServers: [{ type: 'http', name: 'remote', url: 'not a url', headers: [{ name: 'Authorization', value: 'Bearer x' }] }] })
    expect((created._meta as unknown as McpMeta).seam.mcpServers).toMatchObject([{ name: 'remote', state: 'failed', reason: expect.stringMatching(/url: not a valid URL/) }])
  })
})
