// Issue 16, context budget: the model table is edited in Settings, and the chat header's context
// meter and session cost follow what was saved, from the next request on.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './support/seam-test'
import { expectIdle, send, ui } from './support/ui'

test('a context window and prices saved in Settings drive the context meter and the session cost', async ({ app, fakeModel }) => {
  fakeModel.respond(() => ({ text: 'Counted.', usage: { inputTokens: 500, outputTokens: 100 } }))

  await ui.pageButton(app, 'Settings').click()
  const row = app.getByRole('form', { name: 'Model fake-model' })
  await expect(row.getByText('in use')).toBeVisible()
  await row.getByRole('textbox', { name: /Context window/ }).fill('1000')
  await row.getByRole('textbox', { name: /^Input/ }).fill('1000')
  await row.getByRole('textbox', { name: /^Output/ }).fill('1000')
  await row.getByRole('button', { name: 'Save' }).click()
  await expect(row.getByRole('status')).toHaveText('Saved.')
  await expect(row.getByText('your values')).toBeVisible()

  // A price that is not a number is refused in place, naming the field; nothing is saved.
  await row.getByRole('textbox', { name: /^Output/ }).fill('ten')
  await row.getByRole('button', { name: 'Save' }).click()
  await expect(row.getByRole('alert')).toContainText('Output: "ten" is not a number')
  await row.getByRole('textbox', { name: /^Output/ }).fill('1000')

  await ui.pageButton(app, 'Chat').click()
  await send(app, 'How many tokens?')
  await expect(ui.assistantMessages(app).last()).toContainText('Counted.')
  await expectIdle(app)
  // 600 of 1000 tokens; (500 + 100) tokens at $1000 per million = $0.60.
  const meter = app.getByLabel('Context and cost')
  await expect(meter.getByRole('meter', { name: 'Context window used' })).toHaveAttribute('aria-valuenow', '60')
  await expect(meter).toContainText('60% context · $0.60')

  // Back to the defaults: the model is unknown to Seam, so the next request has no price.
  await ui.pageButton(app, 'Settings').click()
  await row.getByRole('button', { name: 'Use defaults' }).click()
  await expect(row.getByRole('status')).toHaveText('Back to the defaults.')
  await expect(row.getByText('your values')).toHaveCount(0)
})

test('automatic compaction can be switched off and its threshold changed', async ({ app, seamHome }) => {
  await ui.pageButton(app, 'Settings').click()
  const form = app.getByRole('form', { name: 'Automatic compaction' })
  await form.getByRole('checkbox', { name: 'Compact automatically' }).uncheck()
  await form.getByRole('spinbutton').fill('65')
  await form.getByRole('button', { name: 'Save compaction' }).click()
  await expect(form.getByRole('status')).toHaveText('Compaction saved.')
  const settings = JSON.parse(await readFile(join(seamHome, 'settings.json'), 'utf8')) as { compaction: unknown }
  expect(settings.compaction).toEqual({ auto: false, threshold: 0.65 })
})
