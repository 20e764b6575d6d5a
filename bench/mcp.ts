// Cost of one MCP tool call through Seam: ToolRegistry.execute() of `mcp__everything__echo`
// (the whole tool pipeline, the JSON Schema validation, the mcp plugin's client and stdio
// transport, the result mapping) against the same `echo` call made directly with the SDK's
// Client over its StdioClientTransport, each to its own server-everything process, in
// alternating rounds of the same run. Reports microseconds per call; ratio = value / baseline.
import { createRequire } from 'node:module'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { ToolCallRequest } from '../src-shared/host/tools'
import { Kernel } from '../src-shared/kernel'
import { toolsPlugin } from '../src-main/tools'
import mcpPlugin from '../plugins/mcp/index'
import { line, type BenchLine } from './measure'

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const CALLS_PER_ROUND = 200
const ROUNDS = 7

export async function run(): Promise<BenchLine[]> {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  kernel.context.provide('workspace', {
    root: process.cwd(),
    trusted: true,
    seamHome: process.cwd(),
    contributeTrustItems: (ctx) => ctx.onDispose(() => undefined),
    isApproved: () => true,
    itemsChanged: () => {},
    approveItems: () => {}
  })
  kernel.plugin(mcpPlugin, { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, codexHome: '/nonexistent' })
  const [status] = await kernel.getService('mcp')!.startAll()
  if (status?.state !== 'connected') throw new Error(`server-everything did not connect: ${status?.reason}`)
  const tools = kernel.getService('tools')!
  const request: ToolCallRequest = { name: 'mcp__everything__echo', args: { message: 'bench' }, callId: 'b', sessionId: 'bench', cwd: process.cwd() }
  const throughSeam = async () => {
    const { result } = await tools.execute(request)
    if (result.isError) throw new Error(result.content)
  }

  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }))
  const direct = async () => {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'bench' } })
    if (result.isError) throw new Error('echo failed')
  }

  try {
    await time(throughSeam, 100)
    await time(direct, 100)
    let seam = Infinity
    let sdk = Infinity
    // Alternating (and swapping which goes first) so load from the rest of the machine hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) sdk = Math.min(sdk, await time(direct, CALLS_PER_ROUND))
      seam = Math.min(seam, await time(throughSeam, CALLS_PER_ROUND))
      if (round % 2 === 1) sdk = Math.min(sdk, await time(direct, CALLS_PER_ROUND))
    }
    return [line('mcp', 'one echo tool call over stdio (server-everything): Seam pipeline vs SDK client', seam, 'us/call', sdk)]
  } finally {
    await client.close()
    kernel.dispose()
  }
}

/** Microseconds per awaited call, over `count` calls in a row. */
async function time(call: () => Promise<void>, count: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await call()
  return ((performance.now() - started) * 1000) / count
}
