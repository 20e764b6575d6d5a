// Issue 17 "Working fast": the model picker in the chat header switches the session's model (the
// fake provider sees the next request go to it); images pasted into the composer show as
// thumbnails and reach the provider as image parts (also when sent while a turn runs: they steer
// it), and a model without vision refuses them with nothing lost; a desktop notification fires when the page is not focused (the browser's
// Notification API and document.hasFocus are stubbed at the page edge: headless Chromium has
// no notification centre).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { OpenAIWireMessage } from '../test-support/fake-openai.mjs'
import { lastUserText, trailingToolResults } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, saveSettings, send, settingsSection, ui } from './support/ui'

// A 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

test.use({ seamSettings: { models: { 'fake-vision': { provider: 'openai-compatible', vision: true } } } })

const picker = (app: import('@playwright/test').Page) => app.getByRole('combobox', { name: 'Model' })

async function paste(app: import('@playwright/test').Page, name: string): Promise<void> {
  await ui.composer(app).evaluate(
    (box, { data, name }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], name, { type: 'image/png' }))
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
    },
    { data: PNG, name }
  )
}

function imageParts(message: OpenAIWireMessage | undefined): unknown[] {
  return Array.isArray(message?.content) ? message.content.filter((part) => (part as { type?: string }).type === 'image_url') : []
}

test('the model picker shows the model in use and switches the session: the next request goes to the chosen model', async ({ app, fakeModel }) => {
  fakeModel.respond((body) => ({ text: `answer to ${lastUserText(body)}` }))
  await expect(picker(app)).toBeVisible()
  await send(app, 'first question')
  await expect(ui.assistantMessages(app).last()).toContainText('answer to first question')
  await expectIdle(app)
  await expect(picker(app)).toHaveValue('openai-compatible\nfake-model')
  // Grouped by provider; the vision model says it takes images.
  await expect(picker(app).locator('optgroup[label="Any OpenAI-compatible server"] option')).toHaveText(['fake-model', 'fake-vision · images'])

  await picker(app).selectOption({ label: 'fake-vision · images' })
  await expect(picker(app)).toHaveValue('openai-compatible\nfake-vision')
  await expect(ui.transcript(app)).toContainText('Model switched to fake-vision (openai-compatible), was fake-model')
  await expect(app.getByRole('status', { name: 'Provider' })).toContainText('fake-vision')
  await send(app, 'second question')
  await expect(ui.assistantMessages(app).last()).toContainText('answer to second question')
  expect(fakeModel.chatRequests().map((r) => r.body.model)).toEqual(['fake-model', 'fake-vision'])
})

test('a pasted image shows as a thumbnail and reaches the model as an image part; a model without vision refuses it and keeps it', async ({ app, fakeModel }) => {
  fakeModel.respond(() => ({ text: 'I see a dot' }))
  await expect(picker(app)).toHaveValue('openai-compatible\nfake-model')
  await expect(app.getByText('fake-model does not accept images')).toBeVisible()

  await paste(app, 'dot.png')
  const attached = app.getByRole('list', { name: 'Attached images' })
  await expect(attached.getByRole('img', { name: 'dot.png' })).toBeVisible()
  await ui.composer(app).fill('what is this?')
  await ui.composer(app).press('Enter')
  // Refused with the reason; the text and the image stay in the composer; nothing reached the model.
  await expect(app.getByRole('alert').filter({ hasText: 'fake-model does not accept images' })).toBeVisible()
  await expect(ui.composer(app)).toHaveValue('what is this?')
  await expect(attached.getByRole('img', { name: 'dot.png' })).toBeVisible()
  expect(fakeModel.chatRequests()).toHaveLength(0)

  await picker(app).selectOption({ label: 'fake-vision · images' })
  await expect(app.getByText('Attach images (PNG, JPEG, GIF, WebP)')).toBeVisible()
  await ui.composer(app).press('Enter')
  await expect(ui.assistantMessages(app).last()).toContainText('I see a dot')
  await expect(attached).toHaveCount(0)
  await expect(ui.userMessages(app).last().getByRole('img', { name: 'dot.png' })).toBeVisible()
  const request = fakeModel.chatRequests().at(-1)!
  expect(request.body.model).toBe('fake-vision')
  const user = request.body.messages.filter((m) => m.role === 'user').at(-1)
  expect(imageParts(user)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }])
})

