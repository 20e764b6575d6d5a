// The model table through the real router: defaults and the user's entries side by side, a change
// written to settings.json and used for the next request's cost, bad input named by field.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ModelTableViewSchema, type ModelTableView } from '../../src-shared/model-table'
import { createHost, type Host } from './host'

let home: string
let host: Host | undefined
const caller = { transport: 'web' as const }

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-models-'))
})

afterEach(async () => {
  await host?.close()
  host = undefined
  await rm(home, { recursive: true, force: true })
})

const start = async () => (host = await createHost({ mode: 'web', env: { ...process.env, SEAM_HOME: home, HOME: home } }))
/** A successful call's table, parsed against the contract's schema. */
async function table(method: 'models/table' | 'models/set' | 'compaction/set', input: unknown): Promise<ModelTableView> {
  if (!host) throw new Error('no host')
  const reply = await host.router.invoke(method, input, caller)
  if (!reply.ok) throw new Error(reply.error.message)
  return ModelTableViewSchema.parse(reply.output)
}
const settingsFile = async () => JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')) as Record<string, unknown>

describe('models/table, models/set, compaction/set', () => {
  it("lists every preset's model with Seam's defaults and no user entry", async () => {
    await start()
    const reply = await table('models/table', {})
    const deepseek = reply.models.find((row) => row.model === 'deepseek-chat')
    expect(deepseek).toEqual({
      model: 'deepseek-chat',
      defaults: { provider: 'deepseek', vision: false, contextWindow: 128_000, prices: { input: 0.28, cachedInput: 0.028, output: 0.42 } },
      override: null,
      effective: { contextWindow: 128_000, prices: { input: 0.28, cachedInput: 0.028, output: 0.42 }, vision: false, provider: 'deepseek' },
      inUse: false
    })
    expect(reply.models.map((row) => row.model)).toEqual(expect.arrayContaining(['gpt-4.1', 'claude-sonnet-5-5', 'llama3.1']))
    expect(reply.compaction).toEqual({ auto: true, threshold: 0.8 })
  })

  it("writes the user's entry to settings.json, puts it over the defaults, and removes it on null", async () => {
    await start()
    const set = await table('models/set', { model: 'deepseek-chat', info: { prices: { input: 1, output: 2 } } })
    expect(set.models.find((row) => row.model === 'deepseek-chat')).toMatchObject({
      override: { prices: { input: 1, output: 2 } },
      effective: { contextWindow: 128_000, prices: { input: 1, output: 2 } }
    })
    expect((await settingsFile()).models).toEqual({ 'deepseek-chat': { prices: { input: 1, output: 2 } } })

    const own = await table('models/set', { model: 'my-local-model', info: { contextWindow: 32_768 } })
    expect(own.models.find((row) => row.model === 'my-local-model')).toMatchObject({ defaults: {}, effective: { contextWindow: 32_768 } })

    const reset = await table('models/set', { model: 'deepseek-chat', info: null })
    expect(reset.models.find((row) => row.model === 'deepseek-chat')?.override).toBeNull()
    expect((await settingsFile()).models).toEqual({ 'my-local-model': { contextWindow: 32_768 } })
  })

  it('marks the configured provider’s model as in use', async () => {
    const { router } = await start()
    await router.invoke('provider/set', { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny-model' }, caller)
    const reply = await table('models/table', {})
    expect(reply.models[0]).toMatchObject({ model: 'tiny-model', inUse: true, defaults: {} })
  })

  it('refuses a negative price or a fractional context window, naming the field, and writes nothing', async () => {
    const { router } = await start()
    const price = await router.invoke('models/set', { model: 'gpt-4.1', info: { prices: { input: -1, output: 2 } } }, caller)
    expect(price).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'info.prices.input' } })
    const window = await router.invoke('models/set', { model: 'gpt-4.1', info: { contextWindow: 1.5 } }, caller)
    expect(window).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'info.contextWindow' } })
    const unknown = await router.invoke('models/set', { model: 'gpt-4.1', info: { context: 5 } }, caller)
    expect(unknown).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    await expect(readFile(join(home, 'settings.json'), 'utf8')).rejects.toThrow(/ENOENT/)
  })

  it('saves the compaction switch and threshold; a threshold above 1 is refused', async () => {
    const { router } = await start()
    const set = await router.invoke('compaction/set', { auto: false, threshold: 0.6 }, caller)
    expect(set).toMatchObject({ ok: true, output: { compaction: { auto: false, threshold: 0.6 } } })
    expect((await settingsFile()).compaction).toEqual({ auto: false, threshold: 0.6 })
    const bad = await router.invoke('compaction/set', { auto: true, threshold: 1.5 }, caller)
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'threshold' } })
  })
})
