// The model picker's switch and image prompts, through the real router and agent loop to the
// loopback fakes speaking the OpenAI and Anthropic wire protocols: the switch is logged and the
// next request goes to the chosen model; images reach the provider as its own content parts
// (Chat Completions `image_url` data URLs, Anthropic base64 `image` blocks); a model without
// vision refuses them before anything is logged; a resumed session rebuilds the same request.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src-shared/session/events'
import { MAX_IMAGE_BYTES } from '../../src-shared/session/attachments'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { startFakeAnthropic, type AnthropicRequestBody } from '../../test-support/fake-anthropic.mjs'
import { createHost, type Host } from './host'

// A 1x1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

let dir: string
let host: Host | undefined
let servers: Array<{ close(): Promise<void> }> = []
const caller = { transport: 'web' as const }

async function call<T>(method: string, input: unknown): Promise<T> {
  const reply = await host!.router.invoke(method as never, input as never, caller)
  if (!reply.ok) throw Object.assign(new Error(`${method}: ${reply.error.message}`), { error: reply.error })
  return reply.output as T
}

const start = async () => {
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: join(dir, 'home'), HOME: dir } })
  await call('workspace/set', { path: join(dir, 'ws') })
}

async function events(id: string): Promise<SessionEvent[]> {
  return [...(await host!.runtime.sessions.open(id)).log.events]
}

async function sendAndWait(id: string, input: Record<string, unknown>): Promise<void> {
  const before = (await events(id)).filter((e) => e.type === 'turn/end').length
  await call('chat/send', { sessionId: id, ...input })
  const deadline = Date.now() + 15_000
  while ((await events(id)).filter((e) => e.type === 'turn/end').length === before) {
    if (Date.now() > deadline) throw new Error('the turn did not end')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-model-images-'))
  await mkdir(join(dir, 'ws'))
  await mkdir(join(dir, 'home'))
  // The user's model table: a vision model served by the OpenAI-compatible server.
  await writeFile(join(dir, 'home', 'settings.json'), JSON.stringify({ models: { 'fake-vision': { provider: 'openai-compatible', vision: true } } }))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  for (const server of servers) await server.close()
  servers = []
  await rm(dir, { recursive: true, force: true })
})

