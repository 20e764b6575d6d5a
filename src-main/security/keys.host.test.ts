// Provider keys stay with the provider (issue 13, "Keys"), through the real host: a model that
// runs `env` in Bash, a hook that prints its environment, a file that holds the key, and a
// renderer that names another base URL for provider/test. The provider is the loopback fake
// speaking the OpenAI wire protocol.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeProviderServer, type OpenAIRequestBody } from '../../test-support/fake-openai.mjs'
import { createHost, type Host } from '../app/host'
import { REDACTED_KEY } from './keys'

const KEY = 'sk-issue13-PROVIDER-KEY-0123456789'
const caller = { transport: 'web' as const }

let home: string
let workspace: string
let host: Host | undefined
let server: FakeProviderServer<OpenAIRequestBody> | undefined
const savedEnv: Record<string, string | undefined> = {}

function setEnv(name: string, value: string): void {
  if (!(name in savedEnv)) savedEnv[name] = process.env[name]
  process.env[name] = value
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-keys-home-'))
  workspace = await mkdtemp(join(tmpdir(), 'seam-keys-ws-'))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  await server?.close()
  server = undefined
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
    delete savedEnv[name]
  }
  await rm(home, { recursive: true, force: true })
  await rm(workspace, { recursive: true, force: true })
})

async function startHost(settings: Record<string, unknown> = {}): Promise<Host> {
  await writeFile(join(home, 'settings.json'), JSON.stringify({ workspace, approvalMode: 'never-ask', ...settings }))
  host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } })
  return host
}

async function runTurn(h: Host, prompt: string): Promise<string> {
  const session = await h.runtime.sessions.create(workspace)
  session.agent.send(prompt, 'user')
  await session.agent.whenIdle()
  await session.log.flush()
  return session.log.path
}

describe('provider keys never reach a tool or hook process (issue 13: Keys)', () => {
  it('Bash and hooks run without the key, whatever variable holds it, plus variables settings strip; allow lets one back in', async () => {
    // The key as the default variable, under another name, and a user-named token to strip.
    setEnv('OPENAI_API_KEY', KEY)
    setEnv('MY_COPY_OF_THE_KEY', KEY)
    setEnv('SEAM_TEST_EXTRA_TOKEN', 'ghp-not-a-provider-key-but-private')
    setEnv('SEAM_TEST_ALLOWED', 'sk-let-through-by-settings-000')
    setEnv('SEAM_TEST_VISIBLE', 'ordinary-value')
    server = await startFakeOpenAI([{ toolCalls: [{ name: 'Bash', args: { command: 'env' } }] }, { text: 'done' }])
    const h = await startHost({
      toolEnv: { strip: ['SEAM_TEST_EXTRA_TOKEN'], allow: ['SEAM_TEST_ALLOWED'] },
      // A hook from Seam's own settings that prints its environment into the log.
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'env' }] }] }
    })
    const set = await h.router.invoke('provider/set', { provider: 'openai', baseUrl: server.url, model: 'm', apiKey: KEY }, caller)
    expect(set.ok).toBe(true)
    // A stored key whose variable is allowed is still a key: the allowed variable's own value goes through.
    const path = await runTurn(h, 'show the environment')

    const log = await readFile(path, 'utf8')
    const events = log.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    const result = events.find((e) => e.type === 'tool/result') as { content: string }
    expect(result.content).toContain('SEAM_TEST_VISIBLE=ordinary-value')
    expect(result.content).toContain('SEAM_TEST_ALLOWED=sk-let-through-by-settings-000')
    expect(result.content).not.toContain('OPENAI_API_KEY=')
    expect(result.content).not.toContain('MY_COPY_OF_THE_KEY=')
    expect(result.content).not.toContain('SEAM_TEST_EXTRA_TOKEN=')
    const hook = events.find((e) => e.type === 'hook/result') as { stdout?: string }
    expect(hook.stdout).toContain('SEAM_TEST_VISIBLE=ordinary-value')
    expect(hook.stdout).not.toContain('MY_COPY_OF_THE_KEY=')
    expect(hook.stdout).not.toContain('SEAM_TEST_EXTRA_TOKEN=')
    expect(log).not.toContain(KEY)
    // What went back to the provider: the key only in the Authorization header.
    const second = JSON.stringify(server.requests[1].body)
    expect(second).toContain('SEAM_TEST_VISIBLE')
    expect(second).not.toContain(KEY)
  })

  it('a key that reaches output anyway (a file holding it) is redacted from every logged event, notice and request', async () => {
    server = await startFakeOpenAI([{ toolCalls: [{ name: 'Bash', args: { command: 'cat leaked.txt' } }] }, { text: 'done' }])
    await writeFile(join(workspace, 'leaked.txt'), `token=${KEY}\n`)
    const h = await startHost({
      // A failing hook whose error text quotes the key: its notice must not.
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat leaked.txt >&2; exit 1' }] }] }
    })
    await h.router.invoke('provider/set', { provider: 'openai', baseUrl: server.url, model: 'm', apiKey: KEY }, caller)
    const path = await runTurn(h, 'read the file')

    const log = await readFile(path, 'utf8')
    expect(log).not.toContain(KEY)
    const events = log.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect((events.find((e) => e.type === 'tool/result') as { content: string }).content).toBe(`token=${REDACTED_KEY}`)
    const notices = events.filter((e) => e.type === 'notice') as Array<{ text: string }>
    expect(notices.some((n) => n.text.includes(REDACTED_KEY))).toBe(true)
    expect(JSON.stringify(server.requests[1].body)).not.toContain(KEY)
    expect(JSON.stringify(server.requests[1].body)).toContain(REDACTED_KEY)
  })
})

describe('a stored key goes only to the base URL it was saved with (issue 13: provider/test)', () => {
  it('provider/test naming another base URL without a key sends no key there', async () => {
    const home = await startFakeOpenAI([{ text: 'hi' }])
    const attacker = await startFakeOpenAI([{ text: 'thanks for the key' }])
    try {
      const h = await startHost()
      await h.router.invoke('provider/set', { provider: 'openai', baseUrl: home.url, model: 'm', apiKey: KEY }, caller)
      const stolen = await h.router.invoke('provider/test', { provider: 'openai', baseUrl: attacker.url, model: 'm' }, caller)
      expect(stolen).toEqual({ ok: true, output: { ok: false, kind: 'auth', message: expect.stringContaining(home.url) } })
      expect(attacker.requests).toHaveLength(0)
      // provider/set to the other URL without a key does not carry the key over either.
      await h.router.invoke('provider/set', { provider: 'openai', baseUrl: attacker.url, model: 'm' }, caller)
      const status = await h.router.invoke('provider/get', {}, caller)
      expect(status).toEqual({ ok: true, output: expect.objectContaining({ baseUrl: attacker.url, hasKey: false }) })
      expect((await h.runtime.providerConfig())?.apiKey).toBeUndefined()
      // The URL it was saved with still gets it.
      const own = await h.router.invoke('provider/test', { provider: 'openai', baseUrl: home.url, model: 'm' }, caller)
      expect(own).toEqual({ ok: true, output: expect.objectContaining({ ok: true }) })
      expect(home.requests[0].headers.authorization).toBe(`Bearer ${KEY}`)
    } finally {
      await home.close()
      await attacker.close()
    }
  })
})
