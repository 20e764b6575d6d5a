// End to end over streamable HTTP: server-everything (from npm, pinned) runs as its own process
// on a free loopback port; Seam's settings declare it as a user-level `type: "http"` server with
// a `${VAR:-default}` header; the call goes through the real loop with the loopback model server.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVERYTHING_SERVER, startMcpHost, toolResults } from './test-host'

let server: ChildProcess
let url: string

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

beforeAll(async () => {
  const port = await freePort()
  url = `http://127.0.0.1:${port}/mcp`
  server = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start listening')), 15_000)
    server.stderr!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on port')) {
        clearTimeout(timer)
        resolve()
      }
    })
    server.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)))
  })
})

afterAll(() => {
  server?.kill()
})

describe('MCP over streamable HTTP with server-everything', () => {
  it('a user-level http server from Seam\'s settings connects, lists its tools and answers a call through the loop', async () => {
    const host = await startMcpHost({
      settings: { mcpServers: { remote: { type: 'http', url: '${SEAM_TEST_MCP_URL:-' + url + '}', headers: { 'X-Seam-Test': '${SEAM_TEST_HEADER:-present}' } } } },
      script: [{ toolCalls: [{ id: 'e', name: 'mcp__remote__echo', args: { message: 'over http' } }] }, { text: 'done' }]
    })
    try {
      const { events } = await host.run('echo over http')
      const [result] = toolResults(events)
      expect(result).toMatchObject({ isError: false, content: 'Echo: over http' })
      const status = host.runtime.kernel.getService('mcp')!.servers()
      expect(status).toEqual([expect.objectContaining({ name: 'remote', source: 'seam', transport: 'http', state: 'connected', target: `HTTP ${url}` })])
      expect(status[0]!.tools.map((tool) => tool.name)).toContain('mcp__remote__get-sum')
    } finally {
      await host.close()
    }
  })
})
