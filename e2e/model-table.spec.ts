// Issue 16, context budget: the model table is edited in Settings, and the chat header's context
// meter and session cost follow what was saved, from the next request on.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './support/seam-test'
import { expectIdle, saveSettings, send, settingsSection, ui } from './support/ui'

test('a context window and prices saved in Settings drive the context meter and the session cost', async ({ app, fakeModel }) => {
  fakeModel.respond(() => ({ text: 'Counted.', usage: { inputTokens: 500, outputTokens: 100 } }))

  const section = await settingsSection(app, 'Model & provider')
  const row = section.getByRole('form', { name: 'Model fake-model' })
  await expect(row.getByText('in use')).toBeVisible()
  await row.getByRole('textbox', { name: /Context window/ }).fill('1000')
  await row.getByRole('textbox', { name: /^Input/ }).fill('1000')
  await row.getByRole('textbox', { name: /^Output/ }).fill('1000')
  await expect(row.getByText('unsaved')).toBeVisible()
  await saveSettings(section)
  await expect(row.getByText('your values')).toBeVisible()

  // A price that is not a number is refused in place, naming the field (marked); nothing is saved.
  await row.getByRole('textbox', { name: /^Output/ }).fill('ten')
  await section.getByRole('group', { name: /^Save / }).getByRole('button', { name: 'Save', exact: true }).click()
  await expect(row.getByRole('alert')).toContainText('Output: "ten" is not a number')
  await expect(row.getByRole('textbox', { name: /^Output/ })).toHaveAttribute('aria-invalid', 'true')
  await row.getByRole('textbox', { name: /^Output/ }).fill('1000')
  await expect(row.getByText('unsaved')).toHaveCount(0)

  await ui.pageButton(app, 'Chat').click()
  await send(app, 'How many tokens?')
  await expect(ui.assistantMessages(app).last()).toContainText('Counted.')
  await expectIdle(app)
  // 600 of 1000 tokens; (500 + 100) tokens at $1000 per million = $0.60.
  const meter = app.getByLabel('Context and cost')
  await expect(meter.getByRole('meter', { name: 'Context window used' })).toHaveAttribute('aria-valuenow', '60')
  await expect(meter).toContainText('60% context · $0.60')

  // Back to the defaults: the model is unknown to Seam, so the next request has no price.
  await settingsSection(app, 'Model & provider')
  await row.getByRole('button', { name: 'Clear to the defaults' }).click()
  await saveSettings(section)
  await expect(row.getByText('your values')).toHaveCount(0)
})

test('automatic compaction can be switched off and its threshold changed', async ({ app, seamHome }) => {
  const section = await settingsSection(app, 'Model & provider')
  const form = section.getByRole('form', { name: 'Automatic compaction' })
  await form.getByRole('checkbox', { name: 'Compact automatically' }).uncheck()
  await form.getByRole('spinbutton').fill('65')
  await saveSettings(section)
  const settings = JSON.parse(await readFile(join(seamHome, 'settings.json'), 'utf8')) as { compaction: unknown }
  expect(settings.compaction).toEqual({ auto: false, threshold: 0.65 })
})
