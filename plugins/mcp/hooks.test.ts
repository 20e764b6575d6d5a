// MCP tools go through every seam like any tool: a Claude Code PostToolUse hook (matcher
// `mcp__everything__.*`) sees the MCP content array as tool_response and replaces the output
// with `updatedMCPToolOutput` (claude-code-hooks.md, PostToolUse); a permission rule such as
// `mcp__everything__*` applies to the server's tools.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EVERYTHING_SERVER, SCRIPTED_SERVER, startMcpHost, toolResults, type McpHost } from './test-host'

let host: McpHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

const everything = { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }

describe('MCP tools through the hooks and the permission rules', () => {
  it('PostToolUse updatedMCPToolOutput replaces the output the model gets; the hook saw the content array', async () => {
    host = await startMcpHost({
      mcpJson: everything,
      approvalMode: 'never-ask',
      script: [{ toolCalls: [{ id: 'e', name: 'mcp__everything__echo', args: { message: 'secret' } }] }, { text: 'done' }]
    })
    const seen = join(host.workspace, 'seen.json')
    const hook = join(host.workspace, 'redact.mjs')
    await writeFile(
      hook,
      `let input = ''
process.stdin.on('data', (c) => (input += c)).on('end', async () => {
  const { writeFileSync } = await import('node:fs')
  writeFileSync(${JSON.stringify(seen)}, input)
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: [{ type: 'text', text: 'redacted' }] } }))
})`
    )
    await mkdir(join(host.workspace, '.claude'), { recursive: true })
    await writeFile(
      join(host.workspace, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'mcp__everything__.*', hooks: [{ type: 'command', command: `node ${hook}` }] }] } })
    )
    // Written after start: --trust-workspace approved what was there then, so this hook is new (issue 13) and is approved here.
    await host.runtime.plugins.approveTrustItems(host.workspace)
    const { events } = await host.run('echo')
    expect(toolResults(events)[0]).toMatchObject({ isError: false, content: 'redacted' })
    const request = host.model.requests[1]!.body.messages.find((message) => message.role === 'tool')
    expect(request?.content).toBe('redacted')
    const input = JSON.parse(await readFile(seen, 'utf8'))
    expect(input).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'mcp__everything__echo', tool_input: { message: 'secret' }, tool_response: [{ type: 'text', text: 'Echo: secret' }] })
  })

  it('the tool events of an MCP tool carry mcp_server {name, source} right after tool_use_id (project for .mcp.json, user for Seam settings); other tools do not', async () => {
    host = await startMcpHost({
      mcpJson: everything,
      settings: { mcpServers: { flaky: { command: process.execPath, args: [SCRIPTED_SERVER, 'list-changed'] } } },
      approvalMode: 'never-ask',
      script: [
        { toolCalls: [{ id: 'e', name: 'mcp__everything__echo', args: { message: 'hi' } }, { id: 'f', name: 'mcp__flaky__fails', args: {} }, { id: 'g', name: 'Glob', args: { pattern: '*.json' } }] },
        { text: 'done' }
      ]
    })
    // One file per run: the MCP calls run at once, and so do their hooks.
    const dir = join(host.home, 'hook-inputs')
    await mkdir(dir)
    const record = { type: 'command', command: `cat > "$(mktemp -p ${dir})"` }
    await mkdir(join(host.home, '.claude'), { recursive: true })
    await writeFile(
      join(host.home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: Object.fromEntries(['PreToolUse', 'PostToolUse', 'PostToolUseFailure'].map((event) => [event, [{ hooks: [record] }]])) })
    )
    const { events } = await host.run('use the tools')
    expect(toolResults(events).map((result) => [result.callId, result.isError])).toEqual(expect.arrayContaining([['e', false], ['f', true], ['g', false]]))
    const inputs = await Promise.all((await readdir(dir)).map(async (file) => JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>))
    const of = (event: string, tool: string) => inputs.find((input) => input.hook_event_name === event && input.tool_name === tool)!
    const common = ['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'hook_event_name']
    expect(Object.keys(of('PreToolUse', 'mcp__everything__echo'))).toEqual([...common, 'tool_name', 'tool_input', 'tool_use_id', 'mcp_server'])
    expect(of('PreToolUse', 'mcp__everything__echo').mcp_server).toEqual({ name: 'everything', source: 'project' })
    expect(Object.keys(of('PostToolUse', 'mcp__everything__echo'))).toEqual([...common, 'tool_name', 'tool_input', 'tool_response', 'tool_use_id', 'mcp_server', 'duration_ms'])
    expect(of('PostToolUse', 'mcp__everything__echo').mcp_server).toEqual({ name: 'everything', source: 'project' })
    expect(of('PreToolUse', 'mcp__flaky__fails').mcp_server).toEqual({ name: 'flaky', source: 'user' })
    const failure = of('PostToolUseFailure', 'mcp__flaky__fails')
    expect(Object.keys(failure)).toEqual([...common, 'tool_name', 'tool_input', 'tool_use_id', 'mcp_server', 'error', 'is_interrupt', 'duration_ms'])
    expect(failure).toMatchObject({ mcp_server: { name: 'flaky', source: 'user' }, error: 'it broke', is_interrupt: false })
    expect(Object.keys(of('PreToolUse', 'Glob'))).toEqual([...common, 'tool_name', 'tool_input', 'tool_use_id'])
    expect(Object.keys(of('PostToolUse', 'Glob'))).not.toContain('mcp_server')
  })

  it('permission rules apply: allow mcp__everything__* lets its tools run without asking, a bare deny rule for one of them takes it off the list', async () => {
    host = await startMcpHost({
      mcpJson: everything,
      approve: 'deny',
      patch: `- id: permission-policy\n  config: { mode: ask-side-effects, allow: ['mcp__everything__*'], deny: ['mcp__everything__get-sum'] }\n`,
      script: [{ toolCalls: [{ id: 's', name: 'mcp__everything__get-sum', args: { a: 1, b: 2 } }, { id: 'e', name: 'mcp__everything__echo', args: { message: 'x' } }] }, { text: 'done' }]
    })
    const { events } = await host.run('sum')
    const results = new Map(toolResults(events).map((result) => [result.callId, result]))
    // A bare deny rule takes the tool off the model's list, as in Claude Code; a call anyway is refused.
    expect(results.get('s')).toMatchObject({ isError: true })
    expect(results.get('s')!.content).toContain('No such tool available: mcp__everything__get-sum')
    expect(host.model.requests[0]!.body.tools!.map((tool) => tool.function.name)).not.toContain('mcp__everything__get-sum')
    // The server-wide allow rule: echo ran without asking (the scripted user would have denied).
    expect(results.get('e')).toMatchObject({ isError: false, content: 'Echo: x' })
    expect(events.some((event) => event.type === 'approval/asked')).toBe(false)
  })
})
