// Issue 29, Claude Code plugin themes in Seam's UI: a marketplace made here as a git repository on
// disk ships a plugin whose `themes/` holds a theme in Claude Code's format (and one broken file);
// the real `seam plugin install` installs it before the app starts. Settings → Theme lists Seam's
// System/Light/Dark and the plugin's theme with its source and the broken file's reason; choosing
// the theme repaints real elements at once (page, text, the user's message, links, the message box's border, the
// approval dialog's permission stripe, a diff's line background and its changed word), axe finds no
// serious or critical violation in chat or settings, a reload keeps it, and turning the plugin off
// in the plugin manager falls back to Seam's dark colours with a notice.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { lastUserText, trailingToolResults } from './support/fake-model'
import { scaledTimeout } from './fixtures'
import { axeViolations, seriousOrCritical } from './support/axe'
import { gitRepository, openPlugins, seam } from './support/claude-plugins'
import { expect, test as base } from './support/seam-test'
import { expectIdle, send, settingsSection, ui } from './support/ui'

const HARBOUR = {
  $schema: 'https://example.invalid/theme.schema.json',
  name: 'Harbour',
  base: 'dark',
  overrides: {
    text: 'rgb(216,222,233)',
    background: 'rgb(46,52,64)',
    inverseText: 'rgb(46,52,64)',
    subtle: 'rgb(127,132,156)',
    inactive: 'rgb(76,86,106)',
    claude: '#88c0d0',
    success: 'rgb(163,190,140)',
    warning: '#ebcb8b',
    error: 'ansi:redBright',
    userMessageBackground: 'rgb(59,66,82)',
    selectionBg: 'rgb(67,76,94)',
    permission: '#81a1c1',
    planMode: '#b48ead',
    promptBorder: 'rgb(129,161,193)',
    diffAdded: 'rgb(57,69,69)',
    diffRemoved: 'rgb(73,52,70)',
    rainbow_red: 'rgb(191,97,106)'
  }
}

const test = base.extend({
  seamHome: async ({ seamHome, tempRoot }, use) => {
    const env = { ...process.env, HOME: join(tempRoot, 'home'), SEAM_HOME: seamHome }
    gitRepository(join(tempRoot, 'palettes'), {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'palettes', owner: { name: 'Test' }, plugins: [{ name: 'harbour', source: './plugins/harbour' }] }),
      'plugins/harbour/.claude-plugin/plugin.json': JSON.stringify({ name: 'harbour', version: '0.2.0' }),
      'plugins/harbour/themes/harbour.json': JSON.stringify(HARBOUR, null, 2),
      'plugins/harbour/themes/broken.json': JSON.stringify({ name: 'Sepia', base: 'sepia' })
    })
    const added = await seam(['plugin', 'marketplace', 'add', join(tempRoot, 'palettes')], env)
    expect(added.code, added.output).toBe(0)
    const installed = await seam(['plugin', 'install', 'harbour@palettes'], env)
    expect(installed.code, installed.output).toBe(0)
    await use(seamHome)
  }
})

/** The computed colours of the page, its text and the user's first message. */
async function colours(app: Page): Promise<{ page: string; text: string; userMessage: string; scheme: string | undefined }> {
  const body = await app.evaluate(() => {
    const style = getComputedStyle(document.body)
    return { page: style.backgroundColor, text: style.color, scheme: document.documentElement.dataset.scheme }
  })
  const userMessage = await ui.userMessages(app).first().evaluate((element) => getComputedStyle(element.closest('.msg') ?? element).backgroundColor)
  return { ...body, userMessage }
}

async function expectAccessible(app: Page, where: string): Promise<void> {
  expect(seriousOrCritical(await axeViolations(app)), `axe on ${where}`).toEqual([])
}

