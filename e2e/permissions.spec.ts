// Claude Code permission rules through the UI: a workspace's `.claude/settings.json` rules are
// listed in the trust dialog and do not apply until the workspace is trusted; once trusted, the
// settings page lists every rule in force with the file it came from, and a deny rule refuses the
// model's call with the rule's file and index (claude-code-hooks.md §2.1, §7, §9.8).
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { textOf, trailingToolResults, type Responder } from './support/fake-model'
import { expect, test as seamTest } from './support/seam-test'
import { expectIdle, send, settingsSection, ui } from './support/ui'

const test = seamTest.extend<{ treeFiles: Record<string, string> }>({
  treeFiles: [{}, { option: true }],
  // The host reads the settings files at start: write them first.
  hostEnv: async ({ hostEnv, tempRoot, treeFiles }, use) => {
    const root = resolve(tempRoot)
    for (const [relative, content] of Object.entries(treeFiles)) {
      const target = resolve(root, relative)
      if (!target.startsWith(root + '/')) throw new Error(`treeFiles: '${relative}' is outside the temp root`)
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, content)
    }
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

test.describe('Claude Code permission rules', () => {
  test.use({
    seamSettings: { approvalMode: 'never-ask' },
    treeFiles: {
      'workspace/.claude/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm *)'], allow: ['Bash(npm run test:*)'] } }, null, 2),
      'home/.claude/settings.json': JSON.stringify({ permissions: { ask: ['Bash(git push:*)'] } }, null, 2)
    }
  })

  test('untrusted: listed for trust and not applied; trusted: listed with their files on the settings page, and a deny rule refuses the call', async ({ app, fakeModel, workspace, tempRoot }) => {
    const projectFile = join(workspace, '.claude', 'settings.json')
    const userFile = join(resolve(tempRoot), 'home', '.claude', 'settings.json')

    const banner = app.getByRole('region', { name: 'Workspace trust' })
    await expect(banner).toContainText('This workspace declares 2 Claude Code permission or env settings that will not apply until you trust it.')

    // Untrusted: the project's deny rule does not apply, so rm runs.
    fakeModel.respond(bashThenEcho('rm -f nothing-here'))
    await send(app, 'remove it')
    await expect(ui.toolCards(app, 'Bash').first()).toHaveAttribute('data-status', 'done')
    await expectIdle(app)

    let approvals = await settingsSection(app, 'Permissions & approvals')
    await expect(approvals.getByRole('table', { name: 'Permission rules in force' })).toContainText('Bash(git push:*)')
    await expect(approvals.getByRole('table', { name: 'Permission rules in force' })).not.toContainText('Bash(rm *)')

    const trustSection = await settingsSection(app, 'Workspace & trust')
    await trustSection.getByRole('button', { name: 'Trust', exact: true }).click()
    await expect(trustSection).toContainText('This workspace is trusted.')
    approvals = await settingsSection(app, 'Permissions & approvals')

    const rules = approvals.getByRole('table', { name: 'Permission rules in force' })
    await expect(rules.getByRole('row')).toHaveCount(4)
    await expect(rules.getByRole('row').nth(1)).toHaveText(['deny', 'Bash(rm *)', 'Claude Code project settings', `${projectFile} (permissions.deny[0])`].join(''))
    await expect(rules.getByRole('row').nth(2)).toHaveText(['ask', 'Bash(git push:*)', 'Claude Code user settings', `${userFile} (permissions.ask[0])`].join(''))
    await expect(rules.getByRole('row').nth(3)).toHaveText(['allow', 'Bash(npm run test:*)', 'Claude Code project settings', `${projectFile} (permissions.allow[0])`].join(''))

    // Trusted: the deny rule refuses rm, and the model is told which rule in which file.
    await ui.pageButton(app, 'Chat').click()
    await send(app, 'remove it again')
    const denied = ui.toolCards(app, 'Bash').nth(1)
    await expect(denied).toHaveAttribute('data-status', 'denied')
    await expect(ui.assistantMessages(app).last()).toContainText(
      `The tool said: Permission denied: the permission policy denies calls matching "Bash(rm *)" (permissions.deny[0] in ${projectFile})`
    )
    await expectIdle(app)
  })
})
