// Issue 29, output styles: the settings page lists Claude Code's built-in styles and a user style
// (a real file under the host's HOME) with their source and description, Default checked. Choosing
// one saves `outputStyle` in ~/.claude/settings.json (the workspace is not trusted, so the user
// file) and the next turn of the same session sends the style in the system prompt.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { textOf, type OpenAIRequestBody } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, settingsSection, snap, ui } from './support/ui'

const systemPrompt = (body: OpenAIRequestBody): string => textOf(body.messages.find((m) => m.role === 'system'))

test('the settings page lists every output style; switching saves outputStyle and applies from the next turn', async ({ app, fakeModel, tempRoot }, testInfo) => {
  const home = join(tempRoot, 'home')
  await mkdir(join(home, '.claude', 'output-styles'), { recursive: true })
  const haiku = join(home, '.claude', 'output-styles', 'haiku.md')
  await writeFile(haiku, '---\nname: Haiku\ndescription: Answers as a haiku\n---\nAnswer every question as a haiku of three lines.\n')
  fakeModel.respond(() => ({ text: 'Done.' }))

  await send(app, 'first turn')
  await expect(ui.assistantMessages(app).last()).toContainText('Done.')
  await expectIdle(app)
  expect(systemPrompt(fakeModel.chatRequests().at(-1)!.body)).not.toContain('# Output style')

  const section = await settingsSection(app, 'Output style')
  const styles = section.getByRole('group', { name: 'Output style' })
  const radio = (name: string) => styles.getByRole('radio', { name, exact: true })
  const row = (name: string) => styles.locator('label').filter({ has: app.getByRole('radio', { name, exact: true }) })
  await expect(styles.getByRole('radio')).toHaveCount(4)
  await expect(radio('Default')).toBeChecked()
  for (const [name, text] of [
    ['Default', 'Default (built-in)'],
    ['Explanatory', 'Explanatory (built-in)'],
    ['Learning', 'Learning (built-in)'],
    ['Haiku', 'Haiku (user) — Answers as a haiku']
  ]) await expect(row(name)).toContainText(text)
  await expect(row('Haiku')).toContainText(haiku)
  const settingsFile = join(home, '.claude', 'settings.json')
  await expect(section.getByTestId('output-style-setting')).toContainText(`A choice here is saved to ${settingsFile}`)
  await snap(app, testInfo, 'output-styles-settings')

  await radio('Explanatory').click()
  await expect(section.getByRole('status')).toHaveText('Saved: Explanatory is used from the next turn.')
  await expect(radio('Explanatory')).toBeChecked()
  expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toEqual({ outputStyle: 'Explanatory' })

  await ui.pageButton(app, 'Chat').click()
  await send(app, 'second turn')
  await expect(ui.assistantMessages(app)).toHaveCount(2)
  await expectIdle(app)
  const explanatory = systemPrompt(fakeModel.chatRequests().at(-1)!.body)
  expect(explanatory).toContain('# Output style: Explanatory')
  expect(explanatory).toContain('Insight:')

  await settingsSection(app, 'Output style')
  await radio('Haiku').click()
  await expect(section.getByRole('status')).toHaveText('Saved: Haiku is used from the next turn.')
  await ui.pageButton(app, 'Chat').click()
  await send(app, 'third turn')
  await expect(ui.assistantMessages(app)).toHaveCount(3)
  await expectIdle(app)
  const haikuPrompt = systemPrompt(fakeModel.chatRequests().at(-1)!.body)
  expect(haikuPrompt).toContain('# Output style: Haiku\n\nAnswer every question as a haiku of three lines.')
  expect(haikuPrompt).not.toContain('Output style: Explanatory')
})

test('a settings file that is not JSON is not overwritten: the switch says why and names the file', async ({ app, tempRoot }) => {
  const settingsFile = join(tempRoot, 'home', '.claude', 'settings.json')
  await mkdir(join(tempRoot, 'home', '.claude'), { recursive: true })
  await writeFile(settingsFile, '{ "outputStyle": ')
  const section = await settingsSection(app, 'Output style')
  await expect(section.getByText(`${settingsFile}: not valid JSON`).first()).toBeVisible()
  await section.getByRole('radio', { name: 'Learning', exact: true }).click()
  await expect(section.getByRole('alert')).toContainText(`${settingsFile}: not valid JSON`)
  await expect(section.getByRole('alert')).toContainText('Seam will not overwrite it')
  expect(await readFile(settingsFile, 'utf8')).toBe('{ "outputStyle": ')
  await expect(section.getByRole('radio', { name: 'Default', exact: true })).toBeChecked()
})
