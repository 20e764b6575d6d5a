// Issue 32: the board and the review of worktree sessions, in the real UI against a real host, a
// real repository made here with the real git, and the fake model writing files. A worktree
// session is started from the board, its edit is approved (the dialog names the session), then
// reviewed (the diff in the approvals' viewer), committed with the suggested message and merged;
// two sessions editing the same line conflict (the files listed, nothing changed) and one is
// discarded after the confirmation. A folder that is not a repository disables the option. Asks
// of worktree sessions are answered on their Board cards (a dangerous one marked, Deny by the
// keyboard); the sidebar and the command palette start worktree sessions too. Board, cards,
// review and dialog are checked with axe at 1280x800 and 800x600, light and dark.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { lastUserText, trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'
import { expectScreenOk, onScreen, SCREENS, screenName } from './support/screens'
import { git, makeRepo } from '../plugins/worktrees/test-repo'

const boardButton = (app: Page) => app.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Board', exact: true })
const board = (app: Page) => app.getByRole('region', { name: 'Sessions board' })

/** The model writes the file the prompt names ("write <path> <text>"). */
function writer(body: Parameters<Parameters<import('./support/fake-model').FakeModel['respond']>[0]>[0]) {
  if (trailingToolResults(body).length > 0) return { text: 'Written.' }
  const match = /^write (\S+) (.+)$/s.exec(lastUserText(body))
  if (!match) return { text: 'ok' }
  return { toolCalls: [{ name: 'Write', args: { file_path: match[1], content: `${match[2]}\n` } }] }
}

async function newWorktreeSession(app: Page, name: string): Promise<void> {
  await boardButton(app).click()
  const form = app.getByRole('form', { name: 'New session in a worktree' })
  await form.getByLabel('Worktree name').fill(name)
  await form.getByRole('button', { name: 'New session in a worktree' }).click()
  // The new session opens in the chat.
  await expect(ui.composer(app)).toBeVisible()
}

async function editInSession(app: Page, file: string, text: string): Promise<void> {
  await send(app, `write ${file} ${text}`)
  const dialog = ui.approvalDialog(app)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('File path')).toHaveText(file)
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(ui.assistantMessages(app).last()).toContainText('Written.')
  await expectIdle(app)
}

test('a worktree session from the board: its edit stays in the worktree, the review shows the diff, commit with the suggested message, fast-forward merge', async ({ app, fakeModel, workspace }, testInfo) => {
  makeRepo(workspace, { 'README.md': 'hello\n' })
  fakeModel.respond(writer)
  const folder = join(workspace, '..', 'workspace.worktrees', 'one')
  await newWorktreeSession(app, 'one')
  await editInSession(app, join(folder, 'README.md'), 'from the worktree')
  expect(await readFile(join(workspace, 'README.md'), 'utf8')).toBe('hello\n')

  await boardButton(app).click()
  const row = board(app).getByRole('row').filter({ hasText: 'seam/one' })
  await expect(row).toHaveAttribute('data-status', 'idle')
  await expect(row).toContainText('Written.')
  await row.getByRole('button', { name: 'Review' }).click()
  const review = app.getByRole('region', { name: 'Review seam/one' })
  await expect(review.getByRole('status', { name: 'Diff summary' })).toHaveText('1 file changed, 0 commits, uncommitted changes')
  const diff = review.getByRole('group', { name: 'Changes to README.md' })
  await expect(diff.locator('.diff-line.del .diff-text')).toHaveText(['hello'])
  await expect(diff.locator('.diff-line.add .diff-text')).toHaveText(['from the worktree'])
  await expect(review.getByLabel('Commit message')).toHaveValue('Update README.md\n')
  await review.getByLabel('Commit message').fill('Say it from the worktree')
  await snap(app, testInfo, 'board-review')
  for (const screen of SCREENS) {
    await onScreen(app, screen)
    await expectScreenOk(app, testInfo, `board-review-${screenName(screen)}`)
  }
  await onScreen(app, SCREENS[0])
  await review.getByRole('button', { name: 'Commit' }).click()
  await expect(review.getByRole('status', { name: 'Review outcome' })).toContainText('Committed')
  await review.getByLabel('Merge as').selectOption('fast-forward')
  await review.getByRole('button', { name: 'Merge into main' }).click()
  await expect(review.getByRole('status', { name: 'Review outcome' })).toContainText('Merged seam/one into main (fast-forward)')
  expect(await readFile(join(workspace, 'README.md'), 'utf8')).toBe('from the worktree\n')
  expect(git(workspace, 'log', '-1', '--format=%s').trim()).toBe('Say it from the worktree')
})

