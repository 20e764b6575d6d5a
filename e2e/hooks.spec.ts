// Hooks (Claude Code and Codex bridges) through the UI: a workspace's hook files are gated by
// trust, which the UI shows with the exact commands before the user trusts it; once trusted, the
// hooks run, their decisions reach the tool cards, and every run has a row in the transcript that
// opens the hook inspector. A hook that cannot run fails open and the failure is shown.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { textOf, trailingToolResults, type Responder } from './support/fake-model'
import { expect, test as seamTest } from './support/seam-test'
import { expectIdle, send, settingsSection, snap, ui } from './support/ui'

interface HookFixtures {
  /**
   * Files written under the test's temp root before the host starts (relative path -> content):
   * `workspace/...` is the agent's workspace, `home/...` the host's HOME.
   */
  treeFiles: Record<string, string>
}

const test = seamTest.extend<HookFixtures>({
  treeFiles: [{}, { option: true }],
  // The host reads the hook files at start: write them first (the host's env waits for them).
  hostEnv: async ({ hostEnv, tempRoot, workspace, treeFiles }, use) => {
    const root = resolve(tempRoot)
    for (const [relative, content] of Object.entries(treeFiles)) {
      const target = resolve(root, relative)
      if (!target.startsWith(root + '/')) throw new Error(`treeFiles: '${relative}' is outside the temp root`)
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, content)
    }
    expect(workspace).toBe(join(root, 'workspace'))
    await use(hostEnv)
  }
})

/** The model runs `command` with Bash, then answers with the text of the tool result. */
function bashThenEcho(command: string): Responder {
  return (body) => {
    const results = trailingToolResults(body)
    if (results.length > 0) return { text: `The tool said: ${results.map(textOf).join(' | ')}` }
    return { toolCalls: [{ name: 'Bash', args: { command } }] }
  }
}

const hookRows = (page: Page, label: string): Locator => ui.transcript(page).getByRole('button', { name: /^Hook / }).filter({ hasText: label })
const inspector = (page: Page): Locator => page.getByRole('complementary', { name: 'Hook inspector' })
/** One invocation in the inspector (a `details` element: it has no accessible name), by its `source:event`. */
const invocation = (page: Page, label: string): Locator =>
  inspector(page).locator('details.hook-invocation').filter({ has: page.locator('summary .hook-event', { hasText: label }) })
