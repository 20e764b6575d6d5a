// Issue 17, "Working fast": the command palette (Ctrl/Cmd+K) with every action and session, Esc
// stops the running turn, shortcuts for new session / message box / settings, focus after setup
// and in the path field, sessions search, and new sessions stored only once they have a message.
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

test.describe('first run', () => {
  test.use({ seamSetup: 'first-run' })

  test('focus lands in the path field after "Type a path instead" and in the message box after setup', async ({ app, fakeModel, workspace }) => {
    const setup = app.getByRole('main', { name: 'Set up Seam' })
    await setup.getByRole('button', { name: 'Type a path instead' }).click()
    const path = setup.getByRole('textbox', { name: 'Workspace folder' })
    await expect(path).toBeFocused()
    await path.fill(workspace)
    await setup.getByRole('button', { name: 'Use this folder' }).click()
    // The workspace step turns into its one-line summary once the host has it: the provider form
    // moves up then, and a click landing during that move would press nothing.
    await expect(setup.locator('code.path')).toHaveText(workspace)
    await setup.getByRole('combobox', { name: 'Provider' }).selectOption('openai-compatible')
    await setup.getByRole('textbox', { name: 'Base URL' }).fill(fakeModel.url)
    await setup.getByRole('textbox', { name: 'Model', exact: true }).fill('fake-model')
    await setup.getByRole('button', { name: 'Save' }).click()
    await expect(setup).toHaveCount(0)
    await expect(ui.composer(app)).toBeFocused()
  })
})

test('the command palette runs every kind of action; shortcuts open settings, the message box and a new session', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond(() => ({ text: 'Fine.' }))
  await send(app, 'palette topic')
  await expect(ui.assistantMessages(app).last()).toContainText('Fine.')
  await expectIdle(app)

  const palette = app.getByRole('dialog', { name: 'Command palette' })
  await app.keyboard.press('Control+k')
  await expect(palette).toBeVisible()
  for (const label of ['New session', 'Focus the message box', 'Chat', 'Settings', 'Plugins', 'Open the hook inspector', 'Open session: palette topic']) {
    await expect(palette.getByRole('option', { name: new RegExp(`^${label}(?!:)`) })).toBeVisible()
  }
  // Each settings section is reachable from the palette too (a deep link into Settings).
  for (const section of ['Model & provider', 'Permissions & approvals', 'Plugin tree', 'Advanced']) {
    await expect(palette.getByRole('option', { name: `Settings: ${section}` })).toHaveCount(1)
  }
  await snap(app, testInfo, 'palette')
  await palette.getByRole('combobox', { name: 'Command' }).fill('plugins')
  await app.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  await expect(app.getByRole('main', { name: 'Plugins page' })).toBeVisible()

  await app.keyboard.press('Control+k')
  await palette.getByRole('combobox', { name: 'Command' }).fill('hook inspector')
  await app.keyboard.press('Enter')
  await expect(app.getByRole('complementary', { name: 'Hook inspector' })).toBeVisible()

  await app.keyboard.press('Control+k')
  await palette.getByRole('combobox', { name: 'Command' }).fill('Settings: Permissions')
  await app.keyboard.press('Enter')
  await expect(app.getByRole('tabpanel', { name: 'Permissions & approvals' })).toBeVisible()
  await ui.pageButton(app, 'Chat').click()

  await app.keyboard.press('Control+Comma')
  await expect(app.getByRole('main', { name: 'Settings page' })).toBeVisible()
  // Settings opens at the section shown last.
  await expect(app.getByRole('tab', { name: 'Permissions & approvals' })).toHaveAttribute('aria-selected', 'true')
  await app.keyboard.press('Control+l')
  await expect(ui.composer(app)).toBeFocused()
  await expect(ui.userMessages(app)).toHaveCount(1)

  await ui.pageButton(app, 'Settings').click()
  await app.keyboard.press('Control+Shift+O')
  await expect(ui.composer(app)).toBeFocused()
  await expect(ui.transcript(app)).toContainText('Nothing here yet')
  // Not stored until it has a message.
  await expect(ui.sessionRows(app)).toHaveCount(1)

  await app.keyboard.press('Control+k')
  await palette.getByRole('combobox', { name: 'Command' }).fill('palette topic')
  await app.keyboard.press('Enter')
  await expect(ui.userMessages(app)).toHaveCount(1)
  await expect(ui.userMessages(app).first()).toContainText('palette topic')
})

test('Esc stops the running turn when no dialog is open', async ({ app, fakeModel }) => {
  const PARTIAL = 'A slow answer begins, '
  fakeModel.respond(() => ({ text: PARTIAL + 'and never ends.', chunkSize: 4, chunkDelayMs: 30, hangAfterChars: PARTIAL.length }))
  await send(app, 'a slow one')
  await expect(ui.assistantMessages(app).last()).toContainText(PARTIAL.trim())
  await app.locator('body').click({ position: { x: 5, y: 300 } })
  await app.keyboard.press('Escape')
  await expect(ui.turnEnds(app).last()).toHaveText('Turn cancelled')
  await expectIdle(app)
})

test('sessions search filters by title; the open row is marked apart from hover', async ({ app, fakeModel }) => {
  fakeModel.respond(() => ({ text: 'ok' }))
  for (const prompt of ['alpha project notes', 'beta release plan']) {
    await app.keyboard.press('Control+Shift+O')
    await send(app, prompt)
    await expect(ui.sessionButton(app, prompt)).toBeVisible()
    await expectIdle(app)
  }
  const search = app.getByRole('searchbox', { name: 'Search sessions' })
  await search.fill('release')
  await expect(ui.sessionRows(app)).toHaveCount(1)
  await expect(ui.sessionRows(app).first()).toContainText('beta release plan')
  await search.fill('nothing like this')
  await expect(ui.sessionList(app)).toContainText('No session matches')
  await search.fill('')
  await expect(ui.sessionRows(app)).toHaveCount(2)
})
