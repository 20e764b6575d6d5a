// Issue 31, "a layout check that no element is wider than the viewport on every screen": every
// page, section, panel, dialog and menu of the app (enumerated from App.tsx: chat with its tool
// card, files-changed card, plan and tasks panels; the approval dialog; revert and rewind dialogs;
// the command palette; the slash menu; the model picker; the hook inspector; each Settings
// section; the Plugins page with its install dialog (the bundle's trust warning) and a switch's confirmation; the Board; the
// header's More menu where it folds; the workspace trust dialogs (trust, then approve a changed
// hook); the delete-session confirmation; the first-run setup screen with the folder browser), at
// 1280x800 and 800x600, light and dark: axe 0 serious or critical and nothing wider than the window.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { trailingToolResults } from './support/fake-model'
import { expect, test as seamTest } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES, sizeName } from './support/screens'
import { expectIdle, send, settingsSection, ui } from './support/ui'

const NOTES = 'a-rather-long-file-name-for-the-layout-check-of-issue-31-notes.md'

/** A workspace hook (Claude Code settings), so the trust banner and dialogs show. */
const hooksSettings = (command: string) => JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command }] }] } })

const test = seamTest.extend<{ bundleDir: string }>({
  // Written before the host starts: the workspace declares a hook that waits for trust.
  hostEnv: async ({ hostEnv, workspace }, use) => {
    await mkdir(join(workspace, '.claude'), { recursive: true })
    await writeFile(join(workspace, '.claude', 'settings.json'), hooksSettings('cat > /dev/null'))
    await use(hostEnv)
  },
  // A bundle folder the install dialog inspects (installing it is plugins.spec's job).
  bundleDir: async ({ tempRoot }, use) => {
    const dir = join(tempRoot, 'a-bundle-with-a-long-name-for-the-layout-check')
    await mkdir(join(dir, 'dist'), { recursive: true })
    const manifest = { name: 'seam-layout-check-bundle-with-a-rather-long-package-name', version: '1.0.0', engines: { seam: '>=0.0.0' }, seam: { host: 'dist/host.js', client: 'dist/client.js' } }
    await writeFile(join(dir, 'package.json'), JSON.stringify(manifest))
    await writeFile(join(dir, 'dist', 'host.js'), 'export default {}\n')
    await writeFile(join(dir, 'dist', 'client.js'), 'export default {}\n')
    await use(dir)
  }
})