/** The value (`dd`) of a field (`dt`) in an inspector invocation. */
const field = (scope: Locator, name: string): Locator =>
  scope.locator('dt').filter({ hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]')
const notices = (page: Page, text: string | RegExp): Locator => ui.transcript(page).locator('.notice-row').filter({ hasText: text })

test.describe('trust gating', () => {
  const DENY_SCRIPT = '.claude/hooks/deny-rm.sh'
  const CONTEXT_SCRIPT = '.codex/hooks/prompt-context.sh'
  const CLAUDE_COMMAND = `sh "$CLAUDE_PROJECT_DIR/${DENY_SCRIPT}"`
  const CODEX_COMMAND = `sh ${CONTEXT_SCRIPT}`
  const DENY_MESSAGE = 'rm is not allowed in this workspace'
  const CONTEXT = 'codex-hook-context: the build folder is precious'

  test.use({
    seamSettings: { approvalMode: 'never-ask' },
    treeFiles: {
      // Denies Bash commands that run rm (exit 2 + stderr); lets everything else through.
      [`workspace/${DENY_SCRIPT}`]: [
        'input=$(cat)',
        `if printf '%s' "$input" | grep -Eq '"command" *: *"([^"]* )?rm '; then`,
        `  echo '${DENY_MESSAGE}' >&2`,
        '  exit 2',
        'fi',
        'exit 0',
        ''
      ].join('\n'),
      [`workspace/${CONTEXT_SCRIPT}`]: ['cat > /dev/null', `echo '${CONTEXT}'`, ''].join('\n'),
      'workspace/.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: CLAUDE_COMMAND }] }] }
      }, null, 2),
      'workspace/.codex/hooks.json': JSON.stringify({
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: CODEX_COMMAND, timeout: 30 }] }] }
      }, null, 2)
    }
  })

  test('untrusted hooks are listed with their commands and do not run; once trusted they deny rm and show in the inspector', async ({ app, fakeModel, workspace }, testInfo) => {
    const claudeFile = join(workspace, '.claude', 'settings.json')
    const codexFile = join(workspace, '.codex', 'hooks.json')
    fakeModel.respond(bashThenEcho('rm -f x'))

    // Before trust: the banner counts the commands; its review dialog lists each one exactly.
    const banner = app.getByRole('region', { name: 'Workspace trust' })
    await expect(banner).toContainText('This workspace declares 2 hook commands that will not run until you trust it.')
    await snap(app, testInfo, 'untrusted-banner')
    await banner.getByRole('button', { name: 'Review…' }).click()
    const dialog = app.getByRole('dialog', { name: 'Trust this workspace?' })
    await expect(dialog).toContainText(workspace)
    await expectCommands(dialog.getByRole('table', { name: 'Workspace hook commands' }), [
      { event: 'PreToolUse', command: CLAUDE_COMMAND, file: claudeFile, matcher: 'Bash' },
      { event: 'UserPromptSubmit', command: CODEX_COMMAND, file: codexFile }
    ])
    await snap(app, testInfo, 'trust-dialog')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toHaveCount(0)

    // A turn in the untrusted workspace: rm runs (no hook denies it), no hook row, and the session
    // is told which hooks were skipped.
    await send(app, 'clean up x')
    const firstCard = ui.toolCards(app, 'Bash').first()
    await expect(firstCard).toHaveAttribute('data-status', 'done')
    await expect(ui.assistantMessages(app).last()).toContainText('The tool said:')
    await expectIdle(app)
    await expect(notices(app, 'Claude Code hooks: this workspace is not trusted')).toContainText(CLAUDE_COMMAND)
    await expect(notices(app, 'Codex hooks: this workspace is not trusted')).toContainText(CODEX_COMMAND)
    await expect(ui.transcript(app).getByRole('button', { name: /^Hook / })).toHaveCount(0)
    expect(JSON.stringify(fakeModel.chatRequests().map((r) => r.body.messages))).not.toContain(CONTEXT)
    await snap(app, testInfo, 'untrusted-turn')

    // Trust the workspace on the settings page, which lists the same commands.
    const trustSection = await settingsSection(app, 'Workspace & trust')
    await expect(trustSection).toContainText('This workspace is not trusted.')
    await expectCommands(trustSection.getByRole('table', { name: 'Workspace hook commands' }), [
      { event: 'PreToolUse', command: CLAUDE_COMMAND, file: claudeFile, matcher: 'Bash' },
      { event: 'UserPromptSubmit', command: CODEX_COMMAND, file: codexFile }
    ])
    await snap(app, testInfo, 'settings-untrusted')
    await trustSection.getByRole('button', { name: 'Trust', exact: true }).click()
    await expect(trustSection).toContainText('This workspace is trusted.')
    await expect(trustSection.getByRole('button', { name: 'Untrust', exact: true })).toBeEnabled()
    await snap(app, testInfo, 'settings-trusted')

    // Trusted: the prompt hook adds context, the PreToolUse hook denies rm with its message.
    await ui.pageButton(app, 'Chat').click()
    await expect(banner).toHaveCount(0)
    await send(app, 'clean up x again')
    const denied = ui.toolCards(app, 'Bash').nth(1)
    const denyText = `PreToolUse:Bash hook error: [${CLAUDE_COMMAND}]: ${DENY_MESSAGE}`
    await expect(denied).toHaveAttribute('data-status', 'denied')
    await expect(denied.locator('.tool-status')).toContainText(DENY_MESSAGE)
    // The model's view of the call (collapsed under the card) is the hook's error.
    await denied.getByText('What the model was told').click()
    await expect(denied.getByLabel('Tool result')).toBeVisible()
    await expect(denied.getByLabel('Tool result')).toHaveText(denyText)
    await expect(ui.assistantMessages(app).last()).toContainText(`The tool said: ${denyText}`)
    await expectIdle(app)

    const preToolRow = hookRows(app, 'claude:PreToolUse')
    const promptRow = hookRows(app, 'codex:UserPromptSubmit')
    await expect(preToolRow).toHaveCount(1)
    await expect(promptRow).toHaveCount(1)
    await expect(preToolRow).toContainText(CLAUDE_COMMAND)
    await expect(preToolRow).toHaveAccessibleName(/^Hook claude:PreToolUse .* blocked \d/)
    await expect(promptRow).toContainText(CODEX_COMMAND)
    await expect(promptRow).toHaveAccessibleName(/^Hook codex:UserPromptSubmit .* ok \d/)
    // The model got the Codex hook's stdout as context.
    const contextRequest = fakeModel.chatRequests().find((r) => r.body.messages.some((m) => textOf(m).includes(CONTEXT)))
    expect(contextRequest, 'a model request carries the UserPromptSubmit context').toBeDefined()
    await snap(app, testInfo, 'trusted-denied')

    // The inspector, opened from the row, shows what ran and what came back.
    await preToolRow.click()
    await expect(inspector(app)).toBeVisible()
    const pre = invocation(app, 'claude:PreToolUse')
    await expect(pre).toHaveAttribute('open', '')
    await expect(field(pre, 'Source')).toHaveText('claude')
    await expect(field(pre, 'Event')).toHaveText('PreToolUse')
    await expect(field(pre, 'Matcher')).toHaveText('Bash')
    await expect(field(pre, 'Command')).toHaveText(CLAUDE_COMMAND)
    await expect(field(pre, 'Declared in')).toHaveText(claudeFile)
    await expect(field(pre, 'Exit code')).toHaveText('2')
    await expect(field(pre, 'Decision')).toHaveText('deny')
    await expect(pre.getByLabel('stderr', { exact: true })).toContainText(DENY_MESSAGE)
    await expect(pre.getByLabel('Input', { exact: true })).toContainText('"command": "rm -f x"')
    await snap(app, testInfo, 'inspector-pre-tool-use')

    await promptRow.click()
    const prompt = invocation(app, 'codex:UserPromptSubmit')
    await expect(prompt).toHaveAttribute('open', '')
    await expect(field(prompt, 'Source')).toHaveText('codex')
    await expect(field(prompt, 'Command')).toHaveText(CODEX_COMMAND)
    await expect(field(prompt, 'Declared in')).toHaveText(codexFile)
    await expect(field(prompt, 'Exit code')).toHaveText('0')
    await expect(prompt.getByLabel('stdout', { exact: true })).toContainText(CONTEXT)
    await expect(prompt.getByLabel('Input', { exact: true })).toContainText('"prompt": "clean up x again"')
    await snap(app, testInfo, 'inspector-user-prompt-submit')
  })
})

