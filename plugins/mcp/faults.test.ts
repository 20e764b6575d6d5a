// Bad servers: each fault is a clear error on that server or that call, in the session and the
// server's status, while the session and the other servers go on. The servers are real
// processes (test-servers/scripted-server.mjs) speaking JSON-RPC over stdio.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { isAlive, scaledTestMs, waitUntilDead } from '@seam/sdk/testing'
import type { McpServerStatus } from './index'
import { SCRIPTED_SERVER, startMcpHost, toolResults, type McpHost } from './test-host'

let host: McpHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

const scripted = (mode: string, env: Record<string, string> = {}) => ({ command: process.execPath, args: [SCRIPTED_SERVER, mode], env })
const FAST = `- id: mcp\n  config: { startupTimeoutMs: 5000, restartDelayMs: 50, maxRestarts: 2 }\n`

function server(host: McpHost, name: string): McpServerStatus {
  const found = host.runtime.kernel.getService('mcp')!.servers().find((status) => status.name === name)
  if (!found) throw new Error(`no server ${name}`)
  return found
}

/** Whether `file` exists and holds something. */
const written = (file: string): boolean => existsSync(file) && readFileSync(file, 'utf8').length > 0

/** Polls `check`; throws after `ms`, written for an idle machine and scaled by the run's time factor. */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + scaledTestMs(ms)
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('MCP servers that misbehave', () => {
  it('no start, no initialize answer, exit mid-call, malformed JSON-RPC, invalid schema, 50 MB, bad names: each is reported on its own and the rest goes on', async () => {
    host = await startMcpHost({
      patch: FAST,
      approvalMode: 'never-ask',
      mcpJson: {
        nosuch: { command: '/no/such/binary', args: [] },
        exits: scripted('exit'),
        silent: scripted('silent'),
        crash: scripted('crash'),
        malformed: scripted('malformed'),
        'bad-schema': scripted('bad-schema'),
        huge: scripted('huge'),
        'bad-names': scripted('bad-names'),
        grows: scripted('list-changed')
      },
      script: [
        {
          toolCalls: [
            { id: 'boom', name: 'mcp__crash__boom', args: {} },
            { id: 'garble', name: 'mcp__malformed__garble', args: {} },
            { id: 'huge', name: 'mcp__huge__huge', args: {} },
            { id: 'ok', name: 'mcp__bad-schema__ok', args: { x: 'y' } },
            { id: 'grow', name: 'mcp__grows__grow', args: {} }
          ]
        },
        { toolCalls: [{ id: 'grown', name: 'mcp__grows__grown', args: {} }, { id: 'spaced', name: 'mcp__bad-names__has_space', args: {} }] },
        { text: 'done' }
      ]
    })
    const { events } = await host.run('go')
    const results = new Map(toolResults(events).map((result) => [result.callId, result]))

    expect(server(host, 'nosuch')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/cannot start "\/no\/such\/binary": spawn \/no\/such\/binary ENOENT/) })
    expect(server(host, 'exits')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/exited with code 7; last stderr line: fatal: no configuration found/) })
    expect(server(host, 'exits').stderr).toEqual(['fatal: no configuration found'])
    expect(server(host, 'silent')).toMatchObject({ state: 'failed', reason: expect.stringMatching(/did not answer initialize within 5000 ms/) })

    expect(results.get('boom')).toMatchObject({ isError: true })
    expect(results.get('boom')!.content).toMatch(/MCP server "crash" closed the connection during the call: the server process exited with code 3; last stderr line: boom: the server fell over/)
    expect(results.get('garble')!.isError).toBe(true)
    expect(results.get('garble')!.content).toMatch(/MCP server "malformed" closed the connection during the call: the server sent malformed JSON-RPC: "this is not JSON-RPC"/)
    expect(results.get('huge')).toMatchObject({ isError: true })
    expect(results.get('huge')!.content).toMatch(/returned 50 MB, more than the 20 MB Seam accepts/)
    expect(results.get('ok')).toMatchObject({ isError: false, content: 'called ok' })
    expect(server(host, 'bad-schema').problems).toEqual([expect.stringMatching(/^tool "bad": its inputSchema is not valid JSON Schema: .*type/)])

    const names = server(host, 'bad-names')
    expect(names.tools.map((tool) => tool.name).sort()).toEqual(['mcp__bad-names__a_b', 'mcp__bad-names__dots_and_slashes', 'mcp__bad-names__has_space'])
    expect(names.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/tool "a_b" is named mcp__bad-names__a_b, which another of its tools already uses/),
        expect.stringMatching(/model providers accept at most 64/),
        expect.stringMatching(/empty name/)
      ])
    )
    expect(results.get('spaced')).toMatchObject({ isError: false, content: 'called has space' })

    // tools/list_changed refreshed the catalog: the tool added at run time was callable in the next step.
    expect(results.get('grown')).toMatchObject({ isError: false, content: 'called grown' })

    // The session was told about each failed server.
    const notices = events.flatMap((event) => (event.type === 'notice' ? [event.text] : []))
    for (const name of ['nosuch', 'exits', 'silent']) expect(notices.some((text) => text.startsWith(`MCP server "${name}" failed:`))).toBe(true)

    // The crashed stdio server is restarted with backoff and answers again.
    await until(() => server(host!, 'crash').state === 'connected', 'the crashed server to be restarted')
  }, 60_000)

  it('isError results are errors; two servers whose names normalize alike: the second one\'s tools are left out, saying which server has the name', async () => {
    host = await startMcpHost({
      approvalMode: 'never-ask',
      mcpJson: { 'x.y': scripted('list-changed'), x_y: scripted('list-changed') },
      script: [{ toolCalls: [{ id: 'f', name: 'mcp__x_y__fails', args: {} }] }, { text: 'done' }]
    })
    const { events } = await host.run('fail')
    expect(toolResults(events)[0]).toMatchObject({ isError: true })
    expect(toolResults(events)[0]!.content).toContain('it broke')
    const [first, second] = [server(host, 'x.y'), server(host, 'x_y')]
    const [owner, other] = first.tools.length > 0 ? [first, second] : [second, first]
    expect(owner.tools.map((tool) => tool.name).sort()).toEqual(['mcp__x_y__fails', 'mcp__x_y__grow'])
    expect(other.tools).toEqual([])
    expect(other.problems).toEqual([
      `tool "grow" is named mcp__x_y__grow, which server "${owner.name}" already uses; it is left out`,
      `tool "fails" is named mcp__x_y__fails, which server "${owner.name}" already uses; it is left out`
    ])
  })

  it('cancelling the turn sends MCP\'s notifications/cancelled for the call in flight', async () => {
    const cancelLog = join(tmpdir(), `seam-mcp-cancel-${process.pid}-${Date.now()}.log`)
    const callLog = `${cancelLog}.calls`
    onTestFinished(() => {
      rmSync(cancelLog, { force: true })
      rmSync(callLog, { force: true })
    })
    host = await startMcpHost({
      approvalMode: 'never-ask',
      mcpJson: { slow: scripted('slow', { CANCEL_LOG: cancelLog, CALL_LOG: callLog }) },
      script: [{ toolCalls: [{ id: 'w', name: 'mcp__slow__wait', args: {} }] }, { text: 'after cancel' }]
    })
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('wait')
    // Cancelled once the server holds the call: a cancel before the request is written has no
    // call in flight to name (a fixed wait after the tool/call event lost that race under load).
    await until(() => written(callLog), 'the server to receive the call')
    session.agent.cancel()
    await session.agent.whenIdle()
    const [result] = toolResults(session.log.events)
    expect(result).toMatchObject({ isError: true, code: 'CANCELLED' })
    await until(() => written(cancelLog), 'the cancel notification')
    const [line] = (await readFile(cancelLog, 'utf8')).trim().split('\n')
    expect(JSON.parse(line!)).toMatchObject({ requestId: expect.anything() })
  })

  it('a call past MCP_TOOL_TIMEOUT (toolTimeoutMs) ends as a TIMEOUT error, and the server keeps serving', async () => {
    host = await startMcpHost({
      approvalMode: 'never-ask',
      patch: `- id: mcp\n  config: { toolTimeoutMs: 300 }\n`,
      mcpJson: { slow: scripted('slow') },
      script: [{ toolCalls: [{ id: 'w', name: 'mcp__slow__wait', args: {} }] }, { text: 'done' }]
    })
    const { events } = await host.run('wait')
    const [result] = toolResults(events)
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' })
    expect(result!.content).toMatch(/timed out after 300 ms/)
    expect(server(host, 'slow').state).toBe('connected')
  })

  it('a call past MCP_TOOL_TIMEOUT leaves no child of the server behind once the server stops (its process group ends)', async () => {
    const pidFile = join(tmpdir(), `seam-mcp-pids-${process.pid}-${Date.now()}`)
    host = await startMcpHost({
      approvalMode: 'never-ask',
      patch: `- id: mcp\n  config: { toolTimeoutMs: 300 }\n`,
      mcpJson: { spawns: scripted('spawns', { PID_FILE: pidFile }) },
      script: [{ toolCalls: [{ id: 's', name: 'mcp__spawns__spawn', args: {} }] }, { text: 'done' }]
    })
    const { events } = await host.run('spawn')
    expect(toolResults(events)[0]).toMatchObject({ isError: true, code: 'TIMEOUT' })
    // On a loaded machine the call can time out before the server has started its child: the
    // server goes on serving, so the child still comes.
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the server to start its child')
    const [serverPid, childPid] = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number)
    rmSync(pidFile, { force: true })
    expect(isAlive(childPid!), 'the tool\'s child runs while the server does').toBe(true)
    await host.close()
    host = undefined
    for (const pid of [serverPid!, childPid!]) expect(await waitUntilDead(pid), `pid ${pid} outlived the stopped MCP server`).toBe(true)
  })
})
