// Issue 17, "A coherent visual system": axe-core on every screen (first-run setup, chat with tool
// cards and hook rows, the approval dialog, the trust dialog, settings, plugins, the hook
// inspector, the sessions sidebar), each in light and in dark: no serious and no critical violation.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { lastUserText, textOf, trailingToolResults } from './support/fake-model'
import { scaledTimeout } from './fixtures'
import { axeViolations, seriousOrCritical } from './support/axe'
import { expect, test as seamTest } from './support/seam-test'
import { inScheme } from './support/screens'
import { expectIdle, send, settingsSection, snap, ui } from './support/ui'

const test = seamTest.extend<{ workspaceFiles: Record<string, string> }>({
  workspaceFiles: [{}, { option: true }],
  hostEnv: async ({ hostEnv, workspace, workspaceFiles }, use) => {
    for (const [relative, content] of Object.entries(workspaceFiles)) {
      const target = resolve(workspace, relative)
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, content)
    }
    await use(hostEnv)
  }
})

/**
 * Runs axe on the page as it is, in light and then in dark (leaving it in light, where the flow
 * runs: the schemes differ in colours only); fails with each serious/critical rule, its nodes and
 * their summary. With `screenshot`, a screenshot in each scheme.
 */
async function expectAccessible(page: Page, testInfo: TestInfo, screen: string, { screenshot = false } = {}): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await inScheme(page, colorScheme)
    const name = `${screen}-${colorScheme}`
    const violations = await axeViolations(page)
    await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(violations, null, 2), contentType: 'application/json' })
    expect.soft(seriousOrCritical(violations), `axe on ${name}`).toEqual([])
    if (screenshot) await snap(page, testInfo, name)
  }
  await inScheme(page, 'light')
}

test.describe('first run', () => {
  test.use({ seamSetup: 'first-run' })

  test('the setup screen, light and dark, has no serious or critical axe violation', async ({ app }, testInfo) => {
    const setup = app.getByRole('main', { name: 'Set up Seam' })
    await expect(setup).toBeVisible()
    await expectAccessible(app, testInfo, 'setup')
    await setup.getByRole('button', { name: 'Type a path instead' }).click()
    await expect(setup.getByRole('textbox', { name: 'Workspace folder' })).toBeVisible()
    await expectAccessible(app, testInfo, 'setup-path')
  })
})

