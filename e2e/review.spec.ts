// Issue 17, "Reviewing changes": the approval dialog shows the diff an Edit would apply (with the
// absolute path and the working folder), the folder a Bash call runs in, and who asked; a call
// that ran under a session grant says so on its card. Issue 24: the dialog lists the rule a grant
// adds before anything is saved, and "Always allow" saves it to .claude/settings.local.json.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastUserText, textOf, trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

test('the Edit approval shows the diff against the file as it is, its absolute path and the working folder', async ({ app, fakeModel, workspace }, testInfo) => {
  const file = join(workspace, 'notes.txt')
  await writeFile(file, 'alpha\nbeta\ngamma\n')
  fakeModel.respond((body) => {
    if (trailingToolResults(body).length > 0) return { text: 'Edited.' }
    return { toolCalls: [{ name: 'Edit', args: { file_path: file, old_string: 'beta', new_string: 'BETA' } }] }
  })
  await send(app, 'capitalise beta')
  const dialog = ui.approvalDialog(app)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('File path')).toHaveText(file)
  await expect(dialog.getByLabel('Working folder')).toHaveText(workspace)
  await expect(dialog.locator('.approval-reason')).toContainText('(asked by permission-policy)')
  const diff = dialog.getByRole('group', { name: 'Change that will be applied' })
  await expect(diff.locator('.diff-line.del .diff-text')).toHaveText(['beta'])
  await expect(diff.locator('.diff-line.add .diff-text')).toHaveText(['BETA'])
  await expect(diff.locator('.diff-line.same .diff-text')).toHaveText(['alpha', 'gamma'])
  // The raw arguments are still there, folded.
  await expect(dialog.getByText('Arguments (JSON)')).toBeVisible()
  await snap(app, testInfo, 'edit-approval-diff')
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(ui.toolCards(app, 'Edit')).toHaveAttribute('data-status', 'done')
  await expectIdle(app)
  expect(await readFile(file, 'utf8')).toBe('alpha\nBETA\ngamma\n')
})

test('a Bash approval names the folder it runs in; a later call under the session grant says so on its card', async ({ app, fakeModel, workspace }, testInfo) => {
  fakeModel.respond((body) => {
    const results = trailingToolResults(body)
    if (results.length > 0) return { text: `Said: ${results.map(textOf).join(' ')}` }
    return { toolCalls: [{ name: 'Bash', args: { command: 'echo granted' } }] }
  })
  await send(app, 'first')
  const dialog = ui.approvalDialog(app)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Runs in')).toHaveText(workspace)
  await expect(dialog.getByRole('list', { name: 'Rules to add' }).getByRole('listitem')).toHaveText(['Bash(echo granted:*)'])
  await dialog.getByRole('button', { name: 'Allow for this session' }).click()
  const first = ui.toolCards(app, 'Bash').first()
  await expect(first).toHaveAttribute('data-status', 'done')
  await ui.openToolCard(first)
  await expect(first.getByRole('note')).toHaveCount(0)
  await expect(ui.assistantMessages(app).last()).toContainText('Said:')
  await expectIdle(app)

  await send(app, 'again')
  const second = ui.toolCards(app, 'Bash').nth(1)
  await expect(second).toHaveAttribute('data-status', 'done')
  await ui.openToolCard(second)
  await expect(second.getByRole('note')).toHaveText('Ran under a session grant: Bash(echo granted:*)')
  await expect(dialog).toHaveCount(0)
  expect(lastUserText(fakeModel.chatRequests().at(-1)!.body)).toBe('again')
  await snap(app, testInfo, 'session-grant-card')
})

test('"Always allow" shows the rule, saves it to the workspace\'s .claude/settings.local.json (keeping what is there) and later calls run without asking', async ({ app, fakeModel, workspace }, testInfo) => {
  const local = join(workspace, '.claude', 'settings.local.json')
  await mkdir(join(workspace, '.claude'), { recursive: true })
  await writeFile(local, JSON.stringify({ env: { KEEP: 'me' }, permissions: { deny: ['Bash(rm:*)'] } }, null, 2))
  fakeModel.respond((body) => {
    const results = trailingToolResults(body)
    if (results.length > 0) return { text: `Said: ${results.map(textOf).join(' ')}` }
    return { toolCalls: [{ name: 'Bash', args: { command: lastUserText(body) === 'first' ? 'pwd && echo hi' : 'echo hi again' } }] }
  })
  await send(app, 'first')
  const dialog = ui.approvalDialog(app)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('list', { name: 'Rules to add' }).getByRole('listitem')).toHaveText(['Bash(pwd:*)', 'Bash(echo hi:*)'])
  await expect(dialog.getByRole('combobox', { name: 'Where Always allow saves' })).toHaveValue('workspace')
  await snap(app, testInfo, 'always-allow-rules')
  // Shown, not saved yet.
  expect(JSON.parse(await readFile(local, 'utf8'))).toEqual({ env: { KEEP: 'me' }, permissions: { deny: ['Bash(rm:*)'] } })
  await dialog.getByRole('button', { name: 'Always allow' }).click()
  await expect(ui.toolCards(app, 'Bash').first()).toHaveAttribute('data-status', 'done')
  await expectIdle(app)
  expect(JSON.parse(await readFile(local, 'utf8'))).toEqual({ env: { KEEP: 'me' }, permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(pwd:*)', 'Bash(echo hi:*)'] } })

  await send(app, 'again')
  await expect(ui.toolCards(app, 'Bash').nth(1)).toHaveAttribute('data-status', 'done')
  await expect(dialog).toHaveCount(0)
})
