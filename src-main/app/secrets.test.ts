// API keys on disk: one file shared by web mode, the CLI and the desktop app. Plain keys move
// into the encrypted store instead of being dropped, an unreadable key is reported missing with
// its reason, and a damaged file is named without echoing its contents.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SecretStore, type SecretCipher } from './secrets'

let home: string
let path: string

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-secrets-'))
  path = join(home, 'secrets.json')
})

afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

/** A keychain stand-in: reversible, visibly different from its input, and able to be "reset". */
function keychain(name = 'k1'): SecretCipher & { staleNext: boolean; reset(next: string): void; encrypts: number } {
  let current = name
  const cipher = {
    staleNext: false,
    encrypts: 0,
    reset(next: string) {
      current = next
    },
    async encrypt(plain: string) {
      cipher.encrypts++
      return Buffer.from(`${current}:${plain}`).toString('base64')
    },
    async decrypt(sealed: string) {
      const text = Buffer.from(sealed, 'base64').toString()
      if (!text.startsWith(`${current}:`)) throw new Error('the key in the keychain does not match')
      const stale = cipher.staleNext
      cipher.staleNext = false
      return { plain: text.slice(current.length + 1), stale }
    }
  }
  return cipher
}

async function fileKeys(): Promise<Record<string, Record<string, string>>> {
  return JSON.parse(await readFile(path, 'utf8')).keys
}

