// Issue 27, background agents in the UI (the web host here; Electron with ELECTRON_PATH): an Agent
// call with run_in_background answers at once and its card stays running, marked background, with
// the agent listed in the tasks panel; Stop on the card stops it (card and task read stopped, no
// turn follows). An agent that ends while the session is idle opens a parent turn by itself: the
// model is told (a context row) and answers without a user message. The agent's Write waits for
// the test's approval, so the parent's turn has surely ended first: no timing decides the order.
import { join } from 'node:path'
import { lastUserText, textOf, trailingToolResults, type OpenAIRequestBody, type ScriptedTurn } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

/** The built-in general-purpose agent's system prompt starts so (plugins/subagents/builtins.ts). */
const CHILD_MARKER = 'You are an agent working for a coding assistant'

const isChild = (body: OpenAIRequestBody) => textOf(body.messages[0]).includes(CHILD_MARKER)
const childTask = (body: OpenAIRequestBody) => textOf(body.messages.find((m) => m.role === 'user'))
/** The request carries a finished agent's notification after the model's last answer. */
const toldOfEnd = (body: OpenAIRequestBody) => {
  const lastAssistant = body.messages.findLastIndex((m) => m.role === 'assistant')
  return body.messages.slice(lastAssistant + 1).some((m) => textOf(m).includes('<status>completed</status>'))
}

function respond(workspace: string) {
  return (body: OpenAIRequestBody): ScriptedTurn => {
    if (isChild(body)) {
      if (childTask(body) === 'Wait for ever') return { text: 'Still watching everything, slowly', hangAfterChars: 12 }
      return trailingToolResults(body).length > 0 ? { text: 'Wrote the note.' } : { toolCalls: [{ name: 'Write', args: { file_path: join(workspace, 'note.txt'), content: 'note\n' } }] }
    }
    if (toldOfEnd(body)) return { text: 'Heard back: the note is written.' }
    if (trailingToolResults(body).length > 0) return { text: 'Launched it.' }
    const slow = lastUserText(body).includes('slow')
    return {
      toolCalls: [{ name: 'Agent', args: { description: slow ? 'Watch for ever' : 'Write the note', prompt: slow ? 'Wait for ever' : 'Write note.txt', subagent_type: 'general-purpose', run_in_background: true } }]
    }
  }
}

test('a background agent: its card runs on after the call answered, the tasks panel lists it, Stop stops it; one that ends while the session is idle opens a turn by itself', async ({ app, fakeModel, workspace }, testInfo) => {
  fakeModel.respond(respond(workspace))
  const panel = app.getByRole('region', { name: 'Background tasks' })

  // Launched: the parent's turn ends at once; the card and the task stay running.
  await send(app, 'start a slow background look')
  const slow = app.getByRole('article', { name: 'Subagent general-purpose: Watch for ever' })
  await expect(ui.assistantMessages(app).last()).toContainText('Launched it.')
  await expectIdle(app)
  await expect(slow).toHaveAttribute('data-status', 'running')
  await expect(slow.getByLabel('Subagent usage')).toContainText('background')
  const slowTask = panel.getByRole('listitem').filter({ hasText: 'Agent general-purpose: Watch for ever' })
  await expect(slowTask.getByLabel('Status')).toHaveText('running')
  await slow.getByRole('button', { name: 'Show the subagent’s transcript' }).click()
  await expect(slow.getByRole('group', { name: 'Transcript of subagent general-purpose' })).toContainText('Still watch')
  await snap(app, testInfo, 'background-agent-running')
  // Folded again: the parent's messages are counted below.
  await slow.getByRole('button', { name: 'Hide the subagent’s transcript' }).click()

  // Stop on the card stops the background agent: card and task read stopped; no turn follows.
  await slow.getByRole('button', { name: 'Stop subagent general-purpose' }).click()
  await expect(slow).toHaveAttribute('data-status', 'stopped')
  await expect(slowTask.getByLabel('Status')).toHaveText('stopped')
  await expect(slowTask.getByRole('button', { name: /^Stop / })).toHaveCount(0)
  await expectIdle(app)
  await expect(ui.assistantMessages(app)).toHaveCount(1)

  // An agent whose Write waits for approval: the parent's turn ends first, then the test allows it.
  await send(app, 'write the note in the background')
  const dialog = ui.approvalDialog(app)
  await expect(dialog.getByLabel('Asked by a subagent')).toHaveText('Asked by the general-purpose subagent ("Write the note")')
  await expect(ui.assistantMessages(app)).toHaveCount(2)
  await expect(ui.assistantMessages(app).last()).toContainText('Launched it.')
  await expectIdle(app)
  const note = app.getByRole('article', { name: 'Subagent general-purpose: Write the note' })
  await expect(note).toHaveAttribute('data-status', 'running')
  await dialog.getByRole('button', { name: 'Allow once' }).click()

  // It ends while the session is idle: a turn opens by itself, the model is told and answers.
  await expect(ui.assistantMessages(app).last()).toContainText('Heard back: the note is written.')
  await expect(note).toHaveAttribute('data-status', 'done')
  await expect(ui.transcript(app).getByText('A background agent ended: the model was told')).toBeVisible()
  await expect(ui.userMessages(app)).toHaveCount(2)
  await expect(panel.getByRole('listitem').filter({ hasText: 'Agent general-purpose: Write the note' }).getByLabel('Status')).toHaveText('completed')
  await expect(panel.getByRole('status', { name: 'Background task count' })).toHaveText('0 running, 2 ended')
  await expectIdle(app)
  await snap(app, testInfo, 'background-agent-woke')
})
