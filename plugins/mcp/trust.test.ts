// Project servers are workspace code: in an untrusted workspace they do not start, the session
// is told, and the trust dialog lists each one's exact command or URL (as it does for hooks).
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { TRUST_SOURCE } from './index'
import { EVERYTHING_SERVER, startMcpHost, type McpHost } from './test-host'

let host: McpHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

describe('trust of workspace-declared MCP servers', () => {
  it('an untrusted workspace: its servers stay untrusted (no process), the session says why, and the trust dialog lists the exact command and URL', async () => {
    host = await startMcpHost({
      trusted: false,
      mcpJson: {
        everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' }
      },
      script: [{ text: 'hi' }]
    })
    const { events } = await host.run('hello')
    const servers = host.runtime.kernel.getService('mcp')!.servers()
    expect(servers.map((s) => [s.name, s.state])).toEqual([
      ['everything', 'untrusted'],
      ['remote', 'untrusted']
    ])
    const children = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    expect(children).not.toContain(EVERYTHING_SERVER)
    const notices = events.flatMap((event) => (event.type === 'notice' ? [event.text] : []))
    expect(notices).toContainEqual(expect.stringMatching(/this workspace is not trusted, so "everything" \(.*\), "remote" \(HTTP http:\/\/127\.0\.0\.1:9\/mcp\) declared in it did not start/))
    const items = host.runtime.plugins.trustPreview(host.workspace).filter((item) => item.source === TRUST_SOURCE)
    expect(items).toEqual([
      // Each with the hash trusting pins and its status (issue 13).
      { source: TRUST_SOURCE, file: `${host.workspace}/.mcp.json`, event: 'server "everything" (stdio)', command: `${process.execPath} ${EVERYTHING_SERVER} stdio`, hash: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'new' },
      { source: TRUST_SOURCE, file: `${host.workspace}/.mcp.json`, event: 'server "remote" (http)', command: 'HTTP http://127.0.0.1:9/mcp', hash: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'new' }
    ])

    // Trusting the workspace while the session is open starts its servers for that session.
    host.runtime.settings.update({ trustedWorkspaces: [host.workspace] })
    // As workspace/trust does: the servers the dialog listed are approved (trust pinning, issue 13).
    await host.runtime.plugins.approveTrustItems(host.workspace)
    const mcp = host.runtime.kernel.getService('mcp')!
    const end = Date.now() + 15_000
    while (mcp.servers().find((s) => s.name === 'everything')?.state !== 'connected' && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
    expect(mcp.servers().find((s) => s.name === 'everything')?.state).toBe('connected')
    expect(host.runtime.kernel.getService('tools')!.get('mcp__everything__echo')).toBeDefined()
  })
})