test('two worktree sessions editing the same line: the second merge lists the conflict and changes nothing; Discard asks first, then removes worktree and branch', async ({ app, fakeModel, workspace }) => {
  makeRepo(workspace, { 'README.md': 'hello\n' })
  fakeModel.respond(writer)
  const folder = (name: string) => join(workspace, '..', 'workspace.worktrees', name)
  await newWorktreeSession(app, 'left')
  await editInSession(app, join(folder('left'), 'README.md'), 'left side')
  await newWorktreeSession(app, 'right')
  await editInSession(app, join(folder('right'), 'README.md'), 'right side')

  await boardButton(app).click()
  for (const name of ['left', 'right']) {
    await board(app).getByRole('row').filter({ hasText: `seam/${name}` }).getByRole('button', { name: 'Review' }).click()
    const review = app.getByRole('region', { name: `Review seam/${name}` })
    await review.getByRole('button', { name: 'Commit' }).click()
    await expect(review.getByRole('status', { name: 'Review outcome' })).toContainText('Committed')
    await review.getByRole('button', { name: 'Merge into main' }).click()
    if (name === 'left') await expect(review.getByRole('status', { name: 'Review outcome' })).toContainText('Merged seam/left into main (merge)')
    else {
      const alert = review.getByRole('alert', { name: 'Review outcome' })
      await expect(alert).toContainText('conflicts in 1 file; nothing was changed')
      await expect(alert.getByRole('list', { name: 'Conflicting files' }).getByRole('listitem')).toHaveText(['README.md'])
    }
  }
  expect(await readFile(join(workspace, 'README.md'), 'utf8')).toBe('left side\n')
  expect(git(workspace, 'status', '--porcelain')).toBe('')

  const review = app.getByRole('region', { name: 'Review seam/right' })
  await review.getByRole('button', { name: 'Discard' }).click()
  const confirm = app.getByRole('dialog', { name: 'Discard this worktree?' })
  await expect(confirm).toContainText('1 commit(s) not merged are lost')
  await confirm.getByRole('button', { name: 'Discard' }).click()
  await expect(board(app).getByRole('row').filter({ hasText: 'seam/right' })).toHaveAttribute('data-status', 'detached')
  expect(git(workspace, 'branch', '--list', 'seam/right')).toBe('')
})

test('a workspace that is not a git repository: "New session in a worktree" is disabled and says why, on the Board, in the sidebar and in the dialog', async ({ app }) => {
  const sidebarButton = app.getByRole('navigation', { name: 'Sessions' }).getByRole('button', { name: 'Worktree session…' })
  await expect(sidebarButton).toHaveAttribute('aria-disabled', 'true')
  await expect(sidebarButton).toHaveAccessibleDescription(/is not in a git repository, so a session cannot have its own worktree/)
  // Marked disabled yet focusable: Enter on it opens the dialog, which shows the reason.
  await sidebarButton.focus()
  await app.keyboard.press('Enter')
  const dialog = app.getByRole('dialog', { name: 'New session in a worktree' })
  await expect(dialog.getByRole('button', { name: 'New session in a worktree' })).toBeDisabled()
  await expect(dialog.getByRole('note')).toContainText('is not in a git repository')
  await app.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  await boardButton(app).click()
  const form = app.getByRole('form', { name: 'New session in a worktree' })
  await expect(form.getByRole('button', { name: 'New session in a worktree' })).toBeDisabled()
  await expect(form.getByRole('note')).toContainText('is not in a git repository, so a session cannot have its own worktree')
})

