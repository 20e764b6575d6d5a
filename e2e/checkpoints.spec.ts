// Issue 17, "Reviewing changes": after a turn the files it changed are listed with their diffs;
// one file or the whole turn can be reverted (asking first when a file changed since); the
// conversation can be rewound to an earlier prompt, restoring its files and putting the prompt
// back into the composer. Checkpoints live with the session, so all of it works after a page
// reload and a host restart.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { lastUserText, trailingToolResults, type OpenAIRequestBody, type ScriptedTurn } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

test.use({ seamSettings: { approvalMode: 'never-ask' } })

/** The model: for each prompt, the file calls of `plan`, then a short answer once their results are in. */
function fileAgent(plan: Record<string, ScriptedTurn['toolCalls']>): (body: OpenAIRequestBody) => ScriptedTurn {
  return (body) => {
    if (trailingToolResults(body).length > 0) return { text: `Done: ${lastUserText(body)}` }
    const calls = plan[lastUserText(body)]
    return calls ? { toolCalls: calls } : { text: `Nothing to change for ${lastUserText(body)}` }
  }
}

const changesCards = (page: Page) => page.getByRole('region', { name: 'Files changed in this turn' })
const changedFile = (page: Page, name: string) => page.getByRole('listitem', { name: `Changed file ${name}` })

test('a turn lists the files it changed with their diffs; one file, then the whole turn, is reverted on disk', async ({ app, fakeModel, workspace }, testInfo) => {
  const notes = join(workspace, 'notes.txt')
  const added = join(workspace, 'added.txt')
  await writeFile(notes, 'alpha\nbeta\n')
  fakeModel.respond(
    fileAgent({
      'change the notes': [
        { name: 'Edit', args: { file_path: notes, old_string: 'beta', new_string: 'BETA' } },
        { name: 'Write', args: { file_path: added, content: 'brand new\n' } }
      ]
    })
  )
  await send(app, 'change the notes')
  const card = changesCards(app)
  await expect(card).toHaveCount(1)
  await expectIdle(app)
  await expect(card.getByRole('listitem')).toHaveCount(2)
  await changedFile(app, 'notes.txt').locator('summary').click()
  const diff = card.getByRole('group', { name: 'Changes to notes.txt' })
  await expect(diff.locator('.diff-line.del .diff-text')).toHaveText(['beta'])
  await expect(diff.locator('.diff-line.add .diff-text')).toHaveText(['BETA'])
  await expect(changedFile(app, 'added.txt')).toContainText('new')
  await snap(app, testInfo, 'turn-changes')

  await card.getByRole('button', { name: 'Revert added.txt' }).click()
  await expect.poll(() => existsSync(added)).toBe(false)
  await expect(changedFile(app, 'added.txt')).toContainText('reverted')
  expect(await readFile(notes, 'utf8')).toBe('alpha\nBETA\n')

  await card.getByRole('button', { name: 'Revert turn' }).click()
  await expect.poll(() => readFile(notes, 'utf8')).toBe('alpha\nbeta\n')
  await expect(changedFile(app, 'notes.txt')).toContainText('reverted')
  await expect(app.getByRole('note', { name: 'Revert' })).toHaveCount(2)
  await snap(app, testInfo, 'reverted')
})

test('reverting a file that changed since the turn shows what changed and asks first', async ({ app, fakeModel, workspace }, testInfo) => {
  const file = join(workspace, 'plan.md')
  fakeModel.respond(fileAgent({ 'write the plan': [{ name: 'Write', args: { file_path: file, content: '# Plan\n' } }] }))
  await send(app, 'write the plan')
  // The card comes with the turn's end: the Write has run.
  await expect(changesCards(app)).toHaveCount(1)
  await expectIdle(app)
  await writeFile(file, '# Plan\nmy own line\n')

  await changesCards(app).getByRole('button', { name: 'Revert plan.md' }).click()
  const dialog = app.getByRole('dialog', { name: 'Revert changes' })
  await expect(dialog).toBeVisible()
  const since = dialog.getByRole('group', { name: `Changed since: ${file}` })
  await expect(since.locator('.diff-line.add .diff-text')).toHaveText(['my own line'])
  await snap(app, testInfo, 'revert-conflict')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(await readFile(file, 'utf8')).toBe('# Plan\nmy own line\n')

  await changesCards(app).getByRole('button', { name: 'Revert plan.md' }).click()
  await dialog.getByRole('button', { name: 'Revert anyway' }).click()
  await expect.poll(() => existsSync(file)).toBe(false)
})

