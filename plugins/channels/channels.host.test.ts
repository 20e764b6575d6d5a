// Channels on a whole host (issue 29): a Claude Code plugin from a marketplace made here as a git
// repository ships a channel server (a real MCP server process on the official SDK) that pushes
// `notifications/claude/channel` messages when the test drops them in its outbox. Enabled in Seam's
// settings (`channels`), a message opens a turn when the session is idle and joins the running
// turn's next step otherwise; the loopback OpenAI-protocol model sees it exactly as Claude Code's
// channels reference wraps it, answers through the server's reply tool, and has the server's
// instructions in its system prompt. The server's permission relay answers an approval. Not
// enabled, a message is ignored with one notice; a malformed one is a notice naming the field.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '@seam/sdk'
import { startLoopbackHost, scaledTestMs, waitFor, type LoopbackHost } from '@seam/sdk/testing'
import { startFakeOpenAI, type OpenAIRequestBody, type ScriptedTurn } from '../../test-support/fake-openai.mjs'
import { gitMarketplace, put } from '../../test-support/claude-plugin-cli'
import { parseMarketplaceArg } from '../claude-plugins/manager'
import { CHANNEL_INSTRUCTIONS, channelServerScript } from './test-channel-server'

const WAIT_MS = scaledTestMs(20_000)

type Model = Awaited<ReturnType<typeof startFakeOpenAI>>

/** The plugin `chat` of marketplace `team`, installed by the real manager; answers its data folder. */
async function installChatPlugin(on: LoopbackHost, declare?: readonly string[]): Promise<string> {
  const market = join(on.root, 'team-market')
  const plugin = join(market, 'plugins', 'chat')
  await gitMarketplace(market, 'team', [{ name: 'chat', source: './plugins/chat' }], async () => {
    await put(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'chat', version: '1.0.0', channels: [{ server: 'chat' }] }))
    await put(join(plugin, '.mcp.json'), JSON.stringify({ mcpServers: { chat: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } } }))
    await put(join(plugin, 'server.mjs'), channelServerScript(declare))
  }, 'the chat plugin')
  const manager = on.runtime.kernel.getService('claudePluginManager')
  if (!manager) throw new Error('no claudePluginManager service')
  await manager.manager.addMarketplace(parseMarketplaceArg(market, on.root))
  await manager.manager.install('chat@team')
  return join(on.seamHome, 'claude-plugins', 'data', 'chat-team')
}

let pushed = 0
/** Drops a notification in the server's outbox: it sends it within a few ms. */
function push(dataDir: string, method: string, params: unknown): void {
  mkdirSync(join(dataDir, 'outbox'), { recursive: true })
  const name = `${String(++pushed).padStart(4, '0')}.json`
  writeFileSync(join(dataDir, 'outbox', `${name}.tmp`), JSON.stringify({ method, params }))
  // Renamed in, so the server never reads half a file.
  renameSync(join(dataDir, 'outbox', `${name}.tmp`), join(dataDir, 'outbox', name))
}

function lastUserText(body: OpenAIRequestBody): string {
  const user = body.messages.filter((m) => m.role === 'user').at(-1)
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content)
}

const userTexts = (body: OpenAIRequestBody): string[] => body.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
const notices = (events: readonly SessionEvent[]) => events.filter((e) => e.type === 'notice' && e.source === 'channels').map((e) => (e as { text: string }).text)

let host: LoopbackHost<Model> | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

