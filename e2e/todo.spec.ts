// Issue 28: the agent's TodoWrite plan as a checklist pinned above the composer, against the real
// host and a fake OpenAI-compatible model that calls TodoWrite (e2e/support/fake-model.ts).
import { trailingToolResults, type Responder } from './support/fake-model'
import { axeViolations, seriousOrCritical } from './support/axe'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap, ui } from './support/ui'

type Status = 'pending' | 'in_progress' | 'completed'
const steps = [
  ['Read the failing test', 'Reading the failing test'],
  ['Fix the parser', 'Fixing the parser'],
  ['Run the tests', 'Running the tests']
] as const
const todosAt = (statuses: Status[]) => steps.map(([content, activeForm], i) => ({ content, activeForm, status: statuses[i]! }))

/** Each prompt writes the plan at the stage it names; once the write's result is back, a short reply. */
const planner: Responder = (body) => {
  if (trailingToolResults(body).length > 0) return { text: 'Plan updated.' }
  const last = JSON.stringify(body.messages.at(-1))
  if (last.includes('start')) return { toolCalls: [{ name: 'TodoWrite', args: { todos: todosAt(['in_progress', 'pending', 'pending']) } }] }
  if (last.includes('progress')) return { toolCalls: [{ name: 'TodoWrite', args: { todos: todosAt(['completed', 'in_progress', 'pending']) } }] }
  return { toolCalls: [{ name: 'TodoWrite', args: { todos: todosAt(['completed', 'completed', 'completed']) } }] }
}

test('the plan shows above the composer with the active item, follows each write, survives a reload and goes when all is done', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond(planner)
  const checklist = app.getByRole('region', { name: 'Todo list' })
  const current = checklist.getByRole('status', { name: 'Current task' })
  await expect(checklist).toHaveCount(0)

  await send(app, 'start the work')
  await expect(current).toHaveText('Reading the failing test')
  await expect(checklist).toContainText('0 of 3 done')
  await expect(checklist.getByRole('listitem')).toHaveText(['Reading the failing test (in progress)', 'Fix the parser (to do)', 'Run the tests (to do)'])
  await expectIdle(app)
  // Pinned above the composer: between the transcript and the message box.
  const listBox = (await checklist.boundingBox())!
  const composerBox = (await ui.composer(app).boundingBox())!
  const transcriptBox = (await ui.transcript(app).boundingBox())!
  expect(listBox.y + listBox.height).toBeLessThanOrEqual(composerBox.y)
  expect(listBox.y).toBeGreaterThanOrEqual(transcriptBox.y + transcriptBox.height - 1)
  expect(seriousOrCritical(await axeViolations(app))).toEqual([])
  await snap(app, testInfo, 'todo-started')

  await send(app, 'progress please')
  await expect(current).toHaveText('Fixing the parser')
  await expect(checklist).toContainText('1 of 3 done')
  await expectIdle(app)

  // Collapsed, the active item still shows.
  await checklist.getByRole('button', { name: 'Hide plan' }).click()
  await expect(checklist.getByRole('listitem')).toHaveCount(0)
  await expect(current).toHaveText('Fixing the parser')
  await checklist.getByRole('button', { name: 'Show plan' }).click()
  await expect(checklist.getByRole('listitem')).toHaveCount(3)

  // Durable: the list is read back from the session's log.
  await app.reload()
  await expect(current).toHaveText('Fixing the parser')
  await expect(checklist).toContainText('1 of 3 done')
  await snap(app, testInfo, 'todo-after-reload')

  await send(app, 'finish it')
  await expect(ui.assistantMessages(app).last()).toContainText('Plan updated.')
  await expectIdle(app)
  await expect(checklist).toHaveCount(0)
  // The model got Claude Code's text back for every write.
  const results = fakeModel.chatRequests().flatMap((r) => trailingToolResults(r.body))
  expect(results.length).toBeGreaterThanOrEqual(3)
  for (const result of results) expect(JSON.stringify(result)).toContain('Todos have been modified successfully.')
})
