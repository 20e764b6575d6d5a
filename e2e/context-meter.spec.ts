// Issue 16, context budget: after a turn whose response reported usage, the chat header's
// context meter shows how full the model's context window is and what the session cost, from the
// model table in settings.json (context window and prices per million tokens).
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

test.use({ seamSettings: { models: { 'fake-model': { contextWindow: 1000, prices: { input: 10, output: 20 } } } } })

test('the header shows the context fill and the cost after a turn with reported usage', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond(() => ({ text: 'Counted.', usage: { inputTokens: 400, outputTokens: 100 } }))
  await expect(app.getByLabel('Context and cost')).toHaveCount(0)
  await send(app, 'how full is it?')
  await expect(ui.assistantMessages(app).last()).toContainText('Counted.')
  await expectIdle(app)

  const meter = app.getByRole('meter', { name: 'Context window used' })
  // 400 prompt + 100 answer tokens of a 1000-token window.
  await expect(meter).toHaveAttribute('aria-valuenow', '50')
  // 400 × $10 + 100 × $20 per million tokens.
  await expect(app.getByLabel('Context and cost')).toContainText('50% context · <$0.01')
  await expect(app.getByLabel('Context and cost')).toHaveAttribute('title', /Cost: \$0\.006000/)
  await snap(app, testInfo, 'context-meter')
})
