// Issue 29, Claude Code channels in the UI: a plugin (a real folder in a local marketplace made here
// as a git repository, installed with the real `seam plugin` CLI before the app starts) ships a
// channel server, a real MCP server process on the official SDK, enabled in Seam's settings
// (`channels`). The model calls the server's `push` tool, which pushes a
// `notifications/claude/channel` message: the transcript shows it as a message from the channel,
// with its meta, and still does after a reload. Checked with axe and the layout check.
import { join } from 'node:path'
import { textOf, trailingToolResults, type OpenAIRequestBody, type ScriptedTurn } from './support/fake-model'
import { expect, test as base } from './support/seam-test'
import { expectScreenOk } from './support/screens'
import { gitRepository, seam } from './support/claude-plugins'
import { saveSettings, send, settingsSection, snap, ui } from './support/ui'
import { channelServerScript } from '../plugins/channels/test-channel-server'

const test = base.extend({
  // The marketplace and the install happen before the host starts, as a user would have done.
  seamHome: async ({ seamHome, tempRoot }, use) => {
    const repo = join(tempRoot, 'team')
    gitRepository(repo, {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'team', owner: { name: 'Test' }, plugins: [{ name: 'chat', source: './plugins/chat' }] }),
      'plugins/chat/.claude-plugin/plugin.json': JSON.stringify({ name: 'chat', version: '1.0.0', channels: [{ server: 'chat' }] }),
      'plugins/chat/.mcp.json': JSON.stringify({ mcpServers: { chat: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } } }),
      'plugins/chat/server.mjs': channelServerScript()
    })
    const env = { ...process.env, HOME: join(tempRoot, 'home'), SEAM_HOME: seamHome }
    const added = await seam(['plugin', 'marketplace', 'add', repo], env)
    expect(added.code, added.output).toBe(0)
    const installed = await seam(['plugin', 'install', 'chat@team'], env)
    expect(installed.code, installed.output).toBe(0)
    await use(seamHome)
  }
})


function respond(body: OpenAIRequestBody): ScriptedTurn {
  const users = body.messages.filter((m) => m.role === 'user').map(textOf)
  if (users.some((text) => text.startsWith('<channel source="chat"'))) return { text: 'On it: looking at the build.' }
  // The push's result came back and no channel message with it (the channel is not enabled): the
  // turn ends here. Pushing again at every step made 28 pushes before the test went on.
  if (trailingToolResults(body).length > 0) return { text: 'Pushed; nothing came back.' }
  return { toolCalls: [{ name: 'mcp__plugin_chat_chat__push', args: { content: 'build failed on main', meta: { chat_id: '42', user: 'ana' } } }] }
}

test.describe('enabled in the settings', () => {
  test.use({ seamSettings: { approvalMode: 'never-ask', channels: ['plugin:chat@team'] } })

  test('a channel message shows in the transcript as a message from its channel, with its meta, and stays after a reload', async ({ app, fakeModel }, testInfo) => {
    fakeModel.respond(respond)
    await ui.composer(app).fill('watch the chat')
    await ui.composer(app).press('Enter')

    const message = app.getByLabel('Channel message from chat')
    await expect(message).toContainText('← chat · chat_id=42 · user=ana')
    await expect(message).toContainText('build failed on main')
    await expect(app.getByText('On it: looking at the build.')).toBeVisible()
    await expectScreenOk(app, testInfo, 'channel-message')
    await snap(app, testInfo, 'channel-message')

    await app.reload()
    await expect(app.getByLabel('Channel message from chat')).toContainText('build failed on main')
  })
})

test.describe('not enabled', () => {
  test.use({ seamSettings: { approvalMode: 'never-ask' } })

  test('a message from a channel not enabled is a notice saying how to enable it; enabled in Settings → Channels, the next one arrives', async ({ app, fakeModel }, testInfo) => {
    fakeModel.respond(respond)
    await send(app, 'watch the chat')
    await expect(app.getByText(/A channel message from "chat" \(MCP server "plugin_chat_chat"\) was ignored: channels are off until you enable them\. Add "plugin:chat@team"/)).toBeVisible()
    await expect(app.getByLabel('Channel message from chat')).toHaveCount(0)

    // A bad entry is refused, naming the field; the right one is saved.
    const section = await settingsSection(app, 'Channels')
    const entries = section.getByRole('textbox', { name: /Enabled channels/ })
    await entries.fill('telegram')
    await section.getByRole('group', { name: /^Save / }).getByRole('button', { name: 'Save', exact: true }).click()
    await expect(section.getByRole('alert')).toContainText('Enabled channels')
    await expect(section.getByRole('alert')).toContainText('a channel is plugin:<name>@<marketplace> or server:<name>')
    await entries.fill('plugin:chat@team')
    await saveSettings(section)
    await expectScreenOk(app, testInfo, 'channels-settings')

    await ui.pageButton(app, 'Chat').click()
    await send(app, 'watch the chat again')
    await expect(app.getByLabel('Channel message from chat')).toContainText('build failed on main')
  })
})