test.describe('configured', () => {
  test.use({
    workspaceFiles: {
      '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null' }] }] } })
    }
  })

  test('chat, approval, trust, settings, plugins, hook inspector and sessions, light and dark, have no serious or critical axe violation', async ({ app, fakeModel }, testInfo) => {
    test.setTimeout(scaledTimeout(120_000))
    fakeModel.respond((body) => {
      const results = trailingToolResults(body)
      if (lastUserText(body) === 'second session') return { text: 'A plain answer.' }
      if (results.length > 0) return { text: `Done: **${results.map(textOf).join(' ')}**\n\n\`\`\`sh\necho ok\n\`\`\`` }
      return { toolCalls: [{ name: 'Bash', args: { command: 'echo a11y' } }] }
    })
    await expect(ui.composer(app)).toBeVisible()
    await expectAccessible(app, testInfo, 'chat-empty')

    // The trust dialog (the workspace declares a hook), then trust it so the hook runs.
    const banner = app.getByRole('region', { name: 'Workspace trust' })
    await banner.getByRole('button', { name: 'Review…' }).click()
    const trust = app.getByRole('dialog', { name: 'Trust this workspace?' })
    await expect(trust).toBeVisible()
    await expectAccessible(app, testInfo, 'trust-dialog')
    await trust.getByRole('button', { name: /^Trust/ }).click()
    await expect(trust).toHaveCount(0)

    await send(app, 'run something')
    const dialog = ui.approvalDialog(app)
    await expect(dialog).toBeVisible()
    await expectAccessible(app, testInfo, 'approval')
    await dialog.getByRole('button', { name: 'Allow once' }).click()
    await expect(ui.toolCards(app, 'Bash')).toHaveAttribute('data-status', 'done')
    await expect(ui.assistantMessages(app).last()).toContainText('Done:')
    await expectIdle(app)
    await expect(ui.assistantMessages(app).last().locator('.md-code')).toHaveAttribute('data-highlighted', 'true')
    // The PreToolUse hook's row sits above the card of the call it ran before.
    const order = await ui.transcript(app).locator('.hook-row, article.tool-card').evaluateAll((els) => els.map((el) => el.tagName))
    expect(order).toEqual(['BUTTON', 'ARTICLE'])
    await expectAccessible(app, testInfo, 'chat-turn', { screenshot: true })

    await ui.pageButton(app, 'Hooks').click()
    const inspector = app.getByRole('complementary', { name: 'Hook inspector' })
    await expect(inspector).toBeVisible()
    await inspector.locator('details.hook-invocation summary').first().click()
    await expectAccessible(app, testInfo, 'hook-inspector', { screenshot: true })
    await ui.pageButton(app, 'Hooks').click()

    await ui.pageButton(app, 'Settings').click()
    await expect(app.getByRole('main', { name: 'Settings page' })).toBeVisible()
    await expectAccessible(app, testInfo, 'settings', { screenshot: true })
    // The plugin tree with an entry open (its tools), and the Advanced limits shown.
    await settingsSection(app, 'Plugin tree')
    await app.getByRole('tree', { name: 'Plugin tree' }).getByRole('treeitem', { name: /^builtin-tools / }).focus()
    await app.keyboard.press('ArrowRight')
    await expect(app.getByRole('treeitem', { name: /^Read tool/ })).toBeVisible()
    await expectAccessible(app, testInfo, 'settings-tree')

    await ui.pageButton(app, 'Plugins').click()
    await expect(app.getByRole('main', { name: 'Plugins page' })).toBeVisible()
    await expectAccessible(app, testInfo, 'plugins', { screenshot: true })

    // Sessions: a second session, the first hovered while the second is active.
    await ui.pageButton(app, 'Chat').click()
    await app.getByRole('button', { name: 'New session', exact: true }).click()
    await send(app, 'second session')
    await expect(ui.sessionRows(app)).toHaveCount(2)
    await expect(ui.assistantMessages(app).last()).toContainText('A plain answer.')
    await ui.sessionRows(app).last().hover()
    await expectAccessible(app, testInfo, 'sessions')
    // The active row does not look like the hovered one.
    const look = (i: number) => ui.sessionRows(app).nth(i).evaluate((el) => `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).boxShadow}`)
    const [active, hovered] = [await look(0), await look(1)]
    expect(active).not.toBe(hovered)
    // A content search (its snippet with the word marked), then the session opened at the match.
    await app.getByRole('searchbox', { name: 'Search sessions' }).fill('echo')
    await expect(ui.sessionRows(app)).toHaveCount(1)
    await expect(ui.sessionRows(app).first().locator('mark').first()).toBeVisible()
    await expectAccessible(app, testInfo, 'sessions-search')
    await ui.sessionRows(app).first().getByRole('button').first().click()
    await expect(ui.transcript(app).locator('[data-search-hit]')).toBeVisible()
    await expectAccessible(app, testInfo, 'search-hit')
  })
})

// The checkpoint screens (issue 17, "Reviewing changes"): a turn's changes card with a diff open,
// the revert dialog for a file that changed since, and rewound rows with their marker.
test.describe('checkpoints', () => {
  test.use({ seamSettings: { approvalMode: 'never-ask' } })

  test('the changes card, the revert dialog and a rewound conversation, light and dark, have no serious or critical axe violation', async ({ app, fakeModel, workspace }, testInfo) => {
    const file = resolve(workspace, 'notes.md')
    await writeFile(file, 'one\ntwo\n')
    fakeModel.respond((body) =>
      trailingToolResults(body).length > 0 ? { text: 'Edited.' } : { toolCalls: [{ name: 'Edit', args: { file_path: file, old_string: 'two', new_string: 'TWO' } }] }
    )
    await send(app, 'edit the notes')
    const card = app.getByRole('region', { name: 'Files changed in this turn' })
    await expect(card).toBeVisible()
    await expectIdle(app)
    await card.getByRole('listitem', { name: 'Changed file notes.md' }).locator('summary').click()
    await expectAccessible(app, testInfo, 'changes-card')

    await writeFile(file, 'one\nTWO\nthree\n')
    await card.getByRole('button', { name: 'Revert notes.md' }).click()
    const revert = app.getByRole('dialog', { name: 'Revert changes' })
    await expect(revert).toBeVisible()
    await expectAccessible(app, testInfo, 'revert-dialog')
    await revert.getByRole('button', { name: 'Revert anyway' }).click()
    await expect(revert).toHaveCount(0)

    await ui.userMessages(app).first().getByRole('button', { name: 'Rewind to this message' }).click()
    const rewind = app.getByRole('dialog', { name: 'Rewind the conversation' })
    await expect(rewind).toBeVisible()
    await expectAccessible(app, testInfo, 'rewind-dialog')
    await rewind.getByRole('button', { name: 'Rewind', exact: true }).click()
    await expect(app.getByRole('note', { name: 'Rewind' })).toBeVisible()
    await expectAccessible(app, testInfo, 'rewound')
  })
})
