// Issue 32: the board and the review of worktree sessions, in the real UI against a real host, a
// real repository made here with the real git, and the fake model writing files. A worktree
// session is started from the board, its edit is approved (the dialog names the session), then
// reviewed (the diff in the approvals' viewer), committed with the suggested message and merged;
// two sessions editing the same line conflict (the files listed, nothing changed) and one is
// discarded after the confirmation. A folder that is not a repository disables the option.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { lastUserText, trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'
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

test('a workspace that is not a git repository: "New session in a worktree" is disabled and says why', async ({ app }) => {
  await boardButton(app).click()
  const form = app.getByRole('form', { name: 'New session in a worktree' })
  await expect(form.getByRole('button', { name: 'New session in a worktree' })).toBeDisabled()
  await expect(form.getByRole('note')).toContainText('is not in a git repository, so a session cannot have its own worktree')
})

test('an approval asked while the Board shows: the row says "waiting for approval" and the question is answered there', async ({ app, fakeModel, workspace }) => {
  makeRepo(workspace, { 'README.md': 'hello\n' })
  // Slow enough to reach the Board before the call is asked.
  fakeModel.respond((body) => ({ ...writer(body), chunkDelayMs: 150 }))
  const file = join(workspace, '..', 'workspace.worktrees', 'asks', 'README.md')
  await newWorktreeSession(app, 'asks')
  await send(app, `write ${file} answered from the board`)
  await boardButton(app).click()
  const dialog = ui.approvalDialog(app)
  await expect(dialog).toBeVisible()
  const row = board(app).getByRole('row').filter({ hasText: 'seam/asks' })
  await expect(row).toHaveAttribute('data-status', 'waiting')
  await expect(row).toContainText('waiting for approval')
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(row).toHaveAttribute('data-status', 'idle')
  expect(await readFile(file, 'utf8')).toBe('answered from the board\n')
})