test('a plugin theme chosen in Settings repaints the UI at once, stays after a reload, is axe-clean, and falls back with a notice when its plugin is turned off', async ({ app, fakeModel, workspace }) => {
  test.setTimeout(scaledTimeout(120_000))
  const config = join(workspace, 'config.txt')
  await writeFile(config, 'host = local\nport = 8080\n')
  fakeModel.respond((body) => {
    if (lastUserText(body) !== 'change the port') return { text: 'Done: [the docs](https://example.com/docs) say so.' }
    if (trailingToolResults(body).length > 0) return { text: 'Changed.' }
    return { toolCalls: [{ name: 'Edit', args: { file_path: config, old_string: 'port = 8080', new_string: 'port = 9090' } }] }
  })
  await send(app, 'hello theme')
  await expect(ui.assistantMessages(app).last()).toContainText('Done')
  await expectIdle(app)
  const seamLight = await colours(app)
  expect(seamLight).toMatchObject({ page: 'rgb(247, 247, 245)', scheme: 'light' })

  const section = await settingsSection(app, 'Theme')
  const group = section.getByRole('group', { name: 'Theme' })
  await expect(group.getByRole('radio')).toHaveCount(4)
  await expect(group.getByRole('radio', { name: 'System (follows the operating system)' })).toBeChecked()
  const harbour = group.getByRole('radio', { name: 'Harbour (harbour@palettes)' })
  await expect(group.locator('label').filter({ has: app.getByRole('radio', { name: 'Harbour (harbour@palettes)' }) })).toContainText('Harbour (harbour@palettes) — dark base')
  // The broken file is skipped with its reason; the plugin and its other theme load.
  await expect(section).toContainText(/broken\.json: base: .*; skipped/)

  await harbour.check()
  // Applied live, without a reload: the page and its text take the theme's colours.
  await expect.poll(() => app.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(46, 52, 64)')
  expect(await app.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(216, 222, 233)')
  // Its muted grey is under 4.5:1 on its own surfaces: moved, and said.
  await section.getByText(/colours? of Harbour moved for readable text/).click()
  await expect(section).toContainText(/--muted \(subtle #7f849c\) → #[0-9a-f]{6}: \d\.\d\d:1 on --\S+ is under 4\.5:1/)
  await expectAccessible(app, 'settings with the Harbour theme')

  await ui.pageButton(app, 'Chat').click()
  const themed = await colours(app)
  expect(themed).toEqual({ page: 'rgb(46, 52, 64)', text: 'rgb(216, 222, 233)', userMessage: 'rgb(59, 66, 82)', scheme: 'dark' })
  const link = ui.assistantMessages(app).last().getByRole('link', { name: 'the docs' })
  expect(await link.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(136, 192, 208)')
  expect(await ui.composer(app).evaluate((element) => getComputedStyle(element).borderTopColor)).toBe('rgb(129, 161, 193)')
  await expectAccessible(app, 'chat with the Harbour theme')

  // The approval dialog: the theme's permission colour marks it; its diff has the theme's backgrounds and the changed word marked.
  await send(app, 'change the port')
  const dialog = ui.approvalDialog(app)
  await expect(dialog).toBeVisible()
  expect(await dialog.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe('rgb(129, 161, 193)')
  const added = dialog.locator('.diff-line.add')
  await expect(added.locator('.diff-word')).toHaveText('9090')
  const [lineBg, themeBg] = await added.evaluate((element) => [getComputedStyle(element).backgroundColor, document.documentElement.style.getPropertyValue('--diff-add-bg')])
  expect(themeBg).toMatch(/^#[0-9a-f]{6}$/)
  expect(lineBg).toBe(`rgb(${[1, 3, 5].map((i) => parseInt(themeBg.slice(i, i + 2), 16)).join(', ')})`)
  await expectAccessible(app, 'the approval dialog with the Harbour theme')
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(ui.assistantMessages(app).last()).toContainText('Changed.')
  await expectIdle(app)

  // A reload (a restart of the window) keeps it.
  await app.reload()
  await expect(ui.userMessages(app).first()).toBeVisible()
  expect(await colours(app)).toEqual(themed)
  await expect((await settingsSection(app, 'Theme')).getByRole('radio', { name: 'Harbour (harbour@palettes)' })).toBeChecked()

  // The plugin turned off: Seam's dark colours (the theme's base), with a notice.
  await openPlugins(app)
  const row = app.getByRole('main', { name: 'Plugins page' }).getByRole('table', { name: 'Claude Code and Codex plugins' }).getByRole('row', { name: 'harbour@palettes', exact: true })
  await row.getByLabel(/^Components of harbour@palettes/).click()
  await expect(row).toContainText('Harbour (harbour.json)')
  await expect(row).not.toContainText('not supported')
  await row.getByRole('switch', { name: 'harbour@palettes enabled' }).click()
  const off = app.getByRole('dialog', { name: 'Turn off harbour@palettes?' })
  await off.getByRole('button', { name: 'Turn off harbour@palettes' }).click()
  const notice = app.getByRole('status').filter({ hasText: 'is not available' })
  await expect(notice).toContainText("The theme “Harbour” (harbour@palettes:harbour) is not available: its plugin is disabled or uninstalled. Seam's dark colours are used instead.")
  await expect.poll(() => app.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 24, 28)')
  await expectAccessible(app, 'plugins page after the fallback')
})
