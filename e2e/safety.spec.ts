// Issue 31, "Safety", on every screen (1280x800 and 800x600, each state in light and dark): switching off
// permission-policy asks first, naming the consequence; while it is off the header warns and a
// Bash call really runs without asking; a dangerous command (rm -rf) is marked in the approval,
// Deny has the focus and Enter denies it (the folder survives).
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES, sizeName } from './support/screens'
import { expectIdle, send, settingsSection, ui } from './support/ui'

for (const size of SIZES) {
  test(`safety at ${sizeName(size)}, light and dark: confirm before approvals go off, a header warning while they are, dangerous calls default to Deny`, async ({ app, fakeModel, workspace }, testInfo) => {
    const name = sizeName(size)
    await onScreen(app, { ...size, colorScheme: 'light' })
    await mkdir(join(workspace, 'build'))
    fakeModel.respond((body) => (trailingToolResults(body).length > 0 ? { text: 'Done.' } : { toolCalls: [{ name: 'Bash', args: { command: 'rm -rf build' } }] }))

    // A dangerous command: marked, Deny focused, Enter denies.
    await send(app, 'clean up')
    const dialog = ui.approvalDialog(app)
    await expect(dialog.getByRole('group', { name: 'Dangerous call' })).toContainText('recursive delete: rm -rf build')
    await expect(dialog.getByRole('group', { name: 'Command that will run' })).toContainText('rm -rf build')
    await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused()
    await expectSchemesOk(app, testInfo, `approval-dangerous-${name}`, { screenshot: true })
    await app.keyboard.press('Enter')
    await expect(ui.toolCards(app, 'Bash')).toHaveAttribute('data-status', 'denied')
    await expectIdle(app)
    expect(existsSync(join(workspace, 'build'))).toBe(true)

    // Switching permission-policy off asks first; Cancel leaves it on.
    await app.keyboard.press('Control+,')
    await settingsSection(app, 'Plugin tree')
    const tree = app.getByRole('tree', { name: 'Plugin tree' })
    const toggle = tree.getByRole('treeitem', { name: /^permission-policy / }).getByRole('switch', { name: 'permission-policy enabled' })
    await toggle.click()
    const confirm = app.getByRole('dialog', { name: 'Turn off permission-policy?' })
    await expect(confirm).toContainText('Edit, Write and Bash will run without asking you')
    await expectSchemesOk(app, testInfo, `confirm-${name}`)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(toggle).toHaveAttribute('aria-checked', 'true')
    await expect(app.getByRole('button', { name: /^Safety warning/ })).toHaveCount(0)
    await toggle.click()
    await confirm.getByRole('button', { name: 'Turn off permission-policy' }).click()
    await expect(toggle).toHaveAttribute('aria-checked', 'false')
    const badge = app.getByRole('button', { name: 'Safety warning: Approvals off' })
    await expect(badge).toBeVisible()
    await expectSchemesOk(app, testInfo, `settings-approvals-off-${name}`)

    // The badge stays on every page, and what it warns of is real: Bash runs without asking.
    await ui.pageButton(app, 'Chat').click()
    await expect(badge).toBeVisible()
    await send(app, 'clean up again')
    await expect(ui.toolCards(app, 'Bash').last()).toHaveAttribute('data-status', 'done')
    await expect(ui.approvalDialog(app)).toHaveCount(0)
    expect(existsSync(join(workspace, 'build'))).toBe(false)
    await expectIdle(app)
    await expectSchemesOk(app, testInfo, `chat-approvals-off-${name}`, { screenshot: true })

    // Clicking the badge leads to where it is switched back on; then the warning goes.
    await badge.click()
    await tree.getByRole('treeitem', { name: /^permission-policy / }).getByRole('switch', { name: 'permission-policy enabled' }).click()
    await expect(toggle).toHaveAttribute('aria-checked', 'true')
    await expect(app.getByRole('button', { name: /^Safety warning/ })).toHaveCount(0)
  })
}