for (const size of SIZES) {
  test(`every screen at ${sizeName(size)}, light and dark: nothing wider than the window, axe clean`, async ({ app, fakeModel, workspace, bundleDir }, testInfo) => {
    test.setTimeout(testInfo.timeout * 3)
    const name = sizeName(size)
    const check = (what: string) => expectSchemesOk(app, testInfo, `${what}-${name}`)
    await onScreen(app, { ...size, colorScheme: 'light' })
    fakeModel.respond((body) => {
      if (trailingToolResults(body).length > 0) return { text: 'Done: the notes are written and a background job runs.' }
      const last = JSON.stringify(body.messages.at(-1))
      if (last.includes('background')) return { toolCalls: [{ name: 'Bash', args: { command: 'sleep 30', run_in_background: true, description: 'A long background job' } }] }
      return {
        toolCalls: [
          { name: 'TodoWrite', args: { todos: [{ content: 'Write the notes', activeForm: 'Writing the notes', status: 'in_progress' }, { content: 'Check them', activeForm: 'Checking them', status: 'pending' }] } },
          { name: 'Write', args: { file_path: NOTES, content: `# Notes\n\n${'A long line without breaks '.repeat(12)}\n` } }
        ]
      }
    })

    // Chat, empty.
    await expect(ui.composer(app)).toBeVisible()
    await check('chat-empty')

    // Workspace trust: the dialog listing what would run, then (trusted) the one for a changed hook.
    const trustBanner = app.getByRole('region', { name: 'Workspace trust' })
    await trustBanner.getByRole('button', { name: 'Review…' }).click()
    const trust = app.getByRole('dialog', { name: 'Trust this workspace?' })
    await expect(trust).toBeVisible()
    await check('trust-dialog')
    await trust.getByRole('button', { name: 'Trust', exact: true }).click()
    await expect(trust).toHaveCount(0)
    await writeFile(join(workspace, '.claude', 'settings.json'), hooksSettings('cat > /dev/null; true'))
    await trustBanner.getByRole('button', { name: 'Review changes…' }).click()
    const changed = app.getByRole('dialog', { name: 'Approve changed hook commands?' })
    await expect(changed).toBeVisible()
    await check('trust-changed-dialog')
    await changed.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect(changed).toHaveCount(0)
    await expect(trustBanner).toHaveCount(0)

    // The approval dialog (a Write shown as a diff).
    await send(app, 'write the notes')
    const approval = ui.approvalDialog(app)
    await expect(approval).toBeVisible()
    await check('approval-write')
    await approval.getByRole('button', { name: 'Allow for this session' }).click()
    await expect(approval).toHaveCount(0)
    await expectIdle(app)

    // A background task (Bash asks too).
    await send(app, 'start a background job')
    await expect(approval).toBeVisible()
    await check('approval-bash')
    await approval.getByRole('button', { name: 'Allow once' }).click()
    await expectIdle(app)
    await expect(app.getByRole('region', { name: 'Background tasks' })).toBeVisible()
    await expect(app.getByRole('region', { name: 'Todo list' })).toBeVisible()
    await expect(app.getByRole('region', { name: 'Files changed in this turn' })).toBeVisible()
    await check('chat-after-turns')

    // The delete-session confirmation (Cancel keeps it).
    if (await app.getByRole('button', { name: 'Show sessions' }).isVisible()) await app.getByRole('button', { name: 'Show sessions' }).click()
    await ui.sessionRows(app).first().hover()
    await ui.sessionRows(app).first().getByRole('button', { name: /^Delete / }).click()
    const deleting = app.getByRole('dialog', { name: 'Delete session?' })
    await expect(deleting).toBeVisible()
    await check('delete-session-dialog')
    await deleting.getByRole('button', { name: 'Cancel' }).click()
    await expect(deleting).toHaveCount(0)
    await expect(ui.sessionRows(app)).toHaveCount(1)

    // Revert and rewind dialogs (a file changed since the turn makes Revert ask).
    await writeFile(join(workspace, NOTES), 'edited by hand\n')
    await app.getByRole('region', { name: 'Files changed in this turn' }).getByRole('button', { name: 'Revert turn' }).click()
    await expect(app.getByRole('dialog', { name: 'Revert changes' })).toBeVisible()
    await check('revert-dialog')
    await app.getByRole('dialog', { name: 'Revert changes' }).getByRole('button', { name: 'Cancel' }).click()
    await ui.userMessages(app).first().hover()
    await ui.userMessages(app).first().getByRole('button', { name: 'Rewind to this message' }).click()
    await expect(app.getByRole('dialog', { name: 'Rewind the conversation' })).toBeVisible()
    await check('rewind-dialog')
    await app.getByRole('dialog', { name: 'Rewind the conversation' }).getByRole('button', { name: 'Cancel' }).click()

    // The command palette, the slash menu, the model picker.
    await app.keyboard.press('Control+k')
    await expect(app.getByRole('dialog', { name: 'Command palette' })).toBeVisible()
    await check('command-palette')
    await app.keyboard.press('Escape')
    await ui.composer(app).fill('/')
    await expect(app.getByRole('listbox').first()).toBeVisible()
    await check('slash-menu')
    await ui.composer(app).fill('')
    await app.getByRole('combobox', { name: 'Model' }).focus()
    await check('model-picker')

    // The hook inspector (in the More menu where the header folds).
    const more = app.getByRole('button', { name: 'More' })
    if (size.width < 1100) {
      await more.click()
      await expect(app.getByRole('menu', { name: 'More' })).toBeVisible()
      await check('more-menu')
      await app.getByRole('menuitemcheckbox', { name: 'Hooks' }).click()
    } else await ui.pageButton(app, 'Hooks').click()
    await expect(app.getByRole('complementary', { name: 'Hook inspector' })).toBeVisible()
    await check('hook-inspector')
    if (size.width < 1100) {
      await more.click()
      await app.getByRole('menuitemcheckbox', { name: 'Hooks' }).click()
    } else await ui.pageButton(app, 'Hooks').click()
    await expect(app.getByRole('complementary', { name: 'Hook inspector' })).toHaveCount(0)

    // Every Settings section.
    await ui.pageButton(app, 'Settings').click()
    const tabs = await app.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab').allTextContents()
    expect(tabs.length).toBeGreaterThanOrEqual(8)
    for (const title of tabs) {
      await settingsSection(app, title)
      await check(`settings-${title.replace(/\W+/g, '-').toLowerCase()}`)
    }

    // The Plugins page and the Board.
    if (size.width < 1100) {
      await more.click()
      await app.getByRole('menuitem', { name: 'Plugins' }).click()
    } else await ui.pageButton(app, 'Plugins').click()
    await expect(app.getByRole('main', { name: 'Plugins page' })).toBeVisible()
    await check('plugins')
    // The install dialog: what the bundle declares and the warning that its host part runs as trusted code.
    await app.getByRole('main', { name: 'Plugins page' }).getByRole('textbox', { name: 'Bundle path' }).fill(bundleDir)
    await app.getByRole('main', { name: 'Plugins page' }).getByRole('button', { name: 'Install from file…' }).click()
    const install = app.getByRole('dialog', { name: 'Install plugin bundle' })
    await expect(install.getByRole('note')).toContainText('trusted code')
    await check('install-dialog')
    await install.getByRole('button', { name: 'Cancel' }).click()
    await expect(install).toHaveCount(0)
    // A switch's confirmation, naming what stops running (cancelled: the plugin stays on).
    await app.getByRole('main', { name: 'Plugins page' }).getByRole('switch', { name: 'todo enabled' }).click()
    const turnOff = app.getByRole('dialog', { name: 'Turn off todo?' })
    await expect(turnOff).toBeVisible()
    await check('plugin-switch-dialog')
    await turnOff.getByRole('button', { name: 'Cancel' }).click()
    await expect(turnOff).toHaveCount(0)
    await app.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Board', exact: true }).click()
    await expect(app.getByRole('region', { name: 'Sessions board' })).toBeVisible()
    await check('board')
  })
}

