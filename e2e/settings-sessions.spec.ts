// Issue 17, "Working fast" (sessions; settings) and "Reading" (sending while scrolled up): content
// search finds a session by a word only in a reply and opens it at the match; the plugin tree's
// switch takes a plugin's tools out of the next model request and puts them back; the YAML stays
// behind its toggle; an empty workspace shows no "untrusted"; the open row is marked apart from a
// hovered one.
import type { Page } from '@playwright/test'
import { lastUserText } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, settingsSection, snap, ui } from './support/ui'

const filler = (prompt: string) => [...Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a long answer.`), `End of ${prompt}.`].join('\n\n')

const searchBox = (app: Page) => app.getByRole('searchbox', { name: 'Search sessions' })

test('content search finds a session by a word only in a reply, opens it at that reply; sending from there shows the new prompt', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond((body) => {
    const prompt = lastUserText(body)
    if (prompt === 'where should we go') return { text: 'We should visit Zanzibar in June.' }
    if (prompt === 'one more thing') return { text: 'Noted, that is all.' }
    return { text: filler(prompt) }
  })
  // Session 1: the word is in the first reply only; long turns after it push it far up.
  await send(app, 'where should we go')
  await expect(ui.assistantMessages(app).last()).toContainText('Zanzibar')
  await expectIdle(app)
  for (const prompt of ['first long one', 'second long one']) {
    await send(app, prompt)
    await expect(ui.assistantMessages(app).last()).toContainText(`End of ${prompt}.`)
    await expectIdle(app)
  }
  // Session 2, open now.
  await app.getByRole('button', { name: 'New session', exact: true }).click()
  await send(app, 'another topic')
  await expect(ui.assistantMessages(app).last()).toContainText('End of another topic.')
  await expectIdle(app)
  await expect(ui.sessionRows(app)).toHaveCount(2)

  // The open row is marked (aria-current) and looks unlike a hovered one.
  await expect(ui.sessionButton(app, 'another topic')).toHaveAttribute('aria-current', 'true')
  await expect(ui.sessionButton(app, 'where should we go')).not.toHaveAttribute('aria-current', 'true')
  await ui.sessionRow(app, 'where should we go').hover()
  const look = (title: string) => ui.sessionRow(app, title).evaluate((el) => `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).boxShadow}`)
  expect(await look('another topic')).not.toBe(await look('where should we go'))

  // "zanzibar" is in no title and no prompt: only the content search finds it, with a snippet.
  await searchBox(app).fill('zanzibar')
  await expect(ui.sessionRows(app)).toHaveCount(1)
  const row = ui.sessionRow(app, 'where should we go')
  await expect(row).toContainText('We should visit Zanzibar in June.')
  await expect(row.locator('mark')).toHaveText('Zanzibar')
  await expect(app.getByRole('status').filter({ hasText: '1 session matches' })).toHaveCount(1)
  await snap(app, testInfo, 'content-search')

  // Opening it scrolls to the reply that matched (not the bottom) and marks it.
  await ui.sessionButton(app, 'where should we go').click()
  await expect(ui.sessionButton(app, 'where should we go')).toHaveAttribute('aria-current', 'true')
  const hit = ui.assistantMessages(app).filter({ hasText: 'Zanzibar' })
  await expect(hit).toBeInViewport()
  await expect(ui.transcript(app).locator('[data-search-hit]')).toContainText('Zanzibar')
  await expect(app.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
  expect(await app.evaluate(() => (globalThis as unknown as { CSS: { highlights: Map<string, unknown> } }).CSS.highlights.has('seam-search'))).toBe(true)
  await snap(app, testInfo, 'opened-at-match')

  // A word nowhere: no row; clearing the search lists both again.
  await searchBox(app).fill('nowhere-to-be-found')
  await expect(ui.sessionList(app)).toContainText('No session matches')
  await searchBox(app).fill('')
  await expect(ui.sessionRows(app)).toHaveCount(2)

  // Scrolled up at the match, a new prompt and its reply still come into view.
  await send(app, 'one more thing')
  await expect(ui.userMessages(app).filter({ hasText: 'one more thing' })).toBeInViewport()
  await expect(ui.assistantMessages(app).filter({ hasText: 'Noted, that is all.' })).toBeInViewport()
  await expect(app.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)
})

test('the plugin tree: switching an entry off removes its tools from the next model request, on brings them back; YAML behind its toggle', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond((body) => ({ text: `ok: ${lastUserText(body)}` }))
  /** Sends a prompt and returns the tool names of the model request it made. */
  const toolsOffered = async (prompt: string) => {
    await send(app, prompt)
    await expect(ui.assistantMessages(app).last()).toContainText(`ok: ${prompt}`)
    await expectIdle(app)
    const request = fakeModel.chatRequests().findLast((r) => lastUserText(r.body) === prompt)
    expect(request, `a model request for "${prompt}"`).toBeDefined()
    return (request?.body.tools ?? []).map((tool) => tool.function.name)
  }

  expect(await toolsOffered('first')).toContain('Read')

  const settings = await settingsSection(app, 'Plugin tree')
  const tree = settings.getByRole('tree', { name: 'Plugin tree' })
  const entry = tree.getByRole('treeitem', { name: /^builtin-tools / })
  await expect(entry).toContainText('loaded')
  await expect(entry).toContainText('from built-in profile')
  // Keyboard: expand the entry to list its tools.
  await entry.focus()
  await app.keyboard.press('ArrowRight')
  await expect(entry).toHaveAttribute('aria-expanded', 'true')
  await expect(tree.getByRole('treeitem', { name: /^Read tool/ })).toBeVisible()
  await snap(app, testInfo, 'plugin-tree')

  const toggle = entry.getByRole('switch', { name: 'builtin-tools enabled' })
  await toggle.click()
  // builtin-tools provides every built-in tool: switching it off is confirmed first (issue 31).
  const confirm = app.getByRole('dialog', { name: 'Turn off builtin-tools?' })
  await expect(confirm).toContainText('Every built-in tool')
  await confirm.getByRole('button', { name: 'Turn off builtin-tools' }).click()
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  await expect(entry).toContainText('disabled')
  await expect(entry).toContainText('from your patch file')

  // The YAML of the composed tree, behind its toggle, says the same.
  await settings.getByRole('button', { name: 'View as YAML' }).click()
  const yaml = settings.getByLabel('Plugin tree as YAML')
  await expect(yaml).toContainText(/id: builtin-tools\s+plugin: builtin:builtin-tools\s+disabled: true/)
  await expect(tree).toHaveCount(0)
  await settings.getByRole('button', { name: 'View as YAML' }).click()
  await expect(yaml).toHaveCount(0)

  await ui.pageButton(app, 'Chat').click()
  const without = await toolsOffered('second')
  expect(without).not.toContain('Read')
  expect(without).not.toContain('Bash')

  await ui.pageButton(app, 'Settings').click()
  await tree.getByRole('treeitem', { name: /^builtin-tools / }).getByRole('switch', { name: 'builtin-tools enabled' }).click()
  await expect(tree.getByRole('treeitem', { name: /^builtin-tools / }).getByRole('switch')).toHaveAttribute('aria-checked', 'true')
  await ui.pageButton(app, 'Chat').click()
  expect(await toolsOffered('third')).toContain('Read')
})

test('an empty workspace shows no "untrusted" badge and no trust verdict; advanced limits sit in their own section', async ({ app }, testInfo) => {
  await expect(ui.composer(app)).toBeVisible()
  const header = app.locator('header.app-header')
  await expect(header.getByLabel('Workspace')).not.toHaveText('no workspace')
  await expect(header).not.toContainText('untrusted')
  await expect(app.getByRole('region', { name: 'Workspace trust' })).toHaveCount(0)

  const settings = await settingsSection(app, 'Workspace & trust')
  await expect(settings).toContainText('Nothing in this workspace needs trust')
  await expect(settings).not.toContainText('not trusted')
  const limits = app.getByRole('spinbutton', { name: 'Max steps per turn' })
  await expect(limits).toHaveCount(0)
  await settingsSection(app, 'Advanced')
  await expect(limits).toBeVisible()
  await snap(app, testInfo, 'settings-empty-workspace')
})