test.describe('a failing hook', () => {
  const MISSING = '/no/such/hook'

  test.use({
    seamSettings: { approvalMode: 'never-ask' },
    // A user-level hook: it needs no trust (HOME is the test's own temp dir).
    treeFiles: {
      'home/.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: MISSING }] }] }
      }, null, 2)
    }
  })

  test('a PreToolUse hook whose command does not exist fails open: Bash runs and the failure is shown', async ({ app, fakeModel, tempRoot }, testInfo) => {
    const userFile = join(tempRoot, 'home', '.claude', 'settings.json')
    fakeModel.respond(bashThenEcho('echo still-ran'))

    await send(app, 'say something')
    const card = ui.toolCards(app, 'Bash')
    await expect(card).toHaveAttribute('data-status', 'done')
    await ui.openToolCard(card)
    await expect(card.getByLabel('Tool result')).toContainText('still-ran')
    await expect(ui.assistantMessages(app).last()).toContainText('The tool said: still-ran')
    await expectIdle(app)

    const row = hookRows(app, 'claude:PreToolUse')
    await expect(row).toHaveCount(1)
    await expect(row).toContainText(MISSING)
    await expect(row).toHaveAccessibleName(/^Hook claude:PreToolUse .* failed \(.+\) \d/)
    await expect(row).toHaveClass(/\berror\b/)
    // A notice names the hook, its file and the failure, and says the agent went on.
    const notice = notices(app, MISSING)
    await expect(notice).toHaveCount(1)
    await expect(notice).toContainText(userFile)
    await expect(notice).toContainText('failed')
    await expect(notice).toContainText('onFailure: "continue"')
    await snap(app, testInfo, 'failed-hook')

    await row.click()
    const failed = invocation(app, 'claude:PreToolUse')
    await expect(failed).toHaveAttribute('open', '')
    await expect(field(failed, 'Command')).toHaveText(MISSING)
    await expect(field(failed, 'Source')).toHaveText('claude')
    await expect(field(failed, 'Declared in')).toHaveText(userFile)
    await expect(field(failed, 'Exit code')).toHaveText('127')
    await expect(field(failed, 'Failure')).toContainText('nonzero_exit')
    await expect(failed.getByLabel('stderr', { exact: true })).toContainText(MISSING)
    await snap(app, testInfo, 'inspector-failed-hook')
  })
})

/** The trust table lists exactly these rows, in any order. */
async function expectCommands(table: Locator, rows: Array<{ event: string; command: string; file: string; matcher?: string }>): Promise<void> {
  await expect(table.getByRole('row')).toHaveCount(rows.length + 1)
  for (const row of rows) {
    const match = table.getByRole('row').filter({ has: table.page().getByRole('cell', { name: row.command, exact: true }) })
    await expect(match).toHaveCount(1)
    await expect(match.getByRole('cell').nth(1)).toHaveText(row.event)
    // Issue 17: the trust dialog shows each hook's matcher ("any" when it has none).
    await expect(match.getByRole('cell').nth(2)).toHaveText(row.matcher ?? 'any')
    await expect(match.getByRole('cell').nth(4)).toHaveText(row.file)
  }
}