describe('SecretStore', () => {
  it('stores a key in a 0600 file and reads it back', async () => {
    const store = new SecretStore(path)
    await store.set('provider:openai', 'sk-abc')
    expect(await store.get('provider:openai')).toBe('sk-abc')
    expect(await store.lookup('provider:deepseek')).toEqual({ state: 'missing' })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
  })

  it('with a keychain, seals keys: the file never holds the key in plain text', async () => {
    const store = new SecretStore(path, keychain())
    await store.set('provider:openai', 'sk-abc')
    expect(await readFile(path, 'utf8')).not.toContain('sk-abc')
    expect(await store.get('provider:openai')).toBe('sk-abc')
  })

  it('saving a key in the desktop app keeps the keys web mode or the CLI stored in plain text, sealed', async () => {
    await new SecretStore(path).set('provider:deepseek', 'sk-plain-1')
    await new SecretStore(path).set('provider:anthropic', 'sk-plain-2')
    const desktop = new SecretStore(path, keychain())
    await desktop.set('provider:openai', 'sk-new')
    expect(await desktop.get('provider:deepseek')).toBe('sk-plain-1')
    expect(await desktop.get('provider:anthropic')).toBe('sk-plain-2')
    expect(await desktop.get('provider:openai')).toBe('sk-new')
    const text = await readFile(path, 'utf8')
    for (const key of ['sk-plain-1', 'sk-plain-2', 'sk-new']) expect(text).not.toContain(key)
  })

  it('migrate() seals plain keys (also from a version-1 file) and reports how many', async () => {
    await writeFile(path, JSON.stringify({ encrypted: false, keys: { 'provider:openai': 'sk-1', 'provider:deepseek': 'sk-2' } }))
    const desktop = new SecretStore(path, keychain())
    expect(await desktop.migrate()).toBe(2)
    expect(Object.values(await fileKeys()).every((entry) => 'sealed' in entry)).toBe(true)
    expect(await desktop.get('provider:deepseek')).toBe('sk-2')
    expect(await desktop.migrate()).toBe(0)
    expect(await new SecretStore(path).migrate()).toBe(0) // no cipher, nothing to do
  })

  it('a keychain that fails during migration leaves every key plain and readable', async () => {
    await new SecretStore(path).set('provider:openai', 'sk-1')
    const broken: SecretCipher = {
      encrypt: async () => {
        throw new Error('keychain locked')
      },
      decrypt: async () => ({ plain: '', stale: false })
    }
    await expect(new SecretStore(path, broken).migrate()).rejects.toThrow('keychain locked')
    expect(await new SecretStore(path).get('provider:openai')).toBe('sk-1')
  })

  it('web mode saving a key keeps the keys the desktop app sealed', async () => {
    const cipher = keychain()
    await new SecretStore(path, cipher).set('provider:openai', 'sk-sealed')
    await new SecretStore(path).set('provider:deepseek', 'sk-web')
    expect(await new SecretStore(path, cipher).get('provider:openai')).toBe('sk-sealed')
    expect(await new SecretStore(path).get('provider:deepseek')).toBe('sk-web')
  })

  it('a sealed key without the keychain is reported missing, with the reason', async () => {
    await new SecretStore(path, keychain()).set('provider:openai', 'sk-sealed')
    const web = new SecretStore(path)
    const found = await web.lookup('provider:openai')
    expect(found).toEqual({ state: 'unreadable', reason: expect.stringMatching(/encrypted with the OS keychain by the desktop app.*enter it again/) })
    expect(await web.get('provider:openai')).toBeUndefined()
  })

  it('after the keychain is reset, the key is reported missing with the reason (not "stored")', async () => {
    const cipher = keychain('old')
    const store = new SecretStore(path, cipher)
    await store.set('provider:openai', 'sk-sealed')
    cipher.reset('new')
    const found = await store.lookup('provider:openai')
    expect(found.state).toBe('unreadable')
    expect((found as { reason: string }).reason).toMatch(/the OS keychain could not decrypt this key \(the key in the keychain does not match\).*enter the key again/)
    expect(await store.get('provider:openai')).toBeUndefined()
    // Entering it again works.
    await store.set('provider:openai', 'sk-again')
    expect(await store.get('provider:openai')).toBe('sk-again')
  })

  it('a key sealed under an older key is sealed again after it is read', async () => {
    const cipher = keychain()
    const store = new SecretStore(path, cipher)
    await store.set('provider:openai', 'sk-1')
    const before = (await fileKeys())['provider:openai']
    cipher.staleNext = true
    cipher.reset('k1') // same key; the cipher just asks for a reseal
    const encrypts = cipher.encrypts
    expect(await store.get('provider:openai')).toBe('sk-1')
    await store.set('provider:other', 'x') // waits for the queued reseal
    expect(cipher.encrypts).toBeGreaterThan(encrypts)
    expect((await fileKeys())['provider:openai']).toEqual(before) // this fake seals deterministically
    expect(await store.get('provider:openai')).toBe('sk-1')
  })

  it('concurrent saves keep every key', async () => {
    const store = new SecretStore(path, keychain())
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => store.set(`provider:${name}`, `sk-${name}`)))
    expect(Object.keys(await fileKeys()).sort()).toEqual(['provider:a', 'provider:b', 'provider:c', 'provider:d'])
  })

  it('removes a key when saved empty', async () => {
    const store = new SecretStore(path)
    await store.set('provider:openai', 'sk-1')
    await store.set('provider:openai', '')
    expect(await store.lookup('provider:openai')).toEqual({ state: 'missing' })
  })

  it('a hand-damaged file is reported by its path without quoting the key in the message', async () => {
    // A key pasted without quotes: JSON.parse's own message quotes the text around the error.
    const text = '{"encrypted": false, "keys": {"provider:openai": sk-VERYSECRET123}}'
    await writeFile(path, text)
    const store = new SecretStore(path)
    for (const read of [() => store.get('provider:openai'), () => store.lookup('provider:openai'), () => store.set('provider:x', 'y')]) {
      const error = await read().then(
        () => new Error('no error'),
        (e: unknown) => e as Error
      )
      expect(error.message).toContain(path)
      expect(error.message).toMatch(/not valid JSON/)
      expect(error.message).not.toContain('VERYSECRET')
    }
    // Nothing was overwritten.
    expect(await readFile(path, 'utf8')).toBe(text)
  })

  it('names the field of a file with the wrong shape (version 1 and 2)', async () => {
    await writeFile(path, JSON.stringify({ encrypted: false, keys: { 'provider:openai': 42 } }))
    await expect(new SecretStore(path).get('provider:openai')).rejects.toThrow(/keys\.provider:openai/)
    await writeFile(path, JSON.stringify({ version: 2, keys: { 'provider:openai': { sealed: 1 } } }))
    await expect(new SecretStore(path).get('provider:openai')).rejects.toThrow(/keys\.provider:openai/)
  })
})
