// End to end: @modelcontextprotocol/server-everything (from npm, pinned) over stdio, declared in
// the workspace's .mcp.json, driven through Seam's real agent loop by the loopback model server.
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { EVERYTHING_SERVER, isAlive, startMcpHost, toolResults, type McpHost } from './test-host'

let host: McpHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

const everything = { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }

describe('MCP over stdio with server-everything', () => {
  it('S10/S11/S14: its tools reach the model with the server schema, ask for approval, and return text, image and structured content', async () => {
    host = await startMcpHost({
      mcpJson: everything,
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'mcp__everything__echo', args: { message: 'hello from seam' } },
            { id: 'c2', name: 'mcp__everything__get-sum', args: { a: 2, b: 40 } },
            { id: 'c3', name: 'mcp__everything__get-tiny-image', args: {} },
            { id: 'c4', name: 'mcp__everything__get-structured-content', args: { location: 'Chicago' } },
            { id: 'c5', name: 'mcp__everything__get-sum', args: { a: 'two' } }
          ]
        },
        { text: 'done' }
      ]
    })
    const { events } = await host.run('use the tools')

    const tools = host.model.requests[0]!.body.tools!
    const echo = tools.find((tool) => tool.function.name === 'mcp__everything__echo')
    expect(echo?.function.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] })
    expect(tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['ListMcpResourcesTool', 'ReadMcpResourceTool']))

    const results = toolResults(events)
    const byCall = new Map(results.map((result) => [result.callId, result]))
    expect(byCall.get('c1')).toMatchObject({ isError: false, content: 'Echo: hello from seam' })
    expect(byCall.get('c2')!.content).toContain('42')
    expect(byCall.get('c3')!.content).toMatch(/\[image: image\/png, \d+ (KB|MB)\]/)
    expect(byCall.get('c3')!.structured).toMatchObject({ content: expect.arrayContaining([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]) })
    expect(byCall.get('c4')!.structured).toMatchObject({ structuredContent: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 } })
    // The server's JSON Schema validates the arguments before the call, naming the fields.
    expect(byCall.get('c5')).toMatchObject({ isError: true, code: 'INVALID_ARGS' })
    expect(byCall.get('c5')!.content).toMatch(/a: .*number/)
    expect(byCall.get('c5')!.content).toMatch(/b: required/)

    // MCP tools ask by default (mode ask-side-effects): every valid call went to the approval seam.
    const asked = events.filter((event) => event.type === 'approval/asked').map((event) => (event as { tool: string }).tool)
    expect(asked).toEqual(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image', 'mcp__everything__get-structured-content'])
  })

  it('lists resources and reads one through ListMcpResourcesTool and ReadMcpResourceTool', async () => {
    host = await startMcpHost({
      mcpJson: everything,
      approvalMode: 'never-ask',
      script: [
        { toolCalls: [{ id: 'l1', name: 'ListMcpResourcesTool', args: { server: 'everything' } }] },
        (body) => {
          const listing = body.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'l1')
          const uri = /"uri": "([^"]+)"/.exec(String(listing?.content))?.[1] ?? 'missing'
          return { toolCalls: [{ id: 'r1', name: 'ReadMcpResourceTool', args: { server: 'everything', uri } }] }
        },
        { text: 'done' }
      ]
    })
    const { events } = await host.run('resources')
    const [list, read] = toolResults(events)
    expect(list).toMatchObject({ isError: false })
    expect(JSON.parse(list!.content)).toEqual(expect.arrayContaining([expect.objectContaining({ server: 'everything', uri: expect.any(String) })]))
    expect(read).toMatchObject({ isError: false })
    expect(read!.content.length).toBeGreaterThan(0)
  })

  it('shows the server connected with its tools and stderr, and closing the app ends the server process', async () => {
    host = await startMcpHost({ mcpJson: everything, script: [{ text: 'hi' }] })
    await host.run('hello')
    const [server] = host.runtime.kernel.getService('mcp')!.servers()
    expect(server).toMatchObject({ name: 'everything', source: 'project', transport: 'stdio', state: 'connected' })
    expect(server!.target).toBe(`${process.execPath} ${EVERYTHING_SERVER} stdio`)
    expect(server!.tools.map((tool) => tool.name)).toContain('mcp__everything__echo')
    expect(server!.stderr).toContain('Starting default (STDIO) server...')
    const pids = pidsOf(host)
    expect(pids.length).toBe(1)
    await host.close()
    host = undefined
    for (const pid of pids) expect(isAlive(pid)).toBe(false)
  })

  it('output past maxOutputTokens (MAX_MCP_OUTPUT_TOKENS) is cut with a note, and the model gets the cut text', async () => {
    host = await startMcpHost({
      mcpJson: everything,
      approvalMode: 'never-ask',
      patch: `- id: mcp\n  config: { maxOutputTokens: 10 }\n`,
      script: [{ toolCalls: [{ id: 'long', name: 'mcp__everything__echo', args: { message: 'z'.repeat(200) } }] }, { text: 'done' }]
    })
    const { events } = await host.run('long echo')
    const [result] = toolResults(events)
    expect(result!.content).toBe(`Echo: ${'z'.repeat(34)}\n\n[Output cut: the MCP tool returned about 52 tokens, more than the 10-token limit (MAX_MCP_OUTPUT_TOKENS).]`)
    const sent = host.model.requests[1]!.body.messages.find((message) => message.role === 'tool')
    expect(sent?.content).toBe(result!.content)
  })
})

/** The pids of the stdio servers, from /proc: children of this process running the everything server. */
function pidsOf(_host: McpHost): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
  return out
    .split('\n')
    .filter((line) => line.includes(EVERYTHING_SERVER))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}
