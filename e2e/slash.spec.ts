// Issue 16, slash commands: the composer's `/` menu lists a project command from
// `.claude/commands` with its description; choosing it and sending gets its expansion to the
// (fake) model while the transcript shows it as typed; `/help` lists the commands.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastUserText } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { axeViolations, seriousOrCritical } from './support/axe'
import { expectIdle, snap, ui } from './support/ui'

async function projectCommand(workspace: string): Promise<void> {
  const dir = join(workspace, '.claude', 'commands')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'review.md'), '---\ndescription: Review a change carefully\nargument-hint: <number>\n---\nReview change number $0 and list the risks.\n')
}

test('typing / shows the menu with a project command; choosing it and sending gets the expansion to the model', async ({ app, fakeModel, workspace }, testInfo) => {
  await projectCommand(workspace)
  fakeModel.respond(() => ({ text: 'Reviewed.' }))
  const box = ui.composer(app)
  await box.fill('/')
  const menu = app.getByRole('listbox', { name: 'Slash commands' })
  await expect(menu).toBeVisible()
  const review = menu.getByRole('option', { name: /\/review <number> Review a change carefully \(project\)/ })
  await expect(review).toBeVisible()
  await expect(menu.getByRole('option', { name: /\/help/ })).toBeVisible()
  await snap(app, testInfo, 'slash-menu')
  // The open menu (listbox, options, the message box's aria-activedescendant) passes axe.
  expect(seriousOrCritical(await axeViolations(app))).toEqual([])

  // Filtered as typed; the message box points at the highlighted option.
  await box.pressSequentially('rev')
  await expect(menu.getByRole('option')).toHaveCount(1)
  await expect(box).toHaveAttribute('aria-activedescendant', (await review.getAttribute('id'))!)
  await box.press('Enter')
  await expect(box).toHaveValue('/review ')
  await expect(menu).toHaveCount(0)
  await box.pressSequentially('42')
  await box.press('Enter')
  await expect(box).toHaveValue('')

  await expect(ui.assistantMessages(app).last()).toContainText('Reviewed.')
  await expectIdle(app)
  const requests = fakeModel.chatRequests()
  expect(lastUserText(requests.at(-1)!.body)).toBe('Review change number 42 and list the risks.')
  const message = ui.userMessages(app).last()
  await expect(message.locator('.msg-text').first()).toHaveText('/review 42')
  await message.getByText(/\/review \(project command\) expanded/).click()
  await expect(message.getByText('Review change number 42 and list the risks.')).toBeVisible()
  await snap(app, testInfo, 'slash-expanded')
})

test('/help lists the commands in the transcript and /clear opens a new session, without asking the model', async ({ app, fakeModel, workspace }) => {
  await projectCommand(workspace)
  fakeModel.respond(() => ({ text: 'never' }))
  const box = ui.composer(app)
  await box.fill('/hel')
  await expect(app.getByRole('option', { name: /\/help List the slash commands/ })).toBeVisible()
  await box.press('Enter')
  await expect(box).toHaveValue('')
  const transcript = ui.transcript(app)
  await expect(transcript).toContainText('Slash commands:')
  await expect(transcript).toContainText('/review <number>  Review a change carefully (project)')
  await expect(transcript).toContainText('/compact [instructions]')

  // /clear opens a new, empty session in the same workspace; the old one stays in the list.
  await box.fill('/clear')
  await box.press('Enter')
  await expect(ui.sessionRows(app)).toHaveCount(2)
  await expect(transcript).not.toContainText('Slash commands:')
  expect(fakeModel.chatRequests()).toHaveLength(0)
})
