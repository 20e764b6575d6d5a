// Issue 28, Ctrl+B: a running foreground Bash moved to the background by hand, against the real
// host and a fake OpenAI-compatible model. The command is a real ticker that never ends by itself:
// once moved, the model gets Claude Code's answer at once and the turn goes on, while the ticker
// runs on as a background task whose output file holds what it printed before and after the move.
import { textOf, trailingToolResults, type Responder } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap } from './support/ui'

test.use({ seamSettings: { approvalMode: 'never-ask' } })

const ticker = (name: string) => `node -e "let i = 0; setInterval(() => console.log('${name} ' + ++i), 150)"`

const runner: Responder = (body) => {
  if (trailingToolResults(body).length > 0) return { text: 'Moved on.' }
  const last = JSON.stringify(body.messages.at(-1))
  const name = last.includes('second') ? 'tock' : 'tick'
  return { toolCalls: [{ name: 'Bash', args: { command: ticker(name), description: `Foreground ${name}er` } }] }
}

const MOVED = /^Command was manually backgrounded by user with ID: (b[0-9a-z]{8})\. Output is being written to: \/.+\.output$/

test('a running foreground Bash moves to the background from its card and with Ctrl+B: the model is answered at once, the command runs on as a task with its output so far', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond(runner)
  const panel = app.getByRole('region', { name: 'Background tasks' })

  // From the card's control.
  await send(app, 'run the first ticker')
  const card = app.getByRole('article', { name: 'Tool call Bash' }).first()
  await expect(card.getByLabel('Live output')).toContainText('tick 2')
  await snap(app, testInfo, 'bash-running-with-move')
  await card.getByRole('button', { name: 'Move to background' }).click()
  await expect(app.getByText('Moved on.')).toBeVisible()
  await expectIdle(app)
  const firstAnswer = textOf(trailingToolResults(fakeModel.chatRequests().at(-1)!.body)[0])
  const firstId = MOVED.exec(firstAnswer)?.[1]
  expect(firstAnswer).toMatch(MOVED)
  const first = panel.getByRole('listitem').filter({ hasText: 'Foreground ticker' })
  await expect(first.getByLabel('Status')).toHaveText('running')
  // What it printed before the move is in its output, and it goes on printing.
  const firstOutput = first.getByLabel(`Output of ${firstId}`)
  await expect(firstOutput).toContainText('tick 1\ntick 2\n')
  const shown = Number(/tick (\d+)\n$/.exec((await firstOutput.textContent()) ?? '')?.[1] ?? 0)
  await expect(firstOutput).toContainText(`tick ${shown + 3}`)

  // With Ctrl+B while it runs.
  await send(app, 'run the second ticker')
  const second = app.getByRole('article', { name: 'Tool call Bash' }).nth(1)
  await expect(second.getByLabel('Live output')).toContainText('tock 2')
  await app.keyboard.press('Control+b')
  await expect(app.getByText('Moved on.')).toHaveCount(2)
  await expectIdle(app)
  const secondAnswer = textOf(trailingToolResults(fakeModel.chatRequests().at(-1)!.body)[0])
  expect(secondAnswer).toMatch(MOVED)
  const secondId = MOVED.exec(secondAnswer)?.[1]
  const secondTask = panel.getByRole('listitem').filter({ hasText: 'Foreground tocker' })
  await expect(secondTask.getByLabel('Status')).toHaveText('running')
  await expect(secondTask.getByLabel(`Output of ${secondId}`)).toContainText('tock 1\ntock 2\n')
  await expect(panel.getByRole('status', { name: 'Background task count' })).toHaveText('2 running, 0 ended')
  await snap(app, testInfo, 'bash-moved-to-background')

  // They are ordinary tasks: Stop ends them.
  await first.getByRole('button', { name: `Stop ${firstId}` }).click()
  await secondTask.getByRole('button', { name: `Stop ${secondId}` }).click()
  await expect(panel.getByRole('status', { name: 'Background task count' })).toHaveText('0 running, 2 ended')
})
