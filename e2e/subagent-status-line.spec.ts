// Issue 29, a Claude Code plugin's settings.json `subagentStatusLine` in the UI: the plugin (a real
// folder in a local marketplace made here as a git repository, installed with the real `seam
// plugin` CLI before the app starts) sets a command that draws one row per subagent. The model
// starts two subagents that keep going, one in the foreground and one in the background: the
// command's row (its colour as the theme's) replaces each card's default rows and shows under the
// background agent's task; a reload reads the rows again; turning the plugin off in the plugin
// manager brings the default rows back. Checked with axe and the layout check. The command's
// `columns` is the width in character cells of the card's row as the window lays it out, told
// again when the window is resized.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { textOf, trailingToolResults, type OpenAIRequestBody, type ScriptedTurn } from './support/fake-model'
import { expect, test as base } from './support/seam-test'
import { expectScreenOk } from './support/screens'
import { gitRepository, seam } from './support/claude-plugins'
import { snap, ui } from './support/ui'

const ID = 'rows@team-tools'

/** The built-in general-purpose agent's system prompt starts so (plugins/subagents/builtins.ts). */
const CHILD_MARKER = 'You are an agent working for a coding assistant'

/** The plugin's command: one row per task, the status in green, as public status lines draw them. */
const ROWS_SCRIPT = `import { appendFileSync, readFileSync } from 'node:fs'
const input = JSON.parse(readFileSync(0, 'utf8'))
appendFileSync(process.env.CLAUDE_PLUGIN_DATA + '/columns.log', input.columns + '\\n')
for (const task of input.tasks) {
  const content = '\\u001b[32m● ' + task.status + '\\u001b[0m ' + task.name + ' · ' + task.description + ' (rows plugin)'
  process.stdout.write(JSON.stringify({ id: task.id, content }) + '\\n')
}
`

const test = base.extend({
  // The marketplace and the install happen before the host starts, as a user would have done.
  seamHome: async ({ seamHome, tempRoot }, use) => {
    const repo = join(tempRoot, 'team-tools')
    gitRepository(repo, {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'team-tools', owner: { name: 'Test' }, plugins: [{ name: 'rows', source: './plugins/rows' }] }),
      'plugins/rows/.claude-plugin/plugin.json': JSON.stringify({ name: 'rows', version: '1.0.0' }),
      'plugins/rows/rows.mjs': ROWS_SCRIPT,
      'plugins/rows/settings.json': JSON.stringify({ subagentStatusLine: { type: 'command', command: `"${process.execPath}" "\${CLAUDE_PLUGIN_ROOT}/rows.mjs"` } })
    })
    const env = { ...process.env, HOME: join(tempRoot, 'home'), SEAM_HOME: seamHome }
    const added = await seam(['plugin', 'marketplace', 'add', repo], env)
    expect(added.code, added.output).toBe(0)
    const installed = await seam(['plugin', 'install', ID], env)
    expect(installed.code, installed.output).toBe(0)
    await use(seamHome)
  }
})

function respond(body: OpenAIRequestBody): ScriptedTurn {
  // Both subagents keep going until they are stopped.
  if (textOf(body.messages[0]).includes(CHILD_MARKER)) return { text: 'Looking at everything, slowly', hangAfterChars: 10 }
  // The tool results, or a turn the stopped background agent's <task-notification> opened by
  // itself (under load it can come after the step that took the results): never a second pair.
  if (trailingToolResults(body).length > 0 || textOf(body.messages.at(-1)).includes('<task-notification>')) return { text: 'Both are done.' }
  return {
    toolCalls: [
      { name: 'Agent', args: { description: 'Watch in the background', prompt: 'Watch for ever', subagent_type: 'general-purpose', run_in_background: true } },
      { name: 'Agent', args: { description: 'Look in front', prompt: 'Look for ever', subagent_type: 'general-purpose' } }
    ]
  }
}

