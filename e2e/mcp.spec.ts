// MCP through the UI: a user-level server (server-everything from npm, over stdio) declared in
// Seam's settings shows on the settings page with its transport, command and tools once a
// session started it; the model calls one of its tools, which asks for approval like any tool
// with side effects, and the card shows the result.
import { createRequire } from 'node:module'
import { trailingToolResults, textOf, type Responder } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, settingsSection, snap, ui } from './support/ui'

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')

/** The model calls the MCP echo tool, then answers with its result. */
const echoThenAnswer: Responder = (body) => {
  const results = trailingToolResults(body)
  if (results.length > 0) return { text: `The server said: ${results.map(textOf).join(' | ')}` }
  return { toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hello over MCP' } }] }
}

test.describe('MCP servers', () => {
  test.use({ seamSettings: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } } })

  test('an MCP tool call asks for approval and shows its result; the settings page shows the server, its tools and state', async ({ app, fakeModel }, testInfo) => {
    fakeModel.respond(echoThenAnswer)
    await send(app, 'echo something over MCP')

    const dialog = ui.approvalDialog(app)
    await expect(dialog).toBeVisible({ timeout: 20_000 })
    await expect(dialog.locator('.tool-name')).toHaveText('mcp__everything__echo')
    await expect(dialog.locator('pre')).toContainText('"message": "hello over MCP"')
    await snap(app, testInfo, 'mcp-approval-dialog')
    await dialog.getByRole('button', { name: 'Allow once' }).click()
    await expect(dialog).toHaveCount(0)

    const card = ui.toolCards(app, 'mcp__everything__echo')
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(ui.assistantMessages(app).last()).toContainText('The server said: Echo: hello over MCP')
    await expectIdle(app)
    await snap(app, testInfo, 'mcp-tool-card')

    await settingsSection(app, 'MCP servers')
    const server = app.getByRole('listitem', { name: 'MCP server everything' })
    await expect(server.getByTestId('mcp-state')).toHaveText('connected')
    await expect(server).toContainText('stdio')
    await expect(server.locator('.mcp-target')).toHaveText(`${process.execPath} ${EVERYTHING} stdio`)
    await server.getByText(/^\d+ tools$/).click()
    await expect(server.getByRole('list', { name: 'Tools of everything' })).toContainText('mcp__everything__get-sum')
    await server.scrollIntoViewIfNeeded()
    await snap(app, testInfo, 'mcp-settings')

    await server.getByRole('button', { name: 'Disable everything' }).click()
    await expect(server.getByTestId('mcp-state')).toHaveText('disabled')
    await server.getByRole('button', { name: 'Enable everything' }).click()
    await expect(server.getByTestId('mcp-state')).toHaveText(/stopped|starting|connected/)
  })
})
