// Issue 31, one visual system, on every screen (1280x800 and 800x600, each state in light and dark): empty states
// that say what to do (the transcript, the tasks panel asked for before any task, no workspace
// chosen, a search that finds nothing); tool cards as one line (icon, tool, target, result) that open with the
// keyboard, a failed call open by itself with its error in the danger colour; prose no wider than
// a readable measure while a code block takes the row's width; colours from the tokens of the
// scheme in force. axe and the no-wider-than-the-window check on each.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectSchemesOk, inScheme, onScreen, SIZES, sizeName } from './support/screens'
import { expectIdle, send, ui } from './support/ui'

const LONG_LINE = `const everything = [${Array.from({ length: 40 }, (_, i) => `'item-${i}'`).join(', ')}]`
const PROSE = Array.from({ length: 12 }, () => 'The answer reads in lines of a comfortable length, however wide the window is.').join(' ')

test.describe('first run', () => {
  test.use({ seamSetup: 'first-run' })
  for (const size of SIZES) {
    test(`no workspace at ${sizeName(size)}, light and dark: says what the folder is for and offers to pick one`, async ({ app }, testInfo) => {
      await onScreen(app, { ...size, colorScheme: 'light' })
      const none = app.getByRole('main', { name: 'Set up Seam' }).getByRole('region', { name: 'No workspace' })
      await expect(none).toContainText('No workspace folder chosen.')
      await expect(none).toContainText('only inside the folder you pick')
      await expect(none.locator('svg').first()).toHaveAttribute('aria-hidden', 'true')
      await expectSchemesOk(app, testInfo, `no-workspace-${sizeName(size)}`)
      // The action is in the empty state itself: here (web mode) it opens the host's folder browser.
      await none.getByRole('button', { name: 'Choose folder…' }).click()
      await expect(app.getByRole('dialog', { name: 'Choose a folder' })).toBeVisible()
    })
  }
})