test('rewinding to the first prompt restores its files and gives the prompt back; after a reload and a host restart reverting still works', async ({ app, fakeModel, workspace, hostRun }, testInfo) => {
  const a = join(workspace, 'a.txt')
  const b = join(workspace, 'b.txt')
  fakeModel.respond(
    fileAgent({
      'create a': [{ name: 'Write', args: { file_path: a, content: 'a1\n' } }],
      'change a, create b': [
        { name: 'Edit', args: { file_path: a, old_string: 'a1', new_string: 'a2' } },
        { name: 'Write', args: { file_path: b, content: 'b1\n' } }
      ]
    })
  )
  await send(app, 'create a')
  await expect(changesCards(app)).toHaveCount(1)
  await expectIdle(app)
  await send(app, 'change a, create b')
  await expect(changesCards(app)).toHaveCount(2)
  await expectIdle(app)

  // A reload, then a restart of the host: the checkpoints are read back from the session folder.
  await app.reload()
  await expect(changesCards(app)).toHaveCount(2)
  await app.goto(await hostRun.restartWebHost())
  await ui.sessionButton(app, 'create a').click()
  await expect(changesCards(app)).toHaveCount(2)
  await changesCards(app).nth(1).getByRole('button', { name: 'Revert b.txt' }).click()
  await expect.poll(() => existsSync(b)).toBe(false)
  expect(await readFile(a, 'utf8')).toBe('a2\n')

  await ui.userMessages(app).first().getByRole('button', { name: 'Rewind to this message' }).click()
  const dialog = app.getByRole('dialog', { name: 'Rewind the conversation' })
  await expect(dialog.getByRole('list', { name: 'Files to put back' }).getByRole('listitem')).toHaveText([/a\.txt.*removed/])
  await snap(app, testInfo, 'rewind-preview')
  await dialog.getByRole('button', { name: 'Rewind', exact: true }).click()
  await expect(dialog).toHaveCount(0)
  await expect.poll(() => existsSync(a)).toBe(false)
  await expect(ui.composer(app)).toHaveValue('create a')
  await expect(ui.composer(app)).toBeFocused()
  await expect(app.getByRole('note', { name: 'Rewind' })).toContainText('Rewound to before “create a”')
  await expect(app.locator('.transcript-row[data-rewound="true"]').getByLabel('Your message', { exact: true })).toHaveCount(2)
  await expect(ui.userMessages(app).first().getByRole('button', { name: 'Rewind to this message' })).toHaveCount(0)
  // Every card of a rewound turn says so: reverted badges, no live Revert buttons (issue 31).
  for (const card of await changesCards(app).all()) {
    await expect(card).toContainText('rewound')
    await expect(card.getByRole('button', { name: /^Revert/ })).toHaveCount(0)
    for (const file of await card.getByRole('listitem').all()) await expect(file.locator('summary .badge').last()).toHaveText('reverted')
  }
  // A rewound assistant message gets no frame of its own (a border-style alone drew a thick one).
  const frame = await app.locator('.transcript-row[data-rewound="true"] .msg.assistant').first().evaluate((el) => getComputedStyle(el).borderTopWidth)
  expect(frame).toBe('0px')
  await snap(app, testInfo, 'rewound')

  // The model no longer sees the rewound turns.
  await send(app, 'start over')
  await expect(ui.assistantMessages(app).last()).toContainText('Nothing to change for start over')
  await expectIdle(app)
  const users = fakeModel.chatRequests().at(-1)!.body.messages.filter((m) => m.role === 'user')
  expect(users.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))).toEqual(['start over'])
})