test('the sidebar and the command palette start a session in a worktree', async ({ app, fakeModel, workspace }, testInfo) => {
  makeRepo(workspace, { 'README.md': 'hello\n' })
  fakeModel.respond(writer)
  // The availability is asked when the workspace is known; the repository was made after the start.
  await app.reload()
  const sidebarButton = app.getByRole('navigation', { name: 'Sessions' }).getByRole('button', { name: 'Worktree session…' })
  await expect(sidebarButton).toHaveAttribute('aria-disabled', 'false')
  await sidebarButton.click()
  const dialog = app.getByRole('dialog', { name: 'New session in a worktree' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Worktree name')).toBeFocused()
  for (const screen of SCREENS) {
    await onScreen(app, screen)
    await expectScreenOk(app, testInfo, `new-worktree-dialog-${screenName(screen)}`)
  }
  await onScreen(app, SCREENS[0])
  await app.keyboard.type('from-sidebar')
  await app.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(ui.composer(app)).toBeVisible()
  await editInSession(app, join(workspace, '..', 'workspace.worktrees', 'from-sidebar', 'README.md'), 'sidebar')
  expect(git(workspace, 'branch', '--list', 'seam/from-sidebar')).toContain('seam/from-sidebar')

  await app.keyboard.press('Control+k')
  const palette = app.getByRole('dialog', { name: 'Command palette' })
  await app.keyboard.type('worktree session')
  await expect(palette.getByRole('option', { name: /^Start a worktree session…/ })).toBeVisible()
  await app.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Worktree name').fill('from-palette')
  await dialog.getByRole('button', { name: 'New session in a worktree' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(ui.composer(app)).toBeVisible()
  expect(existsSync(join(workspace, '..', 'workspace.worktrees', 'from-palette'))).toBe(true)
  await boardButton(app).click()
  await expect(board(app).getByRole('row').filter({ hasText: 'seam/from-palette' })).toHaveAttribute('data-status', 'idle')
  await expect(board(app).getByRole('row').filter({ hasText: 'seam/from-sidebar' })).toContainText('Written.')
})

test('approvals are answered on the Board card of the session that asks: Allow once, and a dangerous call marked and denied by the keyboard', async ({ app, fakeModel, workspace }, testInfo) => {
  makeRepo(workspace, { 'README.md': 'hello\n' })
  // Slow enough to reach the Board before the call is asked.
  fakeModel.respond((body) => ({ ...writer(body), chunkDelayMs: 150 }))
  const file = join(workspace, '..', 'workspace.worktrees', 'asks', 'README.md')
  await newWorktreeSession(app, 'asks')
  await send(app, `write ${file} answered from the board`)
  await boardButton(app).click()
  const row = board(app).getByRole('row').filter({ hasText: 'seam/asks' })
  const card = board(app).getByRole('region', { name: /^Approval for / })
  await expect(card).toBeVisible()
  await expect(row).toHaveAttribute('data-status', 'waiting')
  await expect(row).toContainText('waiting for approval')
  // The Board answers it: no app-wide dialog over it.
  await expect(ui.approvalDialog(app)).toHaveCount(0)
  await expect(card.locator('.tool-name')).toHaveText('Write')
  await expect(card).toContainText(file)
  await expect(card.getByRole('group', { name: 'Dangerous call' })).toHaveCount(0)
  await card.getByText('The call in full').click()
  await expect(card.getByRole('group', { name: 'Change that will be applied' }).locator('.diff-line.add .diff-text')).toHaveText(['answered from the board'])
  await card.getByRole('button', { name: 'Allow once' }).click()
  await expect(card).toHaveCount(0)
  await expect(row).toHaveAttribute('data-status', 'idle')
  expect(await readFile(file, 'utf8')).toBe('answered from the board\n')

  // A write outside the session's worktree (into the main checkout) is dangerous: marked, Deny first.
  const outside = join(workspace, 'outside.txt')
  await row.getByRole('button', { name: 'Open' }).click()
  await send(app, `write ${outside} should not be written`)
  await boardButton(app).click()
  await expect(card).toBeVisible()
  await expect(card.getByRole('group', { name: 'Dangerous call' })).toContainText(`writes outside the workspace: ${outside}`)
  await expect(card.getByRole('button', { name: 'Deny' })).toHaveClass(/primary/)
  await expect(card.getByRole('button', { name: 'Allow once' })).not.toHaveClass(/primary/)
  for (const screen of SCREENS) {
    await onScreen(app, screen)
    await expectScreenOk(app, testInfo, `board-approval-${screenName(screen)}`)
  }
  await onScreen(app, SCREENS[0])
  await snap(app, testInfo, 'board-approval-dangerous')
  // By the keyboard: the note, then Tab to Deny and Enter.
  await card.getByLabel('Note for the model (sent with Deny, optional)').fill('not in the main checkout')
  const deny = card.getByRole('button', { name: 'Deny' })
  for (let i = 0; i < 8 && !(await deny.evaluate((el) => el === document.activeElement)); i++) await app.keyboard.press('Tab')
  await expect(deny).toBeFocused()
  await app.keyboard.press('Enter')
  await expect(card).toHaveCount(0)
  await expect(row).toHaveAttribute('data-status', 'idle')
  expect(existsSync(outside)).toBe(false)
  await expect.poll(() => JSON.stringify(fakeModel.chatRequests().at(-1)?.body)).toContain('not in the main checkout')
})
