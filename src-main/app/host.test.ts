// The Host as the UI reaches it: contract calls through the real router, errors that name the
// field or reason, a settings file that failed to load never overwritten, keys never sent back.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHost, type Host } from './host'

let home: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-host-'))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

const start = async () => (host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } }))

describe('host handlers', () => {
  it('workspace/set with a folder that does not exist names the field and the reason', async () => {
    const { router } = await start()
    const reply = await router.invoke('workspace/set', { path: join(home, 'missing') }, caller)
    expect(reply).toEqual({ ok: false, error: { code: 'INVALID_INPUT', field: 'path', message: expect.stringMatching(/missing" does not exist/) } })
    const file = join(home, 'a-file')
    await writeFile(file, 'x')
    const notDir = await router.invoke('workspace/set', { path: file }, caller)
    expect(notDir).toEqual({ ok: false, error: { code: 'INVALID_INPUT', field: 'path', message: expect.stringMatching(/is not a folder/) } })
  })

  it('refuses settings/set and workspace/set while settings.json failed to load, and leaves the file as it was', async () => {
    const path = join(home, 'settings.json')
    const text = '{ "maxSteps": 12, "workspace": null, }\n'
    await writeFile(path, text)
    const { router } = await start()
    for (const [method, input] of [
      ['settings/set', { maxSteps: 3 }],
      ['workspace/set', { path: home }]
    ] as const) {
      const reply = await router.invoke(method, input, caller)
      expect(reply.ok, method).toBe(false)
      if (!reply.ok) {
        expect(reply.error.code).toBe('SETTINGS_UNREADABLE')
        expect(reply.error.message).toContain(path)
        expect(reply.error.message).toMatch(/not valid JSON/)
      }
    }
    expect(await readFile(path, 'utf8')).toBe(text)
  })

  it('never sends a stored API key back to the UI or into the logs', async () => {
    const { router } = await start()
    const key = 'sk-host-test-SECRET'
    const set = await router.invoke('provider/set', { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-x', apiKey: key }, caller)
    expect(set).toEqual({ ok: true, output: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-x', hasKey: true } })
    for (const method of ['app/status', 'provider/get', 'settings/get', 'config/dump', 'logs/recent'] as const) {
      const reply = await router.invoke(method, {}, caller)
      expect(JSON.stringify(reply), method).not.toContain(key)
    }
    expect(await readFile(join(home, 'settings.json'), 'utf8')).not.toContain(key)
  })

  it('the desktop host seals the plain keys web mode saved; web mode then reports them missing with the reason', async () => {
    const cipher = {
      encrypt: async (plain: string) => Buffer.from(`sealed:${plain}`).toString('base64'),
      decrypt: async (sealed: string) => ({ plain: Buffer.from(sealed, 'base64').toString().slice('sealed:'.length), stale: false })
    }
    const key = 'sk-web-saved-SECRET'
    const provider = { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-x' } as const
    const web = await start()
    await web.router.invoke('provider/set', { ...provider, apiKey: key }, caller)
    await web.close()
    host = undefined
    expect(await readFile(join(home, 'secrets.json'), 'utf8')).toContain(key)

    const desktop = await createHost({ mode: 'electron', env: { ...process.env, SEAM_HOME: home, HOME: home }, platform: { cipher } })
    host = desktop
    expect(await readFile(join(home, 'secrets.json'), 'utf8')).not.toContain(key)
    expect(await desktop.router.invoke('provider/get', {}, caller)).toEqual({ ok: true, output: { ...provider, hasKey: true } })
    expect(await desktop.runtime.providerConfig()).toMatchObject({ apiKey: key })
    await desktop.close()
    host = undefined

    const again = await start()
    const reply = await again.router.invoke('provider/get', {}, caller)
    expect(reply).toEqual({ ok: true, output: { ...provider, hasKey: false, keyProblem: expect.stringMatching(/encrypted with the OS keychain by the desktop app/) } })
  })
})