test("a plugin's subagentStatusLine row replaces the subagent's default rows on its card and its task; turning the plugin off brings them back", async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond(respond)
  await ui.composer(app).fill('start two subagents')
  await ui.composer(app).press('Enter')

  const front = app.getByRole('article', { name: 'Subagent general-purpose: Look in front' })
  const back = app.getByRole('article', { name: 'Subagent general-purpose: Watch in the background' })
  const task = app.getByRole('region', { name: 'Background tasks' }).getByRole('listitem').filter({ hasText: 'Agent general-purpose: Watch in the background' })
  await expect(front).toHaveAttribute('data-status', 'running')
  const frontRow = front.getByLabel('Subagent status line')
  await expect(frontRow).toHaveText('● running general-purpose · Look in front (rows plugin)')
  await expect(frontRow.getByText('● running')).toHaveClass('ansi-success')
  await expect(front.getByLabel('Subagent usage')).toBeHidden()
  await expect(back.getByLabel('Subagent status line')).toHaveText('● running general-purpose · Watch in the background (rows plugin)')
  await expect(task.getByLabel('Subagent status line')).toHaveText('● running general-purpose · Watch in the background (rows plugin)')
  await expectScreenOk(app, testInfo, 'subagent-status-line')
  await snap(app, testInfo, 'subagent-status-line')

  // A reload: the rows are read again (the pushes before it are gone).
  await app.reload()
  await expect(front.getByLabel('Subagent status line')).toHaveText('● running general-purpose · Look in front (rows plugin)')

  // The plugin off, in the plugin manager: the default rows again.
  await ui.pageButton(app, 'Plugins').click()
  const row = app.getByRole('table', { name: 'Claude Code and Codex plugins' }).getByRole('row', { name: ID, exact: true })
  await row.getByRole('switch', { name: `${ID} enabled` }).click()
  const off = app.getByRole('dialog', { name: `Turn off ${ID}?` })
  await expect(off).toContainText('subagent status line:')
  await off.getByRole('button', { name: `Turn off ${ID}` }).click()
  await ui.pageButton(app, 'Chat').click()
  await expect(front.getByLabel('Subagent usage')).toBeVisible()
  await expect(front.getByLabel('Subagent status line')).toHaveCount(0)
  await expect(back.getByLabel('Subagent status line')).toHaveCount(0)
  await expect(task.getByLabel('Subagent status line')).toHaveCount(0)

  // Both stopped; the turn ends.
  await front.getByRole('button', { name: 'Stop subagent general-purpose' }).click()
  await back.getByRole('button', { name: 'Stop subagent general-purpose' }).click()
  await expect(front).toHaveAttribute('data-status', 'stopped')
  await expect(back).toHaveAttribute('data-status', 'stopped')
  await expect(ui.assistantMessages(app).last()).toContainText('Both are done.')
})

/** Whole cells of the row's own font in the row's width, measured with a canvas (not the app's probe). */
function cellsOfRow(row: import('@playwright/test').Locator): Promise<number> {
  return row.evaluate((el) => {
    const style = getComputedStyle(el)
    const context = document.createElement('canvas').getContext('2d')
    if (context === null) throw new Error('no 2d canvas')
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
    return Math.floor(el.clientWidth / context.measureText('0'.repeat(20)).width * 20)
  })
}

test("the command's columns is the width of the card's row in cells, and follows a resize", async ({ app, fakeModel, seamHome }) => {
  fakeModel.respond(respond)
  const columnsLog = join(seamHome, 'claude-plugins', 'data', 'rows-team-tools', 'columns.log')
  const lastColumns = () => Number(readFileSync(columnsLog, 'utf8').trim().split('\n').at(-1))
  await app.setViewportSize({ width: 1280, height: 900 })
  await ui.composer(app).fill('start two subagents')
  await ui.composer(app).press('Enter')
  const front = app.getByRole('article', { name: 'Subagent general-purpose: Look in front' })
  const row = front.getByLabel('Subagent status line')
  await expect(row).toBeVisible()
  const wide = await cellsOfRow(row)
  expect(wide).toBeGreaterThan(20)
  await expect.poll(() => Math.abs(lastColumns() - wide), { message: 'the command got the row width' }).toBeLessThanOrEqual(1)

  // Narrower: the card is measured again and the command runs with the new width.
  await app.setViewportSize({ width: 760, height: 900 })
  await expect.poll(() => cellsOfRow(row)).toBeLessThan(wide)
  const narrow = await cellsOfRow(row)
  await expect.poll(() => Math.abs(lastColumns() - narrow), { message: 'the command got the narrower width' }).toBeLessThanOrEqual(1)

  await front.getByRole('button', { name: 'Stop subagent general-purpose' }).click()
  await app.getByRole('article', { name: 'Subagent general-purpose: Watch in the background' }).getByRole('button', { name: 'Stop subagent general-purpose' }).click()
  await expect(ui.assistantMessages(app).last()).toContainText('Both are done.')
})
