// Claude Code channels with the built `seam` as a real process (issue 29): a plugin installed from a
// git marketplace ships a channel server (a real MCP server on the official SDK). The model calls
// its `push` tool, which sends a `notifications/claude/channel` message before answering; with
// `seam run --channels plugin:chat@team` the loopback model's next request carries it exactly as
// Claude Code wraps it, after the tool's result, the terminal shows `← chat: ...`, and the model's
// reply goes out through the server's `reply` tool. Without the flag the message is ignored with
// one notice; a bad entry is a usage error.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'
import { anthropicRunFlags, gitMarketplace, put, useClaudePluginCli } from '../../test-support/claude-plugin-cli'
import { channelServerScript } from '../../plugins/channels/test-channel-server'
import { scaledTestMs } from '../process/liveness'

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

const SEAM_BIN = resolve(import.meta.dirname, '../../bin/seam.mjs')

/**
 * `seam run` on a real terminal (`script`), asking on it: `onOutput` sees the whole output so far
 * each time more comes and may type into the terminal.
 */
function seamOnTerminal(args: string[], onOutput: (output: string, type: (text: string) => void) => void): Promise<{ code: number; output: string }> {
  const command = [process.execPath, SEAM_BIN, ...args].map((a) => `'${a}'`).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: cli.workspace, env: { ...process.env, SEAM_HOME: join(cli.home, 'seam'), HOME: cli.home, FAKE_KEY: 'sk-test' } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    onOutput(output, (text) => child.stdin.write(text))
  })
  return new Promise((done) => child.on('exit', (code) => done({ code: code ?? 1, output })))
}

/** Resolves once `check` holds, looking again every 20 ms, or fails after a deadline that follows the machine's speed. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + scaledTestMs(30_000)
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const PUSH = { name: 'mcp__plugin_chat_chat__push', args: { content: 'hello from chat', meta: { chat_id: '7', user: 'ana' } } }

let data: string
beforeAll(async () => {
  data = await installChat()
}, 120_000)

describe('seam run --channels (issue 29)', () => {
  it('an enabled channel: its message reaches the next request wrapped as Claude Code wraps it, the terminal shows it, the reply goes out through its tool; not enabled: one notice and nothing reaches the model; a bad entry is a usage error', async () => {
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

  it('the permission relay on a real terminal: the channel answers the first ask and the question on the terminal is withdrawn; the next ask is answered on the terminal', async () => {
    const server = await startFakeAnthropic([
      { toolCalls: [{ name: 'Write', args: { file_path: 'first.txt', content: 'one' } }] },
      { toolCalls: [{ name: 'Write', args: { file_path: 'second.txt', content: 'two' } }] },
      { text: 'done' }
    ])
    const flags = anthropicRunFlags(cli.workspace, server.url).map((flag) => (flag === 'allow' ? 'ask' : flag))
    let relayed: { request_id: string; tool_name: string } | undefined
    let typed = false
    let run
    try {
      const asked = seamOnTerminal(['run', '--channels', 'plugin:chat@team', ...flags, 'write two files'], (output, type) => {
        // The second question (the first was withdrawn) is answered here.
        if (!typed && output.split('[y] allow once').length - 1 >= 2 && output.includes('answered elsewhere')) {
          typed = true
          type('y\r')
        }
      })
      // The first ask reaches the channel; its verdict (dropped in the server's outbox) allows it.
      const prompts = join(data, 'prompts.jsonl')
      // The whole line: the file exists from the moment the server opens it to append.
      await until(() => existsSync(prompts) && readFileSync(prompts, 'utf8').endsWith('\n'), 'the permission prompt relayed to the channel')
      relayed = (JSON.parse((await readFile(prompts, 'utf8')).trim().split('\n')[0]) as { params: { request_id: string; tool_name: string } }).params
      await writeFile(join(data, 'outbox', 'verdict.json.tmp'), JSON.stringify({ method: 'notifications/claude/channel/permission', params: { request_id: relayed.request_id, behavior: 'allow' } }))
      await rename(join(data, 'outbox', 'verdict.json.tmp'), join(data, 'outbox', 'verdict.json'))
      run = await asked
    } finally {
      await server.close()
    }
    expect(relayed?.tool_name).toBe('Write')
    expect(run.code, run.output).toBe(0)
    expect(typed).toBe(true)
    expect(await readFile(join(cli.workspace, 'first.txt'), 'utf8')).toBe('one')
    expect(await readFile(join(cli.workspace, 'second.txt'), 'utf8')).toBe('two')
    // Both asks were relayed: the second one too, answered on the terminal instead.
    expect((await readFile(join(data, 'prompts.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2)
  })
})
