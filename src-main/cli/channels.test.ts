// Claude Code channels with the built `seam` as a real process (issue 29): a plugin installed from a
// git marketplace ships a channel server (a real MCP server on the official SDK). The model calls
// its `push` tool, which sends a `notifications/claude/channel` message before answering; with
// `seam run --channels plugin:chat@team` the loopback model's next request carries it exactly as
// Claude Code wraps it, after the tool's result, the terminal shows `← chat: ...`, and the model's
// reply goes out through the server's `reply` tool. Without the flag the message is ignored with
// one notice; a bad entry is a usage error.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { gitMarketplace, put, useClaudePluginCli } from '../../test-support/claude-plugin-cli'
import { channelServerScript } from '../../plugins/channels/test-channel-server'

const cli = useClaudePluginCli('channels')
const TAG = '<channel source="chat" chat_id="7" user="ana">\nhello from chat\n</channel>'

async function installChat(): Promise<string> {
  const market = join(cli.home, 'market-src')
  const plugin = join(market, 'plugins', 'chat')
  await gitMarketplace(market, 'team', [{ name: 'chat', source: './plugins/chat' }], async () => {
    await put(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'chat', version: '1.0.0', channels: [{ server: 'chat' }] }))
    await put(join(plugin, '.mcp.json'), JSON.stringify({ mcpServers: { chat: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } } }))
    await put(join(plugin, 'server.mjs'), channelServerScript())
  }, 'chat')
  expect((await cli.seam('plugin', 'marketplace', 'add', market)).code).toBe(0)
  expect((await cli.seam('plugin', 'install', 'chat@team')).code).toBe(0)
  return join(cli.home, 'seam', 'claude-plugins', 'data', 'chat-team')
}

const PUSH = { name: 'mcp__plugin_chat_chat__push', args: { content: 'hello from chat', meta: { chat_id: '7', user: 'ana' } } }

describe('seam run --channels (issue 29)', () => {
  it('an enabled channel: its message reaches the next request wrapped as Claude Code wraps it, the terminal shows it, the reply goes out through its tool; not enabled: one notice and nothing reaches the model; a bad entry is a usage error', async () => {
    const data = await installChat()

    const server = await startFakeAnthropic([{ toolCalls: [PUSH] }, { toolCalls: [{ name: 'mcp__plugin_chat_chat__reply', args: { chat_id: '7', text: 'hi ana' } }] }, { text: 'done' }])
    let run
    try {
      run = await cli.seam('run', '--channels', 'plugin:chat@team', ...cli.flags(server.url), 'check the chat')
    } finally {
      await server.close()
    }
    expect(run.stderr).not.toMatch(/did not start|failed/)
    expect(run.code).toBe(0)
    expect(server.requests).toHaveLength(3)
    const second = JSON.stringify(server.requests[1].body)
    expect(second).toContain(JSON.stringify(TAG))
    // After the push call's result, in the same request.
    expect(second.indexOf(JSON.stringify(TAG))).toBeGreaterThan(second.indexOf('pushed'))
    expect(JSON.stringify(server.requests[0].body)).not.toContain(JSON.stringify(TAG))
    expect(run.stderr).toContain('← chat: hello from chat\n')
    expect(await readFile(join(data, 'replies.jsonl'), 'utf8')).toBe('{"chat_id":"7","text":"hi ana"}\n')

    // Not enabled: the push still runs, its message is ignored with one notice, and no request carries it.
    const off = await startFakeAnthropic([{ toolCalls: [PUSH] }, { toolCalls: [PUSH] }, { text: 'done' }])
    let quiet
    try {
      quiet = await cli.seam('run', ...cli.flags(off.url), 'check the chat')
    } finally {
      await off.close()
    }
    expect(quiet.code).toBe(0)
    expect(off.requests).toHaveLength(3)
    // No message, and no channel instructions either: the channel is not enabled.
    for (const request of off.requests) expect(JSON.stringify(request.body)).not.toContain('<channel')
    expect(quiet.stderr.match(/A channel message from "chat"/g)).toHaveLength(1)
    expect(quiet.stderr).toContain('Add "plugin:chat@team" in Settings → Channels (Seam\'s settings.json "channels"), or run seam run --channels plugin:chat@team.')

    const typo = await cli.seam('run', '--channels=chat', '--workspace', cli.workspace, 'hi')
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('--channels: "chat" is not a channel: write plugin:<name>@<marketplace> or server:<name>')
  })
})
