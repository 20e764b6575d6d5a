// Locators and small actions on Seam's UI, by role and accessible name (see src-renderer), shared
// by the specs. Everything waits through Playwright's auto-waiting assertions, never sleeps.
import type { Locator, Page, TestInfo } from '@playwright/test'
import { expect } from '../fixtures'

export const ui = {
  composer: (page: Page): Locator => page.getByRole('textbox', { name: 'Message' }),
  transcript: (page: Page): Locator => page.getByRole('log', { name: 'Transcript' }),
  stopButton: (page: Page): Locator => page.getByRole('button', { name: 'Stop', exact: true }),
  /** The "Working…" line shown while the agent runs a turn. */
  working: (page: Page): Locator => page.getByRole('status').filter({ hasText: /^Working…/ }),
  userMessages: (page: Page): Locator => page.getByRole('log', { name: 'Transcript' }).getByLabel('Your message', { exact: true }),
  assistantMessages: (page: Page): Locator => page.getByRole('log', { name: 'Transcript' }).getByLabel('Assistant message', { exact: true }),
  toolCards: (page: Page, tool: string): Locator => page.getByRole('article', { name: `Tool call ${tool}`, exact: true }),
  /** Opens a tool card (one line until opened, unless it failed, waits or was denied) by its line's button. */
  openToolCard: async (card: Locator): Promise<void> => {
    const line = card.locator('button.tool-head')
    if ((await line.getAttribute('aria-expanded')) === 'false') await line.click()
    await expect(line).toHaveAttribute('aria-expanded', 'true')
  },
  turnEnds: (page: Page): Locator => page.getByRole('note', { name: 'Turn end', exact: true }),
  approvalDialog: (page: Page): Locator => page.getByRole('dialog', { name: 'Approve tool call' }),
  sessionList: (page: Page): Locator => page.getByRole('list', { name: 'Session list' }),
  /** Session rows (a workspace's heading row has no button, so it is left out). */
  sessionRows: (page: Page): Locator => page.getByRole('list', { name: 'Session list' }).getByRole('listitem').filter({ has: page.getByRole('button') }),
  /** The button that opens a session, by the session's title (its name is the title, then the time and event count). */
  sessionButton: (page: Page, title: string): Locator =>
    page.getByRole('list', { name: 'Session list' }).getByRole('button', { name: sessionButtonName(title) }),
  /** A session's row in the sidebar (its Rename/Delete buttons show on hover or focus). */
  sessionRow: (page: Page, title: string): Locator =>
    page.getByRole('list', { name: 'Session list' }).getByRole('listitem').filter({ has: page.getByRole('button', { name: sessionButtonName(title) }) }),
  pageButton: (page: Page, name: 'Chat' | 'Settings' | 'Plugins' | 'Hooks'): Locator =>
    page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name, exact: true })
}

/** Opens Settings at a section (its tab in the section nav) and returns the section shown. */
export async function settingsSection(page: Page, title: string): Promise<Locator> {
  const main = page.getByRole('main', { name: 'Settings page' })
  if (!(await main.isVisible())) await ui.pageButton(page, 'Settings').click()
  const tab = main.getByRole('tab', { name: title, exact: true })
  await tab.click()
  await expect(tab).toHaveAttribute('aria-selected', 'true')
  return main.getByRole('tabpanel', { name: title })
}

/** Saves a settings section with its one Save button, and waits until it says so. */
export async function saveSettings(section: Locator): Promise<void> {
  const bar = section.getByRole('group', { name: /^Save / })
  await bar.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(bar.getByRole('status')).toHaveText('All changes saved')
}

/** Clicks a session row's Rename or Delete button (shown while the row is hovered). */
export async function sessionAction(page: Page, title: string, action: 'Rename' | 'Delete'): Promise<void> {
  const row = ui.sessionRow(page, title)
  await row.hover()
  await row.getByRole('button', { name: `${action} ${title}`, exact: true }).click()
}

/** Types a message into the composer and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const box = ui.composer(page)
  await box.fill(text)
  await box.press('Enter')
  await expect(box).toHaveValue('')
}

/** Waits until no turn runs: no Stop button, no "Working…" line. */
export async function expectIdle(page: Page): Promise<void> {
  await expect(ui.stopButton(page)).toHaveCount(0)
  await expect(ui.working(page)).toHaveCount(0)
}

/** Saves a screenshot of the page as a test artifact. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path })
  testInfo.attachments.push({ name: `${name}.png`, path, contentType: 'image/png' })
}

/**
 * Records every distinct text the last element matching `selector` shows, from now on, by a
 * MutationObserver in the page (so short-lived states are seen even when the test polls late).
 * `texts()` returns what was recorded so far.
 */
export async function recordTexts(page: Page, selector: string): Promise<{ texts(): Promise<string[]> }> {
  const key = `__seamE2eTexts_${Math.random().toString(36).slice(2)}`
  await page.evaluate(
    ({ key, selector }) => {
      const seen: string[] = []
      const record = () => {
        const all = document.querySelectorAll(selector)
        const text = all.length > 0 ? (all[all.length - 1].textContent ?? '') : ''
        if (text && seen[seen.length - 1] !== text) seen.push(text)
      }
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true })
      ;(window as unknown as Record<string, string[]>)[key] = seen
    },
    { key, selector }
  )
  return { texts: () => page.evaluate((k) => [...((window as unknown as Record<string, string[]>)[k] ?? [])], key) }
}

function sessionButtonName(title: string): RegExp {
  return new RegExp(`^${escapeRegExp(title)} `)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