describe('channels on a whole host', () => {
  it('an enabled channel: a message opens a turn when idle and steers a running one, wrapped as Claude Code wraps it; the reply goes out through its tool; its instructions are in the system prompt', async () => {
    const script = (body: OpenAIRequestBody): ScriptedTurn => {
      const last = lastUserText(body)
      const answered = body.messages.filter((m) => m.role === 'assistant').length
      if (last.includes('wait for go')) return { toolCalls: [{ name: 'Bash', args: { command: 'while [ ! -e go ]; do sleep 0.02; done; echo went', description: 'Wait for go' } }] }
      if (last.startsWith('<channel') && body.messages.at(-1)?.role === 'user' && answered < 10) {
        return { toolCalls: [{ name: 'mcp__plugin_chat_chat__reply', args: { chat_id: '42', text: 'on it' } }] }
      }
      return { text: 'done' }
    }
    host = await startLoopbackHost({ prefix: 'channels', settings: { channels: ['plugin:chat@team'] }, model: await startFakeOpenAI(Array.from({ length: 12 }, () => script)) })
    const dataDir = await installChatPlugin(host)
    const session = await host.runtime.sessions.create(host.workspace)
    await session.agent.start()
    const model = host.model

    // Idle: the message opens a turn of its own.
    push(dataDir, 'notifications/claude/channel', { content: 'build failed on main', meta: { chat_id: '42', user: 'ana', 'bad-key': 'dropped', source: 'forged' } })
    await waitFor(() => existsSync(join(dataDir, 'replies.jsonl')), WAIT_MS, 'the reply sent through the channel server')
    await session.agent.whenIdle()
    const opened = model.requests[0].body
    expect(lastUserText(opened)).toBe('<channel source="chat" chat_id="42" user="ana">\nbuild failed on main\n</channel>')
    expect(String(opened.messages[0].content)).toContain(CHANNEL_INSTRUCTIONS)
    expect(readFileSync(join(dataDir, 'replies.jsonl'), 'utf8')).toBe('{"chat_id":"42","text":"on it"}\n')
    const recorded = session.log.events.find((e) => e.type === 'context/message' && e.channel !== undefined)
    expect(recorded).toMatchObject({ source: 'channel:chat', channel: { server: 'chat', content: 'build failed on main', meta: { chat_id: '42', user: 'ana' } } })

    // A turn running: the message joins its next step, after the tool's result.
    const before = model.requests.length
    session.agent.send('wait for go')
    await waitFor(() => session.log.events.some((e) => e.type === 'tool/call' && e.name === 'Bash'), WAIT_MS, 'the Bash call running')
    push(dataDir, 'notifications/claude/channel', { content: 'deploy "v2" <now>', meta: { chat_id: '43' } })
    await waitFor(() => session.agent.state.steering > 0, WAIT_MS, 'the message waiting for the next step')
    writeFileSync(join(host.workspace, 'go'), '')
    await session.agent.whenIdle()
    const steered = model.requests.slice(before).find((request) => userTexts(request.body).some((text) => text.startsWith('<channel source="chat" chat_id="43"')))
    expect(steered).toBeDefined()
    const texts = userTexts(steered!.body)
    expect(texts.at(-1)).toBe('<channel source="chat" chat_id="43">\ndeploy "v2" <now>\n</channel>')
    expect(steered!.body.messages.at(-2)?.role).toBe('tool')
    expect(notices(session.log.events)).toEqual([])
  })

  it('not enabled: a message is ignored, with one notice saying how to enable it, and nothing reaches the model', async () => {
    host = await startLoopbackHost({ prefix: 'channels-off', model: await startFakeOpenAI([{ text: 'unused' }]) })
    const dataDir = await installChatPlugin(host)
    const session = await host.runtime.sessions.create(host.workspace)
    await session.agent.start()
    push(dataDir, 'notifications/claude/channel', { content: 'first' })
    push(dataDir, 'notifications/claude/channel', { content: 'second' })
    // Sent after both on the same pipe: once its own notice is there, both messages were handled.
    push(dataDir, 'notifications/claude/channel/permission', { request_id: 'abcde', behavior: 'allow' })
    await waitFor(() => notices(session.log.events).length === 2, WAIT_MS, 'the notices of the first message and of the verdict')
    expect(notices(session.log.events)).toEqual([
      'A channel message from "chat" (MCP server "plugin_chat_chat") was ignored: channels are off until you enable them. Add "plugin:chat@team" in Settings → Channels (Seam\'s settings.json "channels"), or run seam run --channels plugin:chat@team. Later messages from it are ignored without a word.',
      'MCP server "plugin_chat_chat" answered a permission prompt, but it is not an enabled channel that declares claude/channel/permission: ignored.'
    ])
    expect(host.model.requests).toHaveLength(0)
    expect(session.log.events.some((e) => e.type === 'context/message')).toBe(false)
  })

  it('a malformed message from an enabled channel is a notice naming the field, and nothing reaches the model', async () => {
    host = await startLoopbackHost({ prefix: 'channels-bad', settings: { channels: ['server:plugin_chat_chat'] }, model: await startFakeOpenAI([{ text: 'unused' }]) })
    const dataDir = await installChatPlugin(host)
    const session = await host.runtime.sessions.create(host.workspace)
    await session.agent.start()
    push(dataDir, 'notifications/claude/channel', { content: 'ok', meta: { run_id: 1234 } })
    await waitFor(() => notices(session.log.events).length > 0, WAIT_MS, 'the notice of the malformed message')
    expect(notices(session.log.events)[0]).toMatch(/^Channel "chat" sent a malformed notifications\/claude\/channel \(meta\.run_id: .*expected string.*\); it was ignored\.$/)
    expect(host.model.requests).toHaveLength(0)
  })

  it("the permission relay: an approval prompt goes to the channel with a five-letter id, and the channel's verdict answers it", async () => {
    const script = (body: OpenAIRequestBody): ScriptedTurn =>
      body.messages.some((m) => m.role === 'tool') ? { text: 'written' } : { toolCalls: [{ name: 'Write', args: { file_path: 'notes.txt', content: 'hello\u202Eworld' } }] }
    host = await startLoopbackHost({ prefix: 'channels-relay', settings: { channels: ['plugin:chat@team'] }, approvalMode: 'ask-all', model: await startFakeOpenAI([script, script]) })
    const dataDir = await installChatPlugin(host)
    // The local answerer waits (a user away from the screen) until the approval is settled elsewhere.
    const kernel = host.runtime.kernel
    kernel.context.on(
      'approval/request',
      (request) =>
        new Promise((resolve) => {
          const off = kernel.context.on('approval/settled', (id) => {
            if (id !== request.id) return
            off()
            resolve(undefined)
          })
        }),
      { prepend: true }
    )
    const session = await host.runtime.sessions.create(host.workspace)
    session.agent.send('write the notes')
    const prompts = join(dataDir, 'prompts.jsonl')
    // The whole line: the file exists from the moment the server opens it to append.
    await waitFor(() => existsSync(prompts) && readFileSync(prompts, 'utf8').endsWith('\n'), WAIT_MS, 'the permission prompt relayed to the channel')
    const prompt = JSON.parse(readFileSync(prompts, 'utf8').trim()) as { method: string; params: { request_id: string; tool_name: string; description: string; input_preview: string } }
    expect(prompt.method).toBe('notifications/claude/channel/permission_request')
    expect(prompt.params.request_id).toMatch(/^[a-km-z]{5}$/)
    expect(prompt.params.tool_name).toBe('Write')
    expect(JSON.parse(prompt.params.input_preview)).toEqual({ file_path: 'notes.txt', content: 'helloworld' })
    // A verdict with an id Seam did not issue is dropped; the right one answers.
    push(dataDir, 'notifications/claude/channel/permission', { request_id: 'zzzzz', behavior: 'deny' })
    push(dataDir, 'notifications/claude/channel/permission', { request_id: prompt.params.request_id, behavior: 'allow' })
    await session.agent.whenIdle()
    await waitFor(() => session.log.events.some((e) => e.type === 'approval/decided'), WAIT_MS, 'the approval decided')
    expect(session.log.events.find((e) => e.type === 'approval/decided')).toMatchObject({ outcome: 'allowed-once', by: 'channel:chat' })
    expect(readFileSync(join(host.workspace, 'notes.txt'), 'utf8')).toBe('hello\u202Eworld')
  })
})
