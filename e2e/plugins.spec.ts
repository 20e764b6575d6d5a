// Issue 7: the example bundle (examples/word-count, built by scripts/build-example.mjs) installed
// through the plugin manager, used by a model turn (its WordCount tool, its result renderer, its
// sidebar panel), then disabled: its UI disappears at once.
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { repoRoot, scaledTimeout } from './fixtures'
import { trailingToolResults, textOf } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

const BUNDLE = 'seam-example-word-count'
const BUILD_SCRIPT = join(repoRoot, 'scripts', 'build-example.mjs')

interface BuildExample {
  buildExample(options: { outDir: string }): Promise<{ tgz: string; dir: string }>
}

let outDir = ''
let tgz = ''

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(scaledTimeout(120_000))
  // The build script may still be on its way (another part of the project writes it).
  await expect.poll(() => existsSync(BUILD_SCRIPT), { message: `${BUILD_SCRIPT} should exist`, timeout: 60_000 }).toBe(true)
  const { buildExample } = (await import(pathToFileURL(BUILD_SCRIPT).href)) as BuildExample
  outDir = await mkdtemp(join(tmpdir(), 'seam-e2e-example-'))
  tgz = (await buildExample({ outDir })).tgz
})

test.afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

test('install the example bundle from the plugin manager, use its tool and UI, disable it', async ({ app, fakeModel, workspace }, testInfo) => {
  await writeFile(join(workspace, 'notes.txt'), 'one two three\nfour five\n')
  fakeModel.respond((body) => {
    const results = trailingToolResults(body)
    if (results.length > 0) return { text: `Counted: ${results.map(textOf).join(' ')}` }
    return { toolCalls: [{ name: 'WordCount', args: { file_path: 'notes.txt' } }] }
  })

  // Install: the path is inspected, the dialog lists what the bundle declares and warns.
  await ui.pageButton(app, 'Plugins').click()
  const pluginsPage = app.getByRole('main', { name: 'Plugins page' })
  await pluginsPage.getByRole('textbox', { name: 'Bundle path' }).fill(tgz)
  await pluginsPage.getByRole('button', { name: 'Install from file…' }).click()
  const dialog = app.getByRole('dialog', { name: 'Install plugin bundle' })
  await expect(dialog).toBeVisible()
  await expect(dialog.locator('dd').nth(0)).toHaveText(BUNDLE)
  await expect(dialog.locator('dd').nth(1)).toHaveText('1.0.0')
  await expect(dialog.locator('dd').nth(3)).toHaveText('dist/host.js')
  await expect(dialog.locator('dd').nth(4)).toHaveText('dist/client.js')
  await expect(dialog.getByRole('note')).toContainText('trusted code')
  await snap(app, testInfo, 'install-dialog')
  await dialog.getByRole('button', { name: 'Install', exact: true }).click()
  await expect(dialog).toHaveCount(0)
  await expect(pluginsPage.getByRole('status')).toHaveText(`Installed ${BUNDLE} 1.0.0.`)
  const row = pluginsPage.getByRole('row', { name: BUNDLE, exact: true })
  await expect(row).toContainText('active')
  await expect(row).toContainText('host + client')

  // Its client part adds a sidebar panel right away.
  const panel = app.getByTestId('word-count-panel')
  await expect(panel).toBeVisible()
  await expect(panel.getByTestId('word-count-runs')).toHaveText('0')
  await snap(app, testInfo, 'installed')

  // A model turn calls its tool; the result shows through the bundle's renderer.
  await ui.pageButton(app, 'Chat').click()
  await send(app, 'count the words in notes.txt')
  const card = ui.toolCards(app, 'WordCount')
  await expect(card).toHaveAttribute('data-status', 'done')
  const rendered = card.getByTestId('word-count-result')
  await expect(rendered).toBeVisible()
  await expect(rendered.locator('caption')).toHaveText('notes.txt')
  await expect(rendered.locator('[data-field="lines"]')).toHaveText('2')
  await expect(rendered.locator('[data-field="words"]')).toHaveText('5')
  await expect(ui.assistantMessages(app).last()).toContainText('Counted: notes.txt: 2 lines, 5 words')
  await expectIdle(app)
  await expect(panel.getByTestId('word-count-runs')).toHaveText('1')
  expect(fakeModel.chatRequests()[0].body.tools?.map((t) => t.function.name)).toContain('WordCount')
  await snap(app, testInfo, 'tool-result-rendered')

  // Disabled: its panel and its renderer go at once; the card falls back to the plain result.
  await ui.pageButton(app, 'Plugins').click()
  await row.getByRole('switch', { name: `${BUNDLE} enabled` }).click()
  const confirm = app.getByRole('dialog', { name: `Turn off ${BUNDLE}?` })
  await expect(confirm).toContainText(`Stops the bundle ${BUNDLE} 1.0.0 (host + client) and removes its tools: WordCount.`)
  await expect(confirm).toContainText('Its panels and result views disappear at once.')
  await confirm.getByRole('button', { name: `Turn off ${BUNDLE}` }).click()
  await expect(row).toContainText('disabled')
  await expect(panel).toHaveCount(0)
  await snap(app, testInfo, 'disabled')
  await ui.pageButton(app, 'Chat').click()
  await expect(card).toHaveAttribute('data-status', 'done')
  await expect(app.getByTestId('word-count-result')).toHaveCount(0)
  await ui.openToolCard(card)
  await expect(card.getByLabel('Tool result')).toContainText('notes.txt: 2 lines, 5 words')
  await snap(app, testInfo, 'disabled-chat')
})
