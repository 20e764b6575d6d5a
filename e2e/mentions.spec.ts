// Issue 16, mentions: typing `@` in the composer opens the fuzzy file picker over the workspace
// (ignore files honoured), picking a file inserts `@path`, and on send the file's contents go to
// the model with the prompt (the loopback OpenAI-wire server receives them) and show under the
// message in the transcript.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastUserText } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, snap, ui } from './support/ui'

const GREETING = 'export const greeting = "hello from a mentioned file"'

test('@ opens the file picker, an ignored file is not offered, and the picked file goes to the model and shows in the transcript', async ({ app, fakeModel, workspace }, testInfo) => {
  await mkdir(join(workspace, '.git'))
  await writeFile(join(workspace, '.gitignore'), 'secret/\n')
  await mkdir(join(workspace, 'src'))
  await writeFile(join(workspace, 'src', 'greeting.ts'), `${GREETING}\n`)
  await mkdir(join(workspace, 'secret'))
  await writeFile(join(workspace, 'secret', 'greeting-key.ts'), 'export const key = 1\n')
  fakeModel.respond((body) => ({ text: lastUserText(body).includes(GREETING) ? 'I can read the greeting.' : 'The file did not arrive.' }))

  const box = ui.composer(app)
  await box.click()
  await box.pressSequentially('explain @greet')
  const list = app.getByRole('listbox', { name: 'Files to mention' })
  await expect(list).toBeVisible()
  // The ignored folder's file matches the query too, but is not offered.
  await expect(list.getByRole('option')).toHaveText(['src/greeting.ts'])
  await expect(box).toHaveAttribute('aria-activedescendant', (await list.getByRole('option').first().getAttribute('id'))!)
  await snap(app, testInfo, 'mention-picker')

  await box.press('Enter')
  await expect(list).toHaveCount(0)
  await expect(box).toHaveValue('explain @src/greeting.ts ')
  await box.pressSequentially('please')
  await box.press('Enter')
  await expect(box).toHaveValue('')

  const message = ui.userMessages(app).last()
  await expect(message).toContainText('explain @src/greeting.ts please')
  const attached = message.getByRole('list', { name: 'Attached files' })
  await expect(attached).toContainText('src/greeting.ts')
  await attached.getByText('src/greeting.ts').click()
  await expect(attached.locator('pre')).toContainText(GREETING)
  await expect(ui.assistantMessages(app).last()).toContainText('I can read the greeting.')
  await expectIdle(app)
  await snap(app, testInfo, 'mention-attached')

  const request = fakeModel.chatRequests().at(-1)!.body
  expect(lastUserText(request)).toContain(`Result of calling the Read tool:\n1\t${GREETING}`)
})

test('a mention of a missing file is reported under the message and the prompt still goes as typed', async ({ app, fakeModel }) => {
  fakeModel.respond((body) => ({ text: `got: ${lastUserText(body)}` }))
  const box = ui.composer(app)
  await box.fill('what about @nowhere.ts')
  await box.press('Escape')
  await box.press('Enter')
  const message = ui.userMessages(app).last()
  await expect(message.getByRole('note')).toContainText('not attached: no file nowhere.ts in the workspace')
  await expect(ui.assistantMessages(app).last()).toContainText('got: what about @nowhere.ts')
})
