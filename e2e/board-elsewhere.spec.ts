// Issue 32: the Board showing a session another process runs. The built `seam run` is started as
// its own process on the window's Seam home and workspace, under `script` so that it has a
// terminal to ask its approval on; the window's Board follows it from its session log and its
// presence file: waiting for approval, in another process, with a note to answer there (this
// window cannot), and Open disabled. A real kill -9 of that process: the row reads as not open.
// Checked with axe at 1280x800 and 800x600, light and dark, while the note shows.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { repoRoot } from './fixtures'
import { ui } from './support/ui'
import { expectScreenOk, onScreen, SCREENS, screenName } from './support/screens'

const SEAM_BIN = join(repoRoot, 'bin', 'seam.mjs')
const boardButton = (app: Page) => app.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Board', exact: true })
const board = (app: Page) => app.getByRole('region', { name: 'Sessions board' })

let other: ChildProcess | undefined
test.afterEach(() => {
  if (other && other.exitCode === null && other.signalCode === null) other.kill('SIGKILL')
  other = undefined
})

test('a session `seam run` runs in a terminal: waiting for approval in another process, answered there, Open disabled; not open after a kill -9', async ({ app, fakeModel, workspace, seamHome, tempRoot }, testInfo) => {
  fakeModel.respond((body) => (trailingToolResults(body).length > 0 ? { text: 'done' } : { text: 'I will make the file.', toolCalls: [{ name: 'Bash', args: { command: 'touch made.txt', description: 'Make a file' } }] }))
  await expect(ui.composer(app)).toBeVisible()
  await boardButton(app).click()
  await expect(board(app)).toBeVisible()

  // The same Seam home and workspace as the window; the provider from its settings.
  const command = [process.execPath, SEAM_BIN, 'run', '--workspace', workspace, 'make a file'].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
  other = spawn('script', ['-qfec', command, '/dev/null'], { cwd: workspace, env: { ...process.env, SEAM_HOME: seamHome, HOME: join(tempRoot, 'home') }, stdio: ['pipe', 'ignore', 'ignore'] })

  const sessionRows = board(app).getByRole('row', { name: /^Session / })
  const row = sessionRows.filter({ hasText: 'in another process' })
  await expect(row).toHaveAttribute('data-status', 'waiting')
  await expect(row).toContainText('waiting for approval')
  await expect(row).toContainText('I will make the file.')
  const [presence] = readdirSync(join(seamHome, 'sessions', 'live'))
  const pid = (JSON.parse(readFileSync(join(seamHome, 'sessions', 'live', presence), 'utf8')) as { pid: number }).pid
  const note = board(app).getByRole('note').filter({ hasText: 'running in another process' })
  await expect(note).toHaveText(/is waiting for approval, running in another process \(pid \d+\): answer there\.$/)
  await expect(note).toContainText(`(pid ${pid})`)
  await expect(row.getByRole('button', { name: 'Open' })).toBeDisabled()
  await row.getByRole('button', { name: 'Open' }).click({ force: true })
  await expect(board(app)).toBeVisible()
  // This window has no card to answer it with, and no dialog.
  await expect(board(app).getByRole('region', { name: /^Approval for / })).toHaveCount(0)
  await expect(ui.approvalDialog(app)).toHaveCount(0)
  for (const screen of SCREENS) {
    await onScreen(app, screen)
    await expect(note).toBeVisible()
    await expectScreenOk(app, testInfo, `board elsewhere ${screenName(screen)}`)
  }

  process.kill(pid, 'SIGKILL')
  const closed = sessionRows.filter({ hasText: 'I will make the file.' })
  await expect(closed).toHaveAttribute('data-status', 'closed')
  await expect(closed).toContainText('not open')
  await expect(closed).not.toContainText('in another process')
  await expect(note).toHaveCount(0)
  await expect(closed.getByRole('button', { name: 'Open' })).toBeEnabled()
})
