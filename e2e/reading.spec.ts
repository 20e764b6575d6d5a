// Issue 17, "Reading": GitHub-flavoured Markdown from the model (a table renders as a table),
// code blocks highlighted in the theme of the colour scheme with a Copy button and sideways
// scrolling, and a send while scrolled up brings the new prompt and its reply into view.
import { lastUserText } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { inScheme } from './support/screens'
import { expectIdle, send, snap, ui } from './support/ui'

const LONG_LINE = `const wide = '${'x'.repeat(400)}'`
const ANSWER = [
  '| tool | status |',
  '| ---- | ------ |',
  '| Bash | ~~denied~~ done |',
  '',
  '- [x] tables',
  '- [ ] more',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  return a + b // sum',
  '}',
  LONG_LINE,
  '```'
].join('\n')

test('a GFM answer, light and dark, shows a table, task list and a highlighted code block whose Copy copies its text and whose long lines scroll', async ({ app, fakeModel }, testInfo) => {
  await app.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  fakeModel.respond(() => ({ text: ANSWER, chunkSize: 16, chunkDelayMs: 5 }))
  await send(app, 'show me a table and code')
  const answer = ui.assistantMessages(app).last()
  await expectIdle(app)

  const table = answer.getByRole('table')
  await expect(table.getByRole('columnheader')).toHaveText(['tool', 'status'])
  await expect(table.getByRole('cell')).toHaveText(['Bash', 'denied done'])
  await expect(table.locator('del')).toHaveText('denied')
  await expect(answer.getByRole('checkbox')).toHaveCount(2)

  const block = answer.locator('.md-code')
  await expect(block).toHaveAttribute('data-highlighted', 'true')
  // Tokenised in the highlighter's worker, not on the window's thread (a stream must not stall on it).
  expect(app.workers().map((worker) => worker.url()).some((url) => /highlight\.worker-[\w-]+\.js$/.test(url))).toBe(true)

  const pre = block.locator('pre')
  const box = await pre.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, ws: getComputedStyle(el).whiteSpace }))
  expect(box.ws).toBe('pre')
  expect(box.scroll).toBeGreaterThan(box.client)

  await block.getByRole('button', { name: 'Copy ts code' }).click()
  await expect(block.getByRole('button', { name: 'Copy ts code' })).toHaveText('Copied')
  const copied = await app.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain('return a + b // sum')
  expect(copied).toContain(LONG_LINE)

  // The keyword's colour is the theme's for each scheme (github light/dark default): a token
  // carries both, and the scheme in force picks one.
  const keyword = block.locator('code span[style]', { hasText: 'export' }).first()
  for (const [colorScheme, colour] of [['light', 'rgb(207, 34, 46)'], ['dark', 'rgb(255, 123, 114)']] as const) {
    await inScheme(app, colorScheme)
    expect(await keyword.evaluate((el) => getComputedStyle(el).color), colorScheme).toBe(colour)
    await snap(app, testInfo, `gfm-${colorScheme}`)
  }
})

test('sending while scrolled up brings the new prompt and its reply into view', async ({ app, fakeModel }, testInfo) => {
  const filler = (prompt: string) => [...Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a long answer.`), `End of ${prompt}.`].join('\n\n')
  fakeModel.respond((body) => {
    const prompt = lastUserText(body)
    return prompt.startsWith('last') ? { text: 'The final reply is here.' } : { text: filler(prompt) }
  })
  for (const prompt of ['first long one', 'second long one']) {
    await send(app, prompt)
    await expect(ui.assistantMessages(app).last()).toContainText(`End of ${prompt}.`)
    await expectIdle(app)
  }
  const log = ui.transcript(app)
  await log.evaluate((el) => el.scrollTo({ top: 0 }))
  await expect(app.getByRole('button', { name: 'Jump to latest' })).toBeVisible()

  await send(app, 'last question')
  await expect(ui.userMessages(app).filter({ hasText: 'last question' })).toBeInViewport()
  await expect(ui.assistantMessages(app).filter({ hasText: 'The final reply is here.' })).toBeInViewport()
  await expect(app.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)
  await snap(app, testInfo, 'send-while-scrolled-up')
})
