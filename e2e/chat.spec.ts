// Issue 5: the chat against a fake OpenAI-compatible server with scripted turns (see
// e2e/support/fake-model.ts): first run, streaming Markdown, approvals (allow, deny with a note,
// a reload while the dialog is open), Stop, reload persistence, steering.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { errorBody } from '../test-support/fake-openai.mjs'
import { isConnectionTest, lastUserText, textOf, trailingToolResults, userSaidSinceLastReply, type Responder } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, recordTexts, send, snap, ui } from './support/ui'

const WRONG_KEY_MESSAGE = 'Incorrect API key provided: wrong-key. You can find your API key at https://platform.example/keys.'
const CODE = "console.log('hello from seam')"
const ANSWER = `Here is a code block:\n\n\`\`\`js\n${CODE}\n\`\`\`\n\nThat is all.`

test.describe('first run', () => {
  test.use({ seamSetup: 'first-run' })

  test('choose the workspace by path, test and save a provider, then a prompt streams its Markdown answer', async ({ app, fakeModel, workspace, seamHome }, testInfo) => {
    fakeModel.respond((body, ctx) => {
      if (isConnectionTest(body)) {
        return ctx.headers.authorization === 'Bearer good-key' ? { text: 'pong' } : { error: { status: 401, body: errorBody(401, WRONG_KEY_MESSAGE) } }
      }
      return { text: ANSWER, chunkSize: 4, chunkDelayMs: 40 }
    })

    const setup = app.getByRole('main', { name: 'Set up Seam' })
    await expect(setup).toBeVisible()
    await snap(app, testInfo, 'first-run')

    // Typed rather than picked, so the same steps work in web mode (no native picker) and Electron.
    await setup.getByRole('button', { name: 'Type a path instead' }).click()
    await setup.getByRole('textbox', { name: 'Workspace folder' }).fill(workspace)
    await setup.getByRole('button', { name: 'Use this folder' }).click()
    await expect(setup.locator('code.path')).toHaveText(workspace)

    await setup.getByRole('combobox', { name: 'Provider' }).selectOption('openai-compatible')
    await setup.getByRole('textbox', { name: 'Base URL' }).fill(fakeModel.url)
    await setup.getByRole('textbox', { name: 'Model' }).fill('fake-model')
    const key = setup.getByLabel('API key')
    await key.fill('wrong-key')
    await setup.getByRole('button', { name: 'Test connection' }).click()
    const result = setup.getByRole('status', { name: 'Connection test result' })
    await expect(result).toHaveText(WRONG_KEY_MESSAGE)
    await snap(app, testInfo, 'provider-test-failed')

    await key.fill('good-key')
    await setup.getByRole('button', { name: 'Test connection' }).click()
    await expect(result).toHaveText('Connected: fake-model')
    await snap(app, testInfo, 'provider-test-ok')
    await setup.getByRole('button', { name: 'Save' }).click()

    // Set up: the chat shows.
    await expect(setup).toHaveCount(0)
    await expect(ui.composer(app)).toBeVisible()

    const recorder = await recordTexts(app, '[aria-label="Assistant message"] .markdown')
    await send(app, 'Show me a code block')
    const answer = ui.assistantMessages(app).last()
    await expect(answer).toContainText('Here is')
    await snap(app, testInfo, 'streaming')
    await expect(answer).toContainText('That is all.')
    await expect(answer.locator('pre code')).toHaveText(`${CODE}\n`)
    await expectIdle(app)
    await snap(app, testInfo, 'streamed-markdown')

    // The text arrived in pieces: the view showed a beginning of the answer before all of it.
    const seen = await recorder.texts()
    const full = seen[seen.length - 1]
    expect(full).toContain('That is all.')
    expect(seen.filter((text) => text.length > 0 && text.length < full.length && !text.includes('That is all.')).length).toBeGreaterThan(0)

    // The key went to the provider, and never into settings.json.
    expect(fakeModel.chatRequests()[0]?.headers.authorization).toBe('Bearer good-key')
    expect(await readFile(join(seamHome, 'settings.json'), 'utf8')).not.toContain('good-key')
  })
})

/** The model runs `commandFor(prompt)` with Bash, then answers with what the tool result said. */
function bashThenEcho(commandFor: (prompt: string) => string): Responder {
  return (body) => {
    const results = trailingToolResults(body)
    if (results.length > 0) return { text: `The tool said: ${results.map(textOf).join(' | ')}` }
    return { toolCalls: [{ name: 'Bash', args: { command: commandFor(lastUserText(body)) } }] }
  }
}

