// Issue 31, "Web mode": "Choose folder…" opens a folder browser the host serves, listing the
// folders of the user's home (HOME of the host, here the test's temp home; the host runs from
// the Seam checkout, which `~` must never mean). Driven from the keyboard: type-ahead with Tab,
// arrows, Enter opens, Backspace goes up, "Use this folder" sets the workspace. Hidden folders
// on request; a link out of the home is listed but disabled; a path outside it is refused in
// place. Checked at 1280x800 and 800x600, light and dark (axe, nothing wider than the window).
// The desktop app keeps the native dialog, so this runs against the web host only.
import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES, sizeName } from './support/screens'

test.use({ seamSetup: 'first-run' })

for (const size of SIZES) {
  test(`the web folder browser at ${sizeName(size)}, light and dark: keyboard driven, home only, sets the workspace`, async ({ app, tempRoot, target }, testInfo) => {
    test.skip(target === 'electron', 'the desktop app uses the native folder dialog')
    const name = sizeName(size)
    const home = join(tempRoot, 'home')
    await mkdir(join(home, 'projects', 'alpha'), { recursive: true })
    await mkdir(join(home, 'projects', 'beta'))
    await mkdir(join(home, '.secret-stash'))
    await mkdir(join(tempRoot, 'outside'))
    await symlink(join(tempRoot, 'outside'), join(home, 'escape'))
    await onScreen(app, { ...size, colorScheme: 'light' })

    const setup = app.getByRole('main', { name: 'Set up Seam' })
    await setup.getByRole('button', { name: 'Choose folder…' }).click()
    const dialog = app.getByRole('dialog', { name: 'Choose a folder' })
    const field = dialog.getByRole('combobox', { name: 'Folder path' })
    const list = dialog.getByRole('listbox')
    await expect(field).toBeFocused()
    await expect(field).toHaveValue('~/')
    await expect(dialog.getByRole('listbox', { name: 'Folders in ~' })).toBeVisible()
    await expect(list.getByRole('option')).toHaveText(['escape/ (outside your home folder)', 'projects/'])
    await expect(list.getByRole('option', { name: /^escape/ })).toHaveAttribute('aria-disabled', 'true')
    await expectSchemesOk(app, testInfo, `folder-picker-${name}`, { screenshot: true })

    // Hidden folders on request.
    await dialog.getByRole('checkbox', { name: 'Show hidden folders' }).check()
    await expect(list.getByRole('option', { name: '.secret-stash/' })).toBeVisible()
    await dialog.getByRole('checkbox', { name: 'Show hidden folders' }).uncheck()
    await expect(list.getByRole('option', { name: '.secret-stash/' })).toHaveCount(0)

    // Type-ahead, Tab completes; arrows and Enter open; Backspace after "/" goes up.
    await field.focus()
    await field.press('End')
    await field.pressSequentially('pro')
    await expect(list.getByRole('option')).toHaveText(['projects/'])
    await field.press('Tab')
    await expect(field).toHaveValue('~/projects/')
    await expect(dialog.getByRole('listbox', { name: 'Folders in ~/projects' })).toBeVisible()
    await expect(list.getByRole('option')).toHaveText(['alpha/', 'beta/'])
    await field.press('ArrowDown')
    await expect(list.getByRole('option', { name: 'beta/' })).toHaveAttribute('aria-selected', 'true')
    await field.press('Enter')
    await expect(field).toHaveValue('~/projects/beta/')
    await expect(dialog.getByRole('listbox', { name: 'Folders in ~/projects/beta' })).toBeVisible()
    await field.press('Backspace')
    await expect(field).toHaveValue('~/projects/')
    await expect(list.getByRole('option', { name: 'alpha/' })).toHaveAttribute('aria-selected', 'true')
    await field.press('Enter')
    await expect(field).toHaveValue('~/projects/alpha/')

    // Outside the home: refused in place, naming why.
    await field.fill(`${join(tempRoot, 'outside')}/`)
    await expect(dialog.getByRole('alert')).toContainText('is outside your home folder')
    await expect(field).toHaveAttribute('aria-invalid', 'true')
    await field.fill('~/projects/alpha/')
    await expect(dialog.getByRole('listbox', { name: 'Folders in ~/projects/alpha' })).toBeVisible()
    await expect(dialog.getByRole('alert')).toHaveCount(0)

    await dialog.getByRole('button', { name: 'Use this folder' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(setup.locator('code.path')).toHaveText(join(home, 'projects', 'alpha'))
  })
}

test('a typed "~/x" is the user\'s home, not the folder the host runs in', async ({ app, tempRoot }) => {
  const home = join(tempRoot, 'home')
  await mkdir(join(home, 'typed-project'), { recursive: true })
  const setup = app.getByRole('main', { name: 'Set up Seam' })
  await setup.getByRole('button', { name: 'Type a path instead' }).click()
  await setup.getByRole('textbox', { name: 'Workspace folder' }).fill('~/typed-project')
  await setup.getByRole('button', { name: 'Use this folder' }).click()
  await expect(setup.locator('code.path')).toHaveText(join(home, 'typed-project'))
})
