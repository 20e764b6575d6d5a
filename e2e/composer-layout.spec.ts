// Issue 31, on every screen (1280x800 and 800x600, light and dark): the composer's mode switch
// steps through Claude Code's modes with Shift+Tab (bypassPermissions raises the header warning),
// Up in an empty box recalls the last prompt, the sessions sidebar hides and stays hidden after a
// reload, and at 800 px Plugins and Hooks are in the More menu; axe and the no-wider-than-the-window
// check on each.
import { expect, test } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES, sizeName } from './support/screens'
import { expectIdle, send, ui } from './support/ui'

for (const size of SIZES) {
  test(`composer and layout at ${sizeName(size)}, light and dark: mode switch, prompt recall, sidebar, overflow menu`, async ({ app, fakeModel }, testInfo) => {
    const name = sizeName(size)
    await onScreen(app, { ...size, colorScheme: 'light' })
    fakeModel.respond(() => ({ text: 'Noted.' }))
    await send(app, 'remember this prompt')
    await expect(ui.userMessages(app)).toHaveCount(1)
    await expect(ui.assistantMessages(app).last()).toContainText('Noted.')
    await expectIdle(app)

    // Up in the empty box brings the last prompt back.
    const box = ui.composer(app)
    await box.focus()
    await box.press('ArrowUp')
    await expect(box).toHaveValue('remember this prompt')
    await box.fill('')

    // Shift+Tab steps the approval mode; at bypassPermissions the header warns.
    await expect(app.getByRole('button', { name: 'Approval mode: Ask before edits' })).toBeVisible()
    for (const label of ['Accept edits', 'Plan mode', 'Bypass permissions']) {
      await box.press('Shift+Tab')
      await expect(app.getByRole('button', { name: `Approval mode: ${label}` })).toBeVisible()
    }
    await expect(box).toBeFocused()
    await expect(app.getByRole('button', { name: 'Safety warning: Approvals off' })).toBeVisible()
    await expectSchemesOk(app, testInfo, `bypass-${name}`)
    await box.press('Shift+Tab')
    await expect(app.getByRole('button', { name: 'Approval mode: Ask before edits' })).toBeVisible()
    await expect(app.getByRole('button', { name: /^Safety warning/ })).toHaveCount(0)

    // The sidebar hides, and stays hidden after a reload.
    await app.getByRole('button', { name: 'Hide sessions' }).click()
    await expect(app.getByRole('navigation', { name: 'Sessions' })).toHaveCount(0)
    await app.reload()
    await expect(ui.composer(app)).toBeVisible()
    await expect(app.getByRole('navigation', { name: 'Sessions' })).toHaveCount(0)
    await expectSchemesOk(app, testInfo, `sidebar-hidden-${name}`)
    await app.getByRole('button', { name: 'Show sessions' }).click()
    await expect(app.getByRole('navigation', { name: 'Sessions' })).toBeVisible()

    // Narrow: Plugins and Hooks are in the More menu; wide: in the nav.
    const nav = app.getByRole('navigation', { name: 'Pages' })
    if (size.width < 1100) {
      await expect(nav.getByRole('button', { name: 'Plugins', exact: true })).toHaveCount(0)
      await nav.getByRole('button', { name: 'More' }).click()
      await expect(app.getByRole('menu', { name: 'More' })).toBeVisible()
      await expectSchemesOk(app, testInfo, `menu-${name}`)
      await app.getByRole('menuitem', { name: 'Plugins' }).click()
    } else {
      await nav.getByRole('button', { name: 'Plugins', exact: true }).click()
    }
    await expect(app.getByRole('main', { name: 'Plugins page' })).toBeVisible()
    await expectSchemesOk(app, testInfo, `plugins-${name}`)
    await nav.getByRole('button', { name: 'Settings', exact: true }).click()
    await expect(app.getByRole('main', { name: 'Settings page' })).toBeVisible()
    await expectSchemesOk(app, testInfo, `settings-${name}`)
  })
}