test.describe('an image while a turn runs', () => {
  test.use({ seamSettings: { approvalMode: 'never-ask', models: { 'fake-vision': { provider: 'openai-compatible', vision: true } } } })

  test('steers the running turn: the queued row and the steering row show it, and the turn\'s next request carries it', async ({ app, fakeModel, workspace }) => {
    const gate = join(workspace, 'go')
    fakeModel.respond((body) => {
      if (trailingToolResults(body).length > 0 || imageParts(body.messages.at(-1)).length > 0) return { text: 'Now I see the dot too.' }
      // A tool call that runs until the test opens the gate, so the turn is surely still running.
      return { toolCalls: [{ name: 'Bash', args: { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; echo released` } }] }
    })
    await picker(app).selectOption({ label: 'fake-vision · images' })
    await send(app, 'start a long job')
    await expect(ui.toolCards(app, 'Bash')).toHaveAttribute('data-status', 'running')

    await paste(app, 'dot.png')
    await ui.composer(app).fill('and look at this')
    await ui.composer(app).press('Enter')
    const queued = app.getByLabel('Queued message', { exact: true })
    await expect(queued).toContainText('queued (steers the running turn)')
    await expect(queued.getByRole('img', { name: 'dot.png' })).toBeVisible()

    await writeFile(gate, '')
    const steering = app.getByLabel('Steering message', { exact: true })
    await expect(steering).toContainText('and look at this')
    await expect(steering.getByRole('img', { name: 'dot.png' })).toBeVisible()
    await expect(ui.assistantMessages(app).last()).toContainText('Now I see the dot too.')
    await expectIdle(app)
    const last = fakeModel.chatRequests().at(-1)!
    expect(last.body.model).toBe('fake-vision')
    const user = last.body.messages.at(-1)
    expect(user?.role).toBe('user')
    expect(imageParts(user)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }])
  })
})

test.describe('desktop notifications', () => {
  test.beforeEach(async ({ app }) => {
    // The browser edge: a Notification API that records, and a page that has or lacks the focus.
    await app.addInitScript(() => {
      const w = window as unknown as { __notes: Array<{ title: string; body?: string; click(): void }>; __focused: boolean }
      w.__notes = []
      w.__focused = true
      class RecordingNotification {
        static permission = 'granted'
        static requestPermission = async () => 'granted'
        onclick: (() => void) | null = null
        constructor(readonly title: string, readonly options: { body?: string } = {}) {
          w.__notes.push({ title, body: options.body, click: () => this.onclick?.() })
        }
        close() {}
      }
      Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true })
      Document.prototype.hasFocus = () => w.__focused
    })
    await app.reload()
  })

  test('a finished turn notifies only while the page is not focused, once; clicking shows its session', async ({ app, fakeModel }) => {
    fakeModel.respond((body) => ({ text: `done: ${lastUserText(body)}`, chunkDelayMs: 30 }))
    const notes = () => app.evaluate(() => (window as unknown as { __notes: Array<{ title: string; body?: string }> }).__notes.map(({ title, body }) => ({ title, body })))
    await send(app, 'while focused')
    await expect(ui.assistantMessages(app).last()).toContainText('done: while focused')
    await expectIdle(app)
    expect(await notes()).toEqual([])

    await app.evaluate(() => ((window as unknown as { __focused: boolean }).__focused = false))
    await send(app, 'while away')
    await expect(ui.assistantMessages(app).last()).toContainText('done: while away')
    // The notification names the session it is about (its title, from its first prompt).
    await expect.poll(notes).toEqual([{ title: 'Seam finished', body: '"while focused": The turn is done: your reply is waiting.' }])

    // Clicking it shows the chat with that session, from another page.
    await ui.pageButton(app, 'Settings').click()
    await app.evaluate(() => (window as unknown as { __notes: Array<{ click(): void }> }).__notes[0]!.click())
    await expect(ui.composer(app)).toBeVisible()
    await expect(ui.userMessages(app).last()).toContainText('while away')
  })

  test('turned off in the settings, nothing is shown', async ({ app, fakeModel }) => {
    fakeModel.respond(() => ({ text: 'ok' }))
    const section = await settingsSection(app, 'Notifications')
    const toggle = section.getByRole('checkbox', { name: /Desktop notifications/ })
    await expect(toggle).toBeChecked()
    await toggle.uncheck()
    await expect(toggle).not.toBeChecked()
    await saveSettings(section)
    await ui.pageButton(app, 'Chat').click()
    await app.evaluate(() => ((window as unknown as { __focused: boolean }).__focused = false))
    await send(app, 'quietly')
    await expect(ui.assistantMessages(app).last()).toContainText('ok')
    await expectIdle(app)
    expect(await app.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes.length)).toBe(0)
  })
})