// The first-run setup screen, on every screen: no workspace and no provider yet; the typed path;
// the host's folder browser (web mode) or, in the desktop app, the path field only.
seamTest.describe('first run', () => {
  seamTest.use({ seamSetup: 'first-run' })
  for (const size of SIZES) {
    seamTest(`the setup screen at ${sizeName(size)}, light and dark: nothing wider than the window, axe clean`, async ({ app }, testInfo) => {
      const name = sizeName(size)
      const check = (what: string) => expectSchemesOk(app, testInfo, `${what}-${name}`)
      await onScreen(app, { ...size, colorScheme: 'light' })
      const setup = app.getByRole('main', { name: 'Set up Seam' })
      await expect(setup.getByRole('region', { name: 'No workspace' })).toBeVisible()
      await check('setup')
      await setup.getByRole('button', { name: 'Type a path instead' }).click()
      await expect(setup.getByRole('textbox', { name: 'Workspace folder' })).toBeVisible()
      await check('setup-path')
      if (app.url().startsWith('http')) {
        await setup.getByRole('button', { name: 'Choose folder…' }).click()
        const picker = app.getByRole('dialog', { name: 'Choose a folder' })
        await expect(picker.getByRole('combobox', { name: 'Folder path' })).toBeVisible()
        await check('folder-browser')
        await app.keyboard.press('Escape')
        await expect(picker).toHaveCount(0)
      }
    })
  }
})
