// Issue 31, deep links by URL: the page, the Settings section and the open session are in the
// URL's hash (`#/settings/<section>`, `#/session/<id>`, `#/chat`, `#/board`, `#/plugins`), written
// as the user moves in the app, so Back and Forward walk the app's history; a link pasted into the
// address bar, or the window loaded at one, opens that place (a linked session instead of the one
// remembered). An unknown section or session says so. The same renderer route serves the desktop
// app (the spec reads and sets the window's own URL, whichever target runs it).
import type { Page } from '@playwright/test'
import { lastUserText } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES, sizeName } from './support/screens'
import { send, settingsSection, ui } from './support/ui'

/** Opens a link in the window as a user pasting it would: same document, only the hash changes. */
async function openLink(app: Page, hash: string): Promise<void> {
  const url = new URL(app.url())
  url.hash = hash
  await app.goto(url.href)
}

function hashOf(app: Page): string {
  return new URL(app.url()).hash
}

/** The transcript shows one session: the one whose only prompt is `text`. */
async function expectOnlyPrompt(app: Page, text: string): Promise<void> {
  await expect(ui.userMessages(app)).toHaveCount(1)
  await expect(ui.userMessages(app).first()).toContainText(text)
}

const selectedTab = (app: Page) => app.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { selected: true })

test('settings sections and sessions by URL, kept in step with in-app navigation; Back and Forward walk them; a reload stays', async ({ app, fakeModel }) => {
  fakeModel.respond((body) => ({ text: `Answer to ${lastUserText(body)}` }))
  await onScreen(app, { ...SIZES[0], colorScheme: 'light' })

  // In-app navigation writes the URL: a session once it exists, a new one, Settings and its sections.
  await send(app, 'first question')
  await expect(ui.assistantMessages(app).last()).toContainText('Answer to first question')
  await expect(app).toHaveURL(/#\/session\/[^/]+$/)
  const first = decodeURIComponent(hashOf(app).slice('#/session/'.length))
  await app.getByRole('button', { name: 'New session', exact: true }).click()
  await expect(app).toHaveURL(/#\/chat$/)
  await send(app, 'second question')
  await expect(ui.assistantMessages(app).last()).toContainText('Answer to second question')
  await expect(app).toHaveURL(/#\/session\/[^/]+$/)
  const second = decodeURIComponent(hashOf(app).slice('#/session/'.length))
  expect(second).not.toBe(first)
  await ui.pageButton(app, 'Settings').click()
  await expect(app).toHaveURL(/#\/settings\/provider$/)
  await settingsSection(app, 'MCP servers')
  await expect(app).toHaveURL(/#\/settings\/mcp$/)

  // Back walks it all the way, Forward comes again.
  await app.goBack()
  await expect(app).toHaveURL(/#\/settings\/provider$/)
  await expect(selectedTab(app)).toHaveText('Model & provider')
  await app.goBack()
  await expect(app).toHaveURL(new RegExp(`#/session/${second}$`))
  await expectOnlyPrompt(app, 'second question')
  await app.goBack()
  await expect(app).toHaveURL(/#\/chat$/)
  await expect(ui.transcript(app).locator('.empty-state')).toContainText('Nothing here yet.')
  await app.goBack()
  await expect(app).toHaveURL(new RegExp(`#/session/${first}$`))
  await expectOnlyPrompt(app, 'first question')
  await app.goForward()
  await app.goForward()
  await expect(app).toHaveURL(new RegExp(`#/session/${second}$`))
  await expectOnlyPrompt(app, 'second question')
  await app.goForward()
  await expect(app).toHaveURL(/#\/settings\/provider$/)
  await expect(app.getByRole('main', { name: 'Settings page' })).toBeVisible()

  // A link pasted while the app runs, then the window loaded at it.
  await openLink(app, '/settings/permissions')
  await expect(selectedTab(app)).toHaveText('Permissions & approvals')
  await app.reload()
  await expect(selectedTab(app)).toHaveText('Permissions & approvals')
  await expect(app).toHaveURL(/#\/settings\/permissions$/)
  // The second session is the one remembered; a window loaded at the first one's link opens the first.
  await openLink(app, `/session/${encodeURIComponent(first)}`)
  await expectOnlyPrompt(app, 'first question')
  await openLink(app, '/board')
  await expect(app.getByRole('region', { name: 'Sessions board' })).toBeVisible()
  await openLink(app, `/session/${encodeURIComponent(second)}`)
  await expectOnlyPrompt(app, 'second question')
  await openLink(app, `/session/${encodeURIComponent(first)}`)
  await app.reload()
  await expectOnlyPrompt(app, 'first question')
  await expect(app).toHaveURL(new RegExp(`#/session/${first}$`))

  // A session there is not: the view says so and a message starts a new one.
  await openLink(app, '/session/no-such-session')
  await expect(app.getByRole('alert')).toContainText('there is no session “no-such-session”')
  await expect(ui.userMessages(app)).toHaveCount(0)
  await send(app, 'third question')
  await expect(ui.assistantMessages(app).last()).toContainText('Answer to third question')
  await expect(app.getByRole('alert')).toHaveCount(0)
  await expect(ui.sessionRows(app)).toHaveCount(3)
})

for (const size of SIZES) {
  test(`an unknown settings section at ${sizeName(size)}, light and dark, says so, beside the sections there are`, async ({ app }, testInfo) => {
    await onScreen(app, { ...size, colorScheme: 'light' })
    await expect(ui.composer(app)).toBeVisible()
    await openLink(app, '/settings/no-such-section')
    const unknown = app.getByRole('region', { name: 'Unknown settings section' })
    await expect(unknown).toContainText('There is no settings section “no-such-section”.')
    await expect(unknown).toContainText('Choose one of the sections listed.')
    await expect(selectedTab(app)).toHaveCount(0)
    await expect(app.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab')).not.toHaveCount(0)
    await expectSchemesOk(app, testInfo, `unknown-section-${sizeName(size)}`)
    // Loaded at the link, the same.
    await app.reload()
    await expect(unknown).toContainText('There is no settings section “no-such-section”.')
    await unknown.getByRole('button', { name: 'Open Model & provider' }).click()
    await expect(selectedTab(app)).toHaveText('Model & provider')
    await expect(app).toHaveURL(/#\/settings\/provider$/)
  })
}
