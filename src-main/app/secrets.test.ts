// API keys on disk: a damaged secrets file is reported by name without echoing its contents.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SecretStore } from './secrets'

let home: string

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-secrets-'))
})

afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('SecretStore', () => {
  it('stores a key in a 0600 file and reads it back', async () => {
    const store = new SecretStore(join(home, 'secrets.json'))
    store.set('provider:openai', 'sk-abc')
    expect(store.get('provider:openai')).toBe('sk-abc')
    expect((await stat(join(home, 'secrets.json'))).mode & 0o777).toBe(0o600)
  })

  it('a hand-damaged file is reported by its path without quoting the key in the message', async () => {
    const path = join(home, 'secrets.json')
    // A key pasted without quotes: JSON.parse's own message quotes the text around the error.
    const text = '{"encrypted": false, "keys": {"provider:openai": sk-VERYSECRET123}}'
    await writeFile(path, text)
    const store = new SecretStore(path)
    for (const read of [() => store.get('provider:openai'), () => store.has('provider:openai'), () => store.set('provider:x', 'y')]) {
      let message = ''
      try {
        read()
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toContain(path)
      expect(message).toMatch(/not valid JSON/)
      expect(message).not.toContain('VERYSECRET')
    }
    // Nothing was overwritten.
    expect(await readFile(path, 'utf8')).toBe(text)
  })

  it('names the field of a file with the wrong shape', async () => {
    const path = join(home, 'secrets.json')
    await writeFile(path, JSON.stringify({ encrypted: false, keys: { 'provider:openai': 42 } }))
    expect(() => new SecretStore(path).get('provider:openai')).toThrow(/keys\.provider:openai/)
  })
})