describe('model picker (model/options, model/select)', () => {
  it('lists the presets with their models, switches the session, logs model/switched, and the next request names the chosen model', async () => {
    const server: FakeProviderServer<OpenAIRequestBody> = await startFakeOpenAI(Array.from({ length: 4 }, () => ({ text: 'ok' })))
    servers.push(server)
    await start()
    await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake-text', apiKey: 'k' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    const options = await call<{ current: unknown; providers: Array<{ id: string; available: boolean; reason?: string; models: Array<{ model: string; vision: boolean }> }> }>('model/options', { sessionId: id })
    expect(options.current).toEqual({ provider: 'openai-compatible', model: 'fake-text', vision: false })
    const compatible = options.providers.find((p) => p.id === 'openai-compatible')!
    expect(compatible.models).toEqual([
      { model: 'fake-text', vision: false },
      { model: 'fake-vision', vision: true }
    ])
    expect(options.providers.find((p) => p.id === 'anthropic')).toMatchObject({ available: false, reason: expect.stringMatching(/no Anthropic API key stored/), models: [{ model: 'claude-sonnet-5-5', vision: true }] })
    expect(options.providers.find((p) => p.id === 'ollama')).toMatchObject({ available: true })

    await sendAndWait(id, { content: 'first' })
    const switched = await call<{ current: unknown }>('model/select', { sessionId: id, provider: 'openai-compatible', model: 'fake-vision' })
    expect(switched.current).toEqual({ provider: 'openai-compatible', model: 'fake-vision', vision: true })
    await sendAndWait(id, { content: 'second' })
    expect(server.requests.map((r) => r.body.model)).toEqual(['fake-text', 'fake-vision'])
    expect((await events(id)).find((e) => e.type === 'model/switched')).toMatchObject({ provider: 'openai-compatible', model: 'fake-vision', from: { provider: 'openai-compatible', model: 'fake-text' } })
    expect(host!.runtime.logs().some((r) => r.plugin === 'model' && /fake-text \(openai-compatible\) -> fake-vision/.test(r.message))).toBe(true)
    // The Host's provider in use is untouched: the switch is the session's.
    expect(host!.runtime.settings.value.provider?.model).toBe('fake-text')

    // Resumed after a restart, the session keeps its model.
    await host!.close()
    host = undefined
    await start()
    await sendAndWait(id, { content: 'third' })
    expect(server.requests.at(-1)!.body.model).toBe('fake-vision')
  })

  it('the desktop app opens an old session with the provider and model its header records; a model switch in its log still wins', async () => {
    const server: FakeProviderServer<OpenAIRequestBody> = await startFakeOpenAI(Array.from({ length: 4 }, () => ({ text: 'ok' })))
    servers.push(server)
    await start()
    await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake-text', apiKey: 'k' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    await sendAndWait(id, { content: 'first' })
    const { id: other } = await call<{ id: string }>('sessions/create', {})
    await sendAndWait(other, { content: 'first of the other' })
    await call('model/select', { sessionId: other, provider: 'openai-compatible', model: 'fake-vision' })

    // Another window, later: Settings now name another model.
    await host!.close()
    host = undefined
    await start()
    await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake-new', apiKey: 'k' })
    // Opened as the renderer opens it (sessions/open), the session names its own model, and its next request uses it.
    await call('sessions/open', { id })
    const options = await call<{ current: unknown }>('model/options', { sessionId: id })
    expect(options.current).toEqual({ provider: 'openai-compatible', model: 'fake-text', vision: false })
    await sendAndWait(id, { content: 'second' })
    expect(server.requests.at(-1)!.body.model).toBe('fake-text')
    // The explicit choice (the model picker's switch, logged) overrides the header.
    await call('sessions/open', { id: other })
    expect((await call<{ current: unknown }>('model/options', { sessionId: other })).current).toMatchObject({ model: 'fake-vision' })
    // A new session takes the provider in use.
    const { id: fresh } = await call<{ id: string }>('sessions/create', {})
    await sendAndWait(fresh, { content: 'new' })
    expect(server.requests.at(-1)!.body.model).toBe('fake-new')
  })

  it('refuses a provider Seam cannot reach, naming why', async () => {
    await start()
    await call('provider/set', { provider: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    await expect(call('model/select', { sessionId: id, provider: 'openai', model: 'gpt-4.1' })).rejects.toMatchObject({
      error: { field: 'provider', message: expect.stringMatching(/OpenAI no OpenAI API key stored/) }
    })
    expect((await events(id)).some((e) => e.type === 'model/switched')).toBe(false)
  })
})

describe('images in prompts', () => {
  it('OpenAI-compatible: an image goes as an image_url data URL part after the text; resume rebuilds the same request', async () => {
    const server = await startFakeOpenAI(Array.from({ length: 4 }, () => ({ text: 'a tiny image' })))
    servers.push(server)
    await start()
    await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake-vision', apiKey: 'k' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    await sendAndWait(id, { content: 'what is this?', images: [{ mediaType: 'image/png', data: PNG, name: 'dot.png' }] })
    const user = server.requests[0]!.body.messages.find((m) => m.role === 'user')!
    expect(user.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }
    ])
    expect((await events(id)).find((e) => e.type === 'user/message')).toMatchObject({ images: [{ mediaType: 'image/png', data: PNG, name: 'dot.png' }] })

    await host!.close()
    host = undefined
    await start()
    await sendAndWait(id, { content: 'and now?' })
    // The first user message of the resumed request is the same as before the restart.
    expect(server.requests[1]!.body.messages.find((m) => m.role === 'user')).toEqual(user)
  })

  it('Anthropic: an image goes as a base64 image block before the text', async () => {
    const server = await startFakeAnthropic([{ text: 'a dot' }])
    servers.push(server)
    await start()
    await call('provider/set', { provider: 'anthropic', baseUrl: server.url, model: 'claude-sonnet-5-5', apiKey: 'sk-ant' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    await sendAndWait(id, { content: 'describe', images: [{ mediaType: 'image/png', data: PNG }] })
    const body = server.requests[0]!.body as AnthropicRequestBody
    expect(body.messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'text', text: 'describe' }
    ])
  })

  it('an image sent while a turn runs steers it: the turn\'s next request carries it as the user\'s image part, and resume rebuilds it', async () => {
    // The first answer streams slowly and asks for a Glob call, so the image arrives while the turn runs and the next step drains it.
    const server = await startFakeOpenAI([
      { text: 'Looking around first.', chunkSize: 1, chunkDelayMs: 40, toolCalls: [{ name: 'Glob', args: { pattern: '*.md' } }] },
      { text: 'That is a dot.' },
      { text: 'still a dot' }
    ])
    servers.push(server)
    await start()
    await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake-vision', apiKey: 'k' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    await call('chat/send', { sessionId: id, content: 'look at the folder' })
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    const steered = await call<{ queued: string }>('chat/send', { sessionId: id, content: 'and at this', images: [{ mediaType: 'image/png', data: PNG, name: 'dot.png' }] })
    expect(steered.queued).toBe('steering')
    while (!(await events(id)).some((e) => e.type === 'turn/end')) await new Promise((resolve) => setTimeout(resolve, 20))

    expect((await events(id)).find((e) => e.type === 'steering/message')).toMatchObject({ source: 'user', text: 'and at this', images: [{ mediaType: 'image/png', data: PNG, name: 'dot.png' }] })
    expect(server.requests).toHaveLength(2)
    const last = server.requests[1]!.body.messages.at(-1)!
    expect(last.role).toBe('user')
    expect(last.content).toEqual([
      { type: 'text', text: 'and at this' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }
    ])

    await host!.close()
    host = undefined
    await start()
    await sendAndWait(id, { content: 'and now?' })
    expect(server.requests[2]!.body.messages).toContainEqual(last)
  })

  it('a model without vision refuses images with a clear message and logs nothing; an image over the cap is refused naming its size', async () => {
    const server = await startFakeOpenAI([{ text: 'never' }])
    servers.push(server)
    await start()
    await call('provider/set', { provider: 'openai-compatible', baseUrl: server.url, model: 'fake-text', apiKey: 'k' })
    const { id } = await call<{ id: string }>('sessions/create', {})
    const before = (await events(id)).length
    await expect(call('chat/send', { sessionId: id, content: 'look', images: [{ mediaType: 'image/png', data: PNG }] })).rejects.toMatchObject({
      error: { code: 'NO_VISION', field: 'images', message: 'fake-text does not accept images: choose a model that does in the model picker, or remove the images. The message was not sent.' }
    })
    const big = 'A'.repeat(Math.ceil(((MAX_IMAGE_BYTES + 10) * 4) / 3 / 4) * 4)
    await expect(call('chat/send', { sessionId: id, content: 'look', images: [{ mediaType: 'image/png', data: big, name: 'huge.png' }] })).rejects.toMatchObject({
      error: { message: expect.stringMatching(/huge\.png is 3\.8 MB: an image can be at most 3\.8 MB/) }
    })
    await expect(call('chat/send', { sessionId: id, content: 'look', images: [{ mediaType: 'image/bmp', data: PNG }] })).rejects.toMatchObject({
      error: { message: expect.stringMatching(/images\[0\]\.mediaType: must be one of image\/png/) }
    })
    expect((await events(id)).length).toBe(before)
    expect(server.requests).toHaveLength(0)
  })
})
