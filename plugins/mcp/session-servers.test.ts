// Servers follow the sessions that need them: started by the first session (not at app start),
// stopped when the last one closes; servers a caller starts for one session (the ACP agent's
// `mcpServers`) serve that session and stop with it. Also: a long-lived signal gains no
// listeners from calls (the SDK never removes its own).
import { execFileSync } from 'node:child_process'
import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { EVERYTHING_SERVER, SCRIPTED_SERVER, startMcpHost, toolResults, type McpHost } from './test-host'

let host: McpHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

function serverProcesses(marker: string): number {
  const out = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
  return out.split('\n').filter((line) => line.includes(marker)).length
}

describe('server lifecycle follows the sessions', () => {
  it('no server runs before a session; the first session starts it; closing the last session ends it', async () => {
    host = await startMcpHost({ mcpJson: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }, script: [{ text: 'hi' }] })
    const mcp = host.runtime.kernel.getService('mcp')!
    expect(mcp.servers()[0]!.state).toBe('stopped')
    expect(serverProcesses(EVERYTHING_SERVER)).toBe(0)
    const { session } = await host.run('hello')
    expect(mcp.servers()[0]!.state).toBe('connected')
    expect(serverProcesses(EVERYTHING_SERVER)).toBe(1)
    await host.runtime.sessions.close(session.log.id, 'closed')
    expect(mcp.servers()[0]!.state).toBe('stopped')
    expect(serverProcesses(EVERYTHING_SERVER)).toBe(0)
  })

  it('startForSession: servers given for one session serve its calls and stop when it closes; a taken name is refused', async () => {
    host = await startMcpHost({
      approvalMode: 'never-ask',
      mcpJson: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } },
      script: [{ toolCalls: [{ id: 'g', name: 'mcp__editor__grow', args: {} }] }, { text: 'done' }]
    })
    const mcp = host.runtime.kernel.getService('mcp')!
    const session = await host.runtime.sessions.create(host.workspace)
    const started = await mcp.startForSession(session.log.id, [
      { name: 'editor', command: process.execPath, args: [SCRIPTED_SERVER, 'list-changed'] },
      { name: 'everything', command: 'ignored' }
    ])
    expect(started.map((s) => [s.name, s.state, s.sessionId])).toEqual([
      ['editor', 'connected', session.log.id],
      ['everything', 'failed', session.log.id]
    ])
    expect(started[1]!.reason).toMatch(/the name "everything" is already used by the MCP server declared in .*\.mcp\.json/)
    session.agent.send('grow')
    await session.agent.whenIdle()
    expect(toolResults(session.log.events)[0]).toMatchObject({ isError: false, content: 'grew' })
    await host.runtime.sessions.close(session.log.id, 'closed')
    expect(mcp.servers().map((s) => s.name)).toEqual(['everything'])
    expect(serverProcesses(`${SCRIPTED_SERVER} list-changed`)).toBe(0)
  })

  it('calls sharing one signal do not pile abort listeners on it (the pipeline keeps one per signal, its shared deadline)', async () => {
    host = await startMcpHost({ mcpJson: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }, approvalMode: 'never-ask', script: [{ text: 'hi' }] })
    await host.run('start the servers')
    const tools = host.runtime.kernel.getService('tools')!
    const turn = new AbortController()
    let afterFirst = -1
    for (let i = 0; i < 15; i++) {
      const { result } = await tools.execute({ name: 'mcp__everything__echo', args: { message: `n${i}` }, callId: `c${i}`, sessionId: 's', cwd: host.workspace, signal: turn.signal })
      expect(result.content).toBe(`Echo: n${i}`)
      if (i === 0) afterFirst = getEventListeners(turn.signal, 'abort').length
    }
    expect(afterFirst).toBeLessThanOrEqual(1)
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(afterFirst)
  })
})