test.describe('approvals', () => {
  test('Allow once runs the Bash call and its card shows the output; Deny with a note reaches the model', async ({ app, fakeModel }, testInfo) => {
    fakeModel.respond(bashThenEcho((prompt) => (prompt.includes('greet') ? 'echo hello-from-bash' : 'rm -rf build')))

    await send(app, 'please greet')
    const dialog = ui.approvalDialog(app)
    await expect(dialog).toBeVisible()
    await expect(dialog.locator('.tool-name')).toHaveText('Bash')
    await expect(dialog.getByRole('group', { name: 'Command that will run' }).locator('pre')).toHaveText('echo hello-from-bash')
    await expect(dialog).toContainText('Why:')
    const firstCard = ui.toolCards(app, 'Bash').first()
    await snap(app, testInfo, 'approval-dialog')
    await dialog.getByRole('button', { name: 'Allow once' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(firstCard).toHaveAttribute('data-status', 'done')
    await expect(firstCard.locator('.tool-outcome')).toHaveText('exit 0')
    await ui.openToolCard(firstCard)
    await expect(firstCard.getByLabel('Tool result')).toContainText('hello-from-bash')
    await expect(ui.assistantMessages(app).last()).toContainText('The tool said:')
    await expect(ui.assistantMessages(app).last()).toContainText('hello-from-bash')
    await expectIdle(app)
    await snap(app, testInfo, 'allowed-once')

    const note = 'not now: move it to the trash instead'
    await send(app, 'clean the build folder')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('group', { name: 'Command that will run' }).locator('pre')).toHaveText('rm -rf build')
    await expect(dialog.getByRole('group', { name: 'Dangerous call' })).toContainText('recursive delete')
    await dialog.getByRole('textbox', { name: 'Note for the model' }).fill(note)
    await snap(app, testInfo, 'deny-with-note')
    await dialog.getByRole('button', { name: 'Deny' }).click()
    await expect(dialog).toHaveCount(0)
    const denied = ui.toolCards(app, 'Bash').nth(1)
    await expect(denied).toHaveAttribute('data-status', 'denied')
    await expect(denied).toContainText(note)
    // The model's reply echoes the tool result it was sent: the denial with the note.
    const reply = ui.assistantMessages(app).last()
    await expect(reply).toContainText('The tool said:')
    await expect(reply).toContainText(note)
    await expectIdle(app)
    await snap(app, testInfo, 'denied')
  })

  test('reloading the page while the dialog is open denies the call and the turn finishes', async ({ app, fakeModel }, testInfo) => {
    fakeModel.respond(bashThenEcho(() => 'touch reloaded.txt'))
    await send(app, 'touch a file')
    const dialog = ui.approvalDialog(app)
    await expect(dialog).toBeVisible()
    await snap(app, testInfo, 'dialog-before-reload')

    await app.reload()
    const card = ui.toolCards(app, 'Bash')
    await expect(card).toHaveAttribute('data-status', 'denied')
    // The ask resolved to unavailable (nobody left to answer it): a deny, with the reason shown.
    await expect(card.locator('.tool-status')).toHaveText(/^Denied: .*(no approval channel|nobody could answer|unavailable|cancelled)/)
    await expect(ui.assistantMessages(app).last()).toContainText('The tool said:')
    await expectIdle(app)
    await expect(dialog).toHaveCount(0)
    await snap(app, testInfo, 'after-reload-denied')
  })
})

test.describe('turns', () => {
  const PARTIAL = 'The first part of a long answer arrives, '
  const REST = 'and this rest never does because the stream stalls.'

  test('Stop in the middle of a slow stream cancels the turn, keeps the partial text, and a reload keeps the session', async ({ app, fakeModel }, testInfo) => {
    fakeModel.respond(() => ({ text: PARTIAL + REST, chunkSize: 4, chunkDelayMs: 30, hangAfterChars: PARTIAL.length }))
    await send(app, 'tell me a long story')
    const answer = ui.assistantMessages(app).last()
    await expect(answer).toContainText(PARTIAL.trim())
    await snap(app, testInfo, 'stalled-stream')
    await ui.stopButton(app).click()

    await expect(ui.turnEnds(app).last()).toHaveText('Turn cancelled')
    await expectIdle(app)
    await expect(ui.assistantMessages(app).last()).toContainText(PARTIAL.trim())
    await expect(ui.assistantMessages(app).last()).not.toContainText(REST)
    expect(await fakeModel.chatRequests()[0].closed).toBe('aborted')
    await snap(app, testInfo, 'stopped')

    // The session outlives the page: after a reload it is reopened with its transcript.
    await app.reload()
    await expect(ui.userMessages(app)).toHaveCount(1)
    await expect(ui.userMessages(app).first()).toContainText('tell me a long story')
    await expect(ui.assistantMessages(app).last()).toContainText(PARTIAL.trim())
    await expect(ui.turnEnds(app).last()).toHaveText('Turn cancelled')
    await expect(ui.sessionRows(app)).toHaveCount(1)
    await expect(ui.sessionRows(app).first()).toContainText('tell me a long story')
    await snap(app, testInfo, 'after-reload')
  })

  test.describe('steering', () => {
    test.use({ seamSettings: { approvalMode: 'never-ask' } })

    test('a message sent while a turn runs steers it', async ({ app, fakeModel, workspace }, testInfo) => {
      const STEER = 'also list the results in order'
      const gate = join(workspace, 'go')
      fakeModel.respond((body) => {
        if (userSaidSinceLastReply(body, STEER)) return { text: `Steered by: ${STEER}` }
        if (trailingToolResults(body).length > 0) return { text: 'Finished without steering.' }
        // A tool call that runs until the test opens the gate, so the turn is surely still running.
        return { toolCalls: [{ name: 'Bash', args: { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; echo released` } }] }
      })
      await send(app, 'start a long job')
      const card = ui.toolCards(app, 'Bash')
      await expect(card).toHaveAttribute('data-status', 'running')
      await expect(ui.stopButton(app)).toBeVisible()

      await send(app, STEER)
      const queued = app.getByLabel('Queued message', { exact: true })
      await expect(queued).toContainText('queued (steers the running turn)')
      await expect(queued).toContainText(STEER)
      await snap(app, testInfo, 'steering-queued')

      await writeFile(gate, '')
      const steering = app.getByLabel('Steering message', { exact: true })
      await expect(steering).toContainText('You (steering the turn)')
      await expect(steering).toContainText(STEER)
      await expect(queued).toHaveCount(0)
      await expect(ui.assistantMessages(app).last()).toHaveText(/Steered by: also list the results in order/)
      await expect(card).toHaveAttribute('data-status', 'done')
      await expectIdle(app)
      await snap(app, testInfo, 'steered')
    })
  })
})
