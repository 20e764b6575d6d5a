// Issue 27, subagents in the UI: an Agent call is one card with the subagent's type, task, live
// status, tokens and cost, and its own transcript folded inside (streamed while it runs, read from
// its log after a reload); its approval says which subagent asks; Stop stops just that subagent
// (its call ends interrupted, the session's turn goes on); Settings lists the agents found and the
// files skipped. axe (0 serious/critical) and the layout check at 1280x800, each state in light and dark.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastUserText, textOf, trailingToolResults, type OpenAIRequestBody, type ScriptedTurn } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectSchemesOk, onScreen, SIZES } from './support/screens'
import { expectIdle, send, settingsSection, ui } from './support/ui'

/** The built-in general-purpose agent's system prompt starts so (plugins/subagents/builtins.ts). */
const CHILD_MARKER = 'You are an agent working for a coding assistant'

function isChild(body: OpenAIRequestBody): boolean {
  return textOf(body.messages[0]).includes(CHILD_MARKER)
}

/** The child's task: its first user message. */
function childTask(body: OpenAIRequestBody): string {
  return textOf(body.messages.find((m) => m.role === 'user'))
}

function respond(workspace: string) {
  return (body: OpenAIRequestBody): ScriptedTurn => {
    const answered = trailingToolResults(body).length > 0
    if (isChild(body)) {
      if (childTask(body) === 'Wait for ever') return { text: 'Still looking at everything, slowly', hangAfterChars: 12 }
      return answered ? { text: 'Wrote note.txt with the summary.' } : { text: 'Writing the note.', toolCalls: [{ name: 'Write', args: { file_path: join(workspace, 'note.txt'), content: 'summary\n' } }] }
    }
    if (answered) return { text: 'The subagent is done.' }
    const slow = lastUserText(body).includes('slow')
    return { toolCalls: [{ name: 'Agent', args: { description: slow ? 'Take a long look' : 'Write a summary note', prompt: slow ? 'Wait for ever' : 'Write note.txt', subagent_type: 'general-purpose' } }] }
  }
}

test.describe('1280x800, light and dark', () => {
  test('a subagent is one card with its own transcript, its approval names it, Stop stops it, and Settings lists the agents', async ({ app, fakeModel, workspace }, testInfo) => {
    await onScreen(app, { ...SIZES[0], colorScheme: 'light' })
    await mkdir(join(workspace, '.claude', 'agents'), { recursive: true })
    await writeFile(join(workspace, '.claude', 'agents', 'broken.md'), '---\nname: broken\n---\nno description\n')
    fakeModel.respond(respond(workspace))

    // The subagent's Write asks; the dialog says which subagent asks.
    await send(app, 'write a summary note')
    const dialog = ui.approvalDialog(app)
    await expect(dialog.getByLabel('Asked by a subagent')).toHaveText('Asked by the general-purpose subagent ("Write a summary note")')
    await expectSchemesOk(app, testInfo, 'subagent-approval')
    await dialog.getByRole('button', { name: 'Allow once' }).click()

    const card = app.getByRole('article', { name: 'Subagent general-purpose: Write a summary note' })
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(ui.assistantMessages(app).last()).toContainText('The subagent is done.')
    await expectIdle(app)
    expect(await readFile(join(workspace, 'note.txt'), 'utf8')).toBe('summary\n')
    await expect(card.getByLabel('Subagent usage')).toContainText('1 tool call')
    await card.getByRole('button', { name: 'Show the subagent’s transcript' }).click()
    const nested = card.getByRole('group', { name: 'Transcript of subagent general-purpose' })
    await expect(nested.getByLabel('Task given to the subagent')).toContainText('Write note.txt')
    await expect(nested.getByRole('article', { name: 'Tool call Write' })).toHaveAttribute('data-status', 'done')
    await expect(nested.getByLabel('Assistant message').last()).toContainText('Wrote note.txt with the summary.')
    await expectSchemesOk(app, testInfo, 'subagent-card', { screenshot: true })

    // A subagent that keeps going: running with Stop; Stop ends just it, the turn goes on.
    await send(app, 'take a slow look')
    const slow = app.getByRole('article', { name: 'Subagent general-purpose: Take a long look' })
    await expect(slow).toHaveAttribute('data-status', 'running')
    await slow.getByRole('button', { name: 'Show the subagent’s transcript' }).click()
    await expect(slow.getByRole('group', { name: 'Transcript of subagent general-purpose' })).toContainText('Still look')
    await expectSchemesOk(app, testInfo, 'subagent-running')
    await slow.getByRole('button', { name: 'Stop subagent general-purpose' }).click()
    await expect(slow).toHaveAttribute('data-status', 'stopped')
    await expect(ui.assistantMessages(app).last()).toContainText('The subagent is done.')
    await expectIdle(app)
    await slow.getByText('What the parent agent was told').click()
    await expect(slow.getByLabel('Tool result')).toHaveText('[Request interrupted by user for tool use]')

    // Reopened: both cards as they ended, the nested transcript read from the subagent's log.
    await app.reload()
    const again = app.getByRole('article', { name: 'Subagent general-purpose: Write a summary note' })
    await expect(again).toHaveAttribute('data-status', 'done')
    await expect(app.getByRole('article', { name: 'Subagent general-purpose: Take a long look' })).toHaveAttribute('data-status', 'stopped')
    await again.getByRole('button', { name: 'Show the subagent’s transcript' }).click()
    await expect(again.getByRole('group', { name: 'Transcript of subagent general-purpose' }).getByRole('article', { name: 'Tool call Write' })).toHaveAttribute('data-status', 'done')

    // Settings: the agents found, and the file skipped with its field.
    const section = await settingsSection(app, 'Subagents')
    const found = section.getByRole('list', { name: 'Agents found' })
    await expect(found.getByRole('listitem', { name: 'Agent general-purpose' })).toContainText('built-in')
    await expect(found.getByRole('listitem', { name: 'Agent Explore' })).toContainText('Tools: Read, Glob, Grep, WebFetch, WebSearch')
    await expect(section.getByRole('list', { name: 'Skipped agent files' })).toContainText(`${join(workspace, '.claude', 'agents', 'broken.md')}: description:`)
    await expectSchemesOk(app, testInfo, 'subagent-settings', { screenshot: true })
  })
})
