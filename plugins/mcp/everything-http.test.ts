// End to end over streamable HTTP (and legacy SSE): server-everything (from npm, pinned) runs as
// its own process on a free loopback port; Seam's settings declare it as a user-level `type: "http"` server with
// a `${VAR:-default}` header; the call goes through the real loop with the loopback model server.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVERYTHING_SERVER, startMcpHost, toolResults } from './test-host'

let server: ChildProcess
let url: string
let sseServer: ChildProcess
let sseUrl: string

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

/** Starts server-everything with `mode` on a free port; resolves once it says it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse', ready: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything (${mode}) did not start listening`)), 15_000)
    child.stderr!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(ready)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)))
  })
  return { child, port }
}

beforeAll(async () => {
  const http = await startEverything('streamableHttp', 'listening on port')
  server = http.child
  url = `http://127.0.0.1:${http.port}/mcp`
  const sse = await startEverything('sse', 'running on port')
  sseServer = sse.child
  sseUrl = `http://127.0.0.1:${sse.port}/sse`
})

afterAll(() => {
  server?.kill()
  sseServer?.kill()
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

  it('a project .mcp.json `type: "sse"` server connects and answers a call', async () => {
    const host = await startMcpHost({
      mcpJson: { legacy: { type: 'sse', url: sseUrl } },
      approvalMode: 'never-ask',
      script: [{ toolCalls: [{ id: 's', name: 'mcp__legacy__get-sum', args: { a: 20, b: 22 } }] }, { text: 'done' }]
    })
    try {
      const { events } = await host.run('sum over sse')
      expect(toolResults(events)[0]).toMatchObject({ isError: false })
      expect(toolResults(events)[0]!.content).toContain('42')
      expect(host.runtime.kernel.getService('mcp')!.servers()[0]).toMatchObject({ name: 'legacy', transport: 'sse', state: 'connected', target: `SSE ${sseUrl}` })
    } finally {
      await host.close()
    }
  })
})
