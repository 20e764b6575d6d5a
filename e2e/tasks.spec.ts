// Issue 28: background commands in the tasks panel, against the real host and a fake
// OpenAI-compatible model that starts them with Bash run_in_background: a running command's live
// output tail, run time and Stop (its process really ends); an ended one's exit code; the list
// read back from the session's log after a reload.
import { trailingToolResults, type Responder } from './support/fake-model'
import { axeViolations, seriousOrCritical } from './support/axe'
import { expect, test } from './support/seam-test'
import { expectIdle, send, snap } from './support/ui'

test.use({ seamSettings: { approvalMode: 'never-ask' } })

const TICKER = `node -e "let i = 0; setInterval(() => console.log('tick ' + ++i), 150)"`

const starter: Responder = (body) => {
  if (trailingToolResults(body).length > 0) return { text: 'Started.' }
  const last = JSON.stringify(body.messages.at(-1))
  if (last.includes('ticker')) return { toolCalls: [{ name: 'Bash', args: { command: TICKER, run_in_background: true, description: 'Tick every 150 ms' } }] }
  return { toolCalls: [{ name: 'Bash', args: { command: 'echo quick job output; exit 2', run_in_background: true, description: 'Quick failing job' } }] }
}

test('the tasks panel shows a running command with its live output and run time, stops it, and shows ended ones with their exit code', async ({ app, fakeModel }, testInfo) => {
  fakeModel.respond(starter)
  const panel = app.getByRole('region', { name: 'Background tasks' })
  await expect(panel).toHaveCount(0)

  await send(app, 'start the ticker')
  await expectIdle(app)
  const ticker = panel.getByRole('listitem').filter({ hasText: 'Tick every 150 ms' })
  await expect(ticker.getByLabel('Status')).toHaveText('running')
  const id = (await ticker.getAttribute('aria-label'))!.replace('Task ', '')
  expect(id).toMatch(/^b[0-9a-z]{8}$/)
  // The tail follows the output as it grows.
  const output = ticker.getByLabel(`Output of ${id}`)
  await expect(output).toContainText('tick 2')
  await expect(output).toContainText('tick 6')
  await expect(ticker.getByLabel('Run time')).not.toHaveText('0s')
  await expect(panel.getByRole('status', { name: 'Background task count' })).toHaveText('1 running, 0 ended')
  expect(seriousOrCritical(await axeViolations(app))).toEqual([])
  await snap(app, testInfo, 'task-running')

  await send(app, 'run the quick job')
  await expectIdle(app)
  const quick = panel.getByRole('listitem').filter({ hasText: 'Quick failing job' })
  await expect(quick.getByLabel('Status')).toHaveText('failed (exit code 2)')
  // Shown while it ran, on request once ended.
  const showQuick = quick.getByRole('button', { name: /^Show output of / })
  if (await showQuick.count()) await showQuick.click()
  await expect(quick.getByLabel(/^Output of /)).toHaveText('quick job output\n')

  await ticker.getByRole('button', { name: `Stop ${id}` }).click()
  await expect(ticker.getByLabel('Status')).toHaveText('stopped (exit code 143)')
  await expect(ticker.getByRole('button', { name: `Stop ${id}` })).toHaveCount(0)
  const stoppedAt = await ticker.getByLabel('Run time').textContent()
  await expect(panel.getByRole('status', { name: 'Background task count' })).toHaveText('0 running, 2 ended')
  await snap(app, testInfo, 'task-stopped')

  // The list is read back after a reload: ended tasks with their exit codes.
  await app.reload()
  await expect(ticker.getByLabel('Status')).toHaveText('stopped (exit code 143)')
  await expect(ticker.getByLabel('Run time')).toHaveText(stoppedAt!)
  await expect(quick.getByLabel('Status')).toHaveText('failed (exit code 2)')
})
