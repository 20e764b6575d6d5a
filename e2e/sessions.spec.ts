// The sessions sidebar (issue 5): new session, open (replays the log into the view), rename,
// delete with confirmation.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastUserText, textOf, trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, sessionAction, snap, ui } from './support/ui'

test('new session, reopen a session (its log is replayed), rename, delete with confirmation', async ({ app, fakeModel, workspace }, testInfo) => {
  await writeFile(join(workspace, 'notes.txt'), 'alpha beta gamma\n')
  fakeModel.respond((body) => {
    const results = trailingToolResults(body)
    if (results.length > 0) return { text: `The notes say: ${results.map(textOf).join(' ')}` }
    const prompt = lastUserText(body)
    if (prompt === 'read my notes') return { toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'notes.txt') } }] }
    return { text: `Answer about ${prompt}` }
  })

  // The first session starts with the first message.
  await send(app, 'read my notes')
  await expect(ui.toolCards(app, 'Read')).toHaveAttribute('data-status', 'done')
  await expect(ui.assistantMessages(app).last()).toContainText('alpha beta gamma')
  await expectIdle(app)
  await expect(ui.sessionButton(app, 'read my notes')).toBeVisible()

  // A new, empty session: stored only once it has a message (issue 17: no empty rows), and the
  // message box has the focus.
  await app.getByRole('button', { name: 'New session', exact: true }).click()
  await expect(ui.transcript(app)).toContainText('Nothing here yet')
  await expect(ui.composer(app)).toBeFocused()
  await expect(ui.sessionRows(app)).toHaveCount(1)
  await send(app, 'second topic')
  await expect(ui.sessionRows(app)).toHaveCount(2)
  await expect(ui.assistantMessages(app).last()).toHaveText(/Answer about second topic/)
  await expectIdle(app)
  await expect(ui.sessionButton(app, 'second topic')).toBeVisible()
  await snap(app, testInfo, 'two-sessions')

  // Reopening the first session replays its log: the prompt, the tool card and the answer.
  await ui.sessionButton(app, 'read my notes').click()
  await expect(ui.sessionButton(app, 'read my notes')).toHaveAttribute('aria-current', 'true')
  await expect(ui.userMessages(app)).toHaveCount(1)
  await expect(ui.userMessages(app).first()).toContainText('read my notes')
  await expect(ui.toolCards(app, 'Read')).toHaveAttribute('data-status', 'done')
  await expect(ui.assistantMessages(app).last()).toContainText('The notes say:')
  await expect(ui.transcript(app)).not.toContainText('second topic')
  await snap(app, testInfo, 'reopened')

  // Rename inline; the new title is in the log, so it survives a reload.
  await sessionAction(app, 'read my notes', 'Rename')
  const title = app.getByRole('textbox', { name: 'Session title' })
  await title.fill('Notes review')
  await title.press('Enter')
  await expect(ui.sessionButton(app, 'Notes review')).toBeVisible()
  await app.reload()
  await expect(ui.sessionButton(app, 'Notes review')).toBeVisible()
  await expect(ui.sessionButton(app, 'Notes review')).toHaveAttribute('aria-current', 'true')
  await snap(app, testInfo, 'renamed')

  // Delete asks first; Cancel keeps the session, Delete removes it.
  await sessionAction(app, 'second topic', 'Delete')
  const confirm = app.getByRole('dialog', { name: 'Delete session?' })
  await expect(confirm).toContainText('second topic')
  await snap(app, testInfo, 'delete-confirmation')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(ui.sessionRows(app)).toHaveCount(2)

  await sessionAction(app, 'second topic', 'Delete')
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(confirm).toHaveCount(0)
  await expect(ui.sessionRows(app)).toHaveCount(1)
  await expect(ui.sessionButton(app, 'second topic')).toHaveCount(0)
  await app.reload()
  await expect(ui.sessionButton(app, 'Notes review')).toBeVisible()
  await expect(ui.sessionRows(app)).toHaveCount(1)
  await snap(app, testInfo, 'deleted')
})