for (const size of SIZES) {
  test(`visual system at ${sizeName(size)}, light and dark: empty states, one-line tool cards, readable widths`, async ({ app, fakeModel, workspace }, testInfo) => {
    const name = sizeName(size)
    await onScreen(app, { ...size, colorScheme: 'light' })
    await writeFile(join(workspace, 'notes.txt'), 'one\ntwo\nthree')

    // No session yet: the transcript says what to do.
    const empty = ui.transcript(app).locator('.empty-state')
    await expect(empty).toContainText('Nothing here yet.')
    await expect(empty).toContainText('Write a message below to start')
    await expect(empty.locator('svg')).toHaveAttribute('aria-hidden', 'true')
    await expectSchemesOk(app, testInfo, `empty-${name}`)

    // The tasks panel asked for (the palette) before any task: what appears there and how to start one.
    await app.keyboard.press('Control+k')
    const palette = app.getByRole('dialog', { name: 'Command palette' })
    await palette.getByRole('combobox', { name: 'Command' }).fill('Background tasks')
    await palette.getByRole('option', { name: 'Background tasks' }).click()
    const tasks = app.getByRole('region', { name: 'Background tasks' })
    const noTasks = tasks.locator('.empty-state')
    await expect(noTasks).toContainText('No background tasks yet.')
    await expect(noTasks).toContainText('run_in_background')
    await expect(noTasks).toContainText('ask for it in a message')
    await expect(noTasks.locator('svg')).toHaveAttribute('aria-hidden', 'true')
    await expectSchemesOk(app, testInfo, `no-tasks-${name}`)
    await tasks.getByRole('button', { name: 'Hide tasks' }).click()
    await expect(tasks).toHaveCount(0)

    fakeModel.respond((body) =>
      trailingToolResults(body).length > 0
        ? { text: `${PROSE}\n\n\`\`\`ts\n${LONG_LINE}\n\`\`\`\n` }
        : { toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'notes.txt') } }, { name: 'Read', args: { file_path: join(workspace, 'missing.txt') } }] }
    )
    await send(app, 'read the notes')
    await expect(ui.assistantMessages(app).last()).toContainText('comfortable length')
    await expectIdle(app)

    // `/tasks` in the message box answers in the log and opens the panel: still empty, it says so.
    await send(app, '/tasks')
    await expect(tasks.locator('.empty-state')).toContainText('No background tasks yet.')
    await tasks.getByRole('button', { name: 'Hide tasks' }).click()
    await expect(tasks).toHaveCount(0)

    // A finished call: one line, closed; its target is relative to the workspace, its result counted.
    const [done, failed] = [ui.toolCards(app, 'Read').first(), ui.toolCards(app, 'Read').nth(1)]
    await expect(done).toHaveAttribute('data-status', 'done')
    const line = done.locator('button.tool-head')
    await expect(line).toHaveAttribute('aria-expanded', 'false')
    await expect(line.locator('.tool-summary')).toHaveText('notes.txt')
    await expect(line.locator('.tool-outcome')).toHaveText('3 lines')
    await expect(done.getByLabel('Tool result')).toHaveCount(0)
    const oneLine = await line.evaluate((el) => el.getBoundingClientRect().height)
    expect(oneLine, 'the closed card is one line high').toBeLessThan(40)

    // The failed call is open by itself, its error in the danger colour of each scheme, on that
    // scheme's background (its tokens in force).
    await expect(failed).toHaveAttribute('data-status', 'error')
    await expect(failed.locator('button.tool-head')).toHaveAttribute('aria-expanded', 'true')
    await expect(failed.getByLabel('Tool result')).toBeVisible()
    for (const colorScheme of ['dark', 'light'] as const) {
      await inScheme(app, colorScheme)
      const colours = await failed.locator('.tool-outcome').evaluate((el) => {
        const probe = document.createElement('span')
        probe.style.color = 'var(--danger)'
        document.body.append(probe)
        const danger = getComputedStyle(probe).color
        probe.remove()
        return { outcome: getComputedStyle(el).color, danger, background: getComputedStyle(document.body).backgroundColor }
      })
      expect(colours.outcome, colorScheme).toBe(colours.danger)
      expect(colours.background, colorScheme).toBe(colorScheme === 'dark' ? 'rgb(22, 24, 28)' : 'rgb(247, 247, 245)')
    }

    // Keyboard: Enter opens the line, Space closes it.
    await line.focus()
    await line.press('Enter')
    await expect(line).toHaveAttribute('aria-expanded', 'true')
    await expect(done.getByLabel('Tool result')).toContainText('two')
    await expectSchemesOk(app, testInfo, `cards-${name}`)
    await line.press(' ')
    await expect(line).toHaveAttribute('aria-expanded', 'false')

    // Prose stops near 76 characters a line; the code block takes the row and scrolls its long line.
    const widths = await ui.assistantMessages(app).last().evaluate((message) => {
      const paragraph = message.querySelector('.markdown p')!
      const code = message.querySelector('.md-code')!
      const pre = code.querySelector('pre')!
      const ch = document.createElement('span')
      ch.style.cssText = 'position:absolute;visibility:hidden;width:1ch'
      paragraph.append(ch)
      const chPx = ch.getBoundingClientRect().width
      ch.remove()
      return { paragraphCh: paragraph.getBoundingClientRect().width / chPx, paragraph: paragraph.getBoundingClientRect().width, code: code.getBoundingClientRect().width, scrolls: pre.scrollWidth > pre.clientWidth }
    })
    expect(widths.paragraphCh).toBeLessThanOrEqual(80)
    expect(widths.code).toBeGreaterThanOrEqual(widths.paragraph)
    if (size.width >= 1280) expect(widths.code).toBeGreaterThan(widths.paragraph)
    expect(widths.scrolls, 'the long code line scrolls instead of widening the page').toBe(true)

    // An empty search says what to try.
    const search = app.getByRole('searchbox', { name: 'Search sessions' })
    if (await search.isVisible()) {
      await search.fill('zzz-nothing-like-this')
      const none = ui.sessionList(app).locator('.empty-state')
      await expect(none).toContainText('No session matches “zzz-nothing-like-this”.')
      await expect(none).toContainText('try fewer or other words')
      await expectSchemesOk(app, testInfo, `no-match-${name}`)
    }
  })
}
