// The key guard's pure parts: what is stripped from a child environment and what is redacted
// (issue 13: Keys).
import { describe, expect, it } from 'vitest'
import { HostKeyGuard, keyRedactor, lineRedactor, REDACTED_KEY, stripKeys, ToolEnvSettingsSchema } from './keys'

const policy = (over: Partial<Parameters<typeof stripKeys>[1]> = {}) => ({
  variables: new Set(['OPENAI_API_KEY']),
  values: new Set(['sk-the-key-123456']),
  strip: new Set<string>(),
  allow: new Set<string>(),
  ...over
})

describe('stripKeys', () => {
  it('drops key variables by name and any variable holding a key text, keeps the rest', () => {
    const env = { OPENAI_API_KEY: 'whatever', ALIAS: 'sk-the-key-123456', PATH: '/bin', EMPTY: undefined }
    expect(stripKeys(env, policy())).toEqual({ PATH: '/bin' })
  })

  it('strips user-named variables; allow lets a key variable back in but never overrides strip', () => {
    const env = { OPENAI_API_KEY: 'sk-the-key-123456', GITHUB_TOKEN: 'ghp', PATH: '/bin' }
    expect(stripKeys(env, policy({ strip: new Set(['GITHUB_TOKEN']), allow: new Set(['OPENAI_API_KEY']) }))).toEqual({ OPENAI_API_KEY: 'sk-the-key-123456', PATH: '/bin' })
    expect(stripKeys(env, policy({ strip: new Set(['GITHUB_TOKEN']), allow: new Set(['GITHUB_TOKEN']) }))).toEqual({ PATH: '/bin' })
  })
})

describe('redaction', () => {
  it('replaces every occurrence of a key, longest key first, and leaves short values alone', () => {
    const redact = keyRedactor(['sk-abcdefgh', 'sk-abcdefgh-longer', 'short'])
    expect(redact('a sk-abcdefgh-longer b sk-abcdefgh c short')).toBe(`a ${REDACTED_KEY} b ${REDACTED_KEY} c short`)
  })

  it('a JSON line stays valid JSON, also for a key with characters JSON escapes', () => {
    const key = 'sk-"quoted"\\key'
    const line = JSON.stringify({ content: `x ${key} y` })
    const out = lineRedactor([key])(line)
    expect(JSON.parse(out)).toEqual({ content: `x ${REDACTED_KEY} y` })
  })

  it('the host guard picks up keys on refresh (a key stored later is redacted from then on)', async () => {
    let stored: string[] = []
    const guard = new HostKeyGuard({ env: () => ({}), extraVariables: () => [], storedKeys: () => stored, settings: () => ToolEnvSettingsSchema.parse({}) })
    expect(guard.redact('sk-later-stored-key')).toBe('sk-later-stored-key')
    stored = ['sk-later-stored-key']
    await guard.refresh()
    expect(guard.redact('sk-later-stored-key')).toBe(REDACTED_KEY)
    expect(guard.childEnv({ X: 'sk-later-stored-key', Y: 'y' })).toEqual({ Y: 'y' })
  })

  it('variables named with --api-key-env are stripped by name', () => {
    const guard = new HostKeyGuard({ env: () => ({ MY_KEY: 'sk-from-a-custom-var' }), extraVariables: () => ['MY_KEY'], storedKeys: () => [], settings: () => ToolEnvSettingsSchema.parse({}) })
    expect(guard.childEnv({ MY_KEY: 'anything', OTHER: 'sk-from-a-custom-var', Z: 'z' })).toEqual({ Z: 'z' })
  })

  it('settings name variables, not values: a malformed name is refused naming the field', () => {
    const parsed = ToolEnvSettingsSchema.safeParse({ strip: ['NOT A NAME'] })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0].path).toEqual(['strip', 0])
  })
})
