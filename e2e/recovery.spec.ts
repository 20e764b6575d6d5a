// Issue 17, "Recovering from errors": the provider's state apart from the host connection, a
// failed turn offering Retry with its prompt back in the composer, "Fix in settings" for a key
// the provider refuses, and a call to a tool that is not there shown as an error with its reason.
import { errorBody } from '../test-support/fake-openai.mjs'
import { isConnectionTest, trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

test('a 401 marks the provider as refusing (the host stays connected), returns the prompt, offers Fix in settings and Retry', async ({ app, fakeModel }, testInfo) => {
  let keyGood = false
  fakeModel.respond((body) => {
    if (isConnectionTest(body)) return { text: 'pong' }
    return keyGood ? { text: 'Answered after the fix.' } : { error: { status: 401, body: errorBody(401, 'Incorrect API key provided.') } }
  })
  const prompt = 'what is in this folder?'
  await send(app, prompt)
  const failed = ui.turnEnds(app).last()
  await expect(failed).toContainText('Turn failed')
  await expect(app.getByRole('status', { name: 'Connection' })).toHaveText('connected')
  await expect(app.getByRole('status', { name: 'Provider' })).toHaveText('fake-model: key refused')
  await expect(ui.composer(app)).toHaveValue(prompt)
  await snap(app, testInfo, 'turn-failed-401')

  await app.getByRole('button', { name: 'Fix in settings' }).click()
  await expect(app.getByRole('main', { name: 'Settings page' })).toBeVisible()
  await expect(app.getByLabel('API key')).toBeFocused()

  keyGood = true
  await ui.pageButton(app, 'Chat').click()
  await app.getByRole('button', { name: 'Retry' }).click()
  await expect(ui.assistantMessages(app).last()).toContainText('Answered after the fix.')
  await expectIdle(app)
  await expect(app.getByRole('status', { name: 'Provider' })).toHaveText('fake-model')
  // Retry sent the same prompt again, and took it out of the composer.
  expect(fakeModel.chatRequests().filter((r) => JSON.stringify(r.body.messages).includes(prompt)).length).toBeGreaterThanOrEqual(2)
  await expect(ui.composer(app)).toHaveValue('')
})

test.describe('a tool that is not there', () => {
  test.use({ seamSettings: { approvalMode: 'never-ask' } })

  test('is an error with the reason on its card, not a denial', async ({ app, fakeModel }) => {
    fakeModel.respond((body) => (trailingToolResults(body).length > 0 ? { text: 'ok' } : { toolCalls: [{ name: 'NoSuchTool', args: {} }] }))
    await send(app, 'use the missing tool')
    const card = ui.toolCards(app, 'NoSuchTool')
    await expect(card).toHaveAttribute('data-status', 'error')
    await expect(card.locator('.tool-status')).toContainText('Unknown tool "NoSuchTool"')
    await expectIdle(app)
  })
})
