// API keys, never written in plain text to settings. They live in `secrets.json` (0600) in the
// Seam home. Each key is stored either sealed by the platform's cipher (Electron safeStorage,
// the OS keychain) or plain, so web mode, the CLI and the desktop app share one file without
// dropping each other's keys: the desktop app seals the plain ones it finds (migration), and a
// key nothing here can open is reported missing, with the reason. The UI never receives a key.
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import { writeFileAtomic } from './atomic-file'

/** The platform's encryption (async: Electron's synchronous safeStorage calls are going away). */
export interface SecretCipher {
  encrypt(plain: string): Promise<string>
  /** `stale`: sealed under an older key; the store seals it again. */
  decrypt(sealed: string): Promise<{ plain: string; stale: boolean }>
}

export type KeyLookup = { state: 'stored'; value: string } | { state: 'missing' } | { state: 'unreadable'; reason: string }

const EntrySchema = z.union([z.strictObject({ sealed: z.string() }), z.strictObject({ plain: z.string() })])
type Entry = z.infer<typeof EntrySchema>

const SecretsFileV2Schema = z.strictObject({ version: z.literal(2), keys: z.record(z.string(), EntrySchema) })
/** Version 1: one flag for the whole file. */
const SecretsFileV1Schema = z.object({ encrypted: z.boolean(), keys: z.record(z.string(), z.string()) })

type Keys = Record<string, Entry>

export class SecretStore {
  /** Writes run one at a time: two saves never read the same old file. */
  private writing: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly path: string,
    private readonly cipher?: SecretCipher
  ) {}

  /** The key, or why there is none. Throws only for a damaged file (named, never quoted). */
  async lookup(name: string): Promise<KeyLookup> {
    const entry = this.read()[name]
    if (!entry) return { state: 'missing' }
    if ('plain' in entry) return { state: 'stored', value: entry.plain }
    if (!this.cipher) {
      return {
        state: 'unreadable',
        reason: 'this key was encrypted with the OS keychain by the desktop app, which is not available here; enter it again'
      }
    }
    try {
      const { plain, stale } = await this.cipher.decrypt(entry.sealed)
      if (stale) void this.reseal(name, entry.sealed, plain)
      return { state: 'stored', value: plain }
    } catch (error) {
      return {
        state: 'unreadable',
        reason: `the OS keychain could not decrypt this key (${messageOf(error)}); it may have been reset: enter the key again`
      }
    }
  }

  /** The key, or undefined when it is missing or unreadable (lookup() says why). */
  async get(name: string): Promise<string | undefined> {
    const found = await this.lookup(name)
    return found.state === 'stored' ? found.value : undefined
  }

  /** Stores (or, with undefined or '', removes) a key; every other key is kept. */
  set(name: string, value: string | undefined): Promise<void> {
    return this.exclusive(async () => {
      const keys = await this.sealPlainKeys(this.read())
      if (value === undefined || value === '') delete keys[name]
      else keys[name] = this.cipher ? { sealed: await this.cipher.encrypt(value) } : { plain: value }
      this.write(keys)
    })
  }

  /**
   * Seals the keys stored in plain text (by web mode or the CLI) when a cipher is present, and
   * returns how many. When the cipher fails, nothing is written (the keys stay plain, readable)
   * and the error is thrown.
   */
  migrate(): Promise<number> {
    return this.exclusive(async () => {
      if (!this.cipher) return 0
      const before = this.read()
      const plainCount = Object.values(before).filter((entry) => 'plain' in entry).length
      if (plainCount === 0) return 0
      const after = await this.sealPlainKeys(before)
      this.write(after)
      return plainCount
    })
  }

  private async sealPlainKeys(keys: Keys): Promise<Keys> {
    if (!this.cipher) return { ...keys }
    const sealed: Keys = {}
    for (const [name, entry] of Object.entries(keys)) {
      sealed[name] = 'plain' in entry ? { sealed: await this.cipher.encrypt(entry.plain) } : entry
    }
    return sealed
  }

  private reseal(name: string, oldSealed: string, plain: string): Promise<void> {
    return this.exclusive(async () => {
      const keys = this.read()
      const entry = keys[name]
      // Saved again meanwhile: that newer value wins.
      if (!this.cipher || !entry || !('sealed' in entry) || entry.sealed !== oldSealed) return
      keys[name] = { sealed: await this.cipher.encrypt(plain) }
      this.write(keys)
    }).catch(() => {
      // The old sealing still opens; resealing is retried on the next read.
    })
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.then(work, work)
    this.writing = run.catch(() => {})
    return run
  }

  private write(keys: Keys): void {
    writeFileAtomic(this.path, JSON.stringify({ version: 2, keys }, null, 2) + '\n', 0o600)
  }

  private read(): Keys {
    if (!existsSync(this.path)) return {}
    let raw: unknown
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'))
    } catch (error) {
      // JSON.parse's message quotes the text around the error, which may be a key: never pass it on.
      if (error instanceof SyntaxError) throw new Error(`${this.path}: not valid JSON; fix or delete the file and enter the key again`)
      throw error
    }
    if (typeof raw === 'object' && raw !== null && 'version' in raw) {
      const parsed = SecretsFileV2Schema.safeParse(raw)
      if (!parsed.success) throw new Error(formatZodError(this.path, parsed.error))
      return { ...parsed.data.keys }
    }
    const parsed = SecretsFileV1Schema.safeParse(raw)
    if (!parsed.success) throw new Error(formatZodError(this.path, parsed.error))
    const keys: Keys = {}
    for (const [name, value] of Object.entries(parsed.data.keys)) keys[name] = parsed.data.encrypted ? { sealed: value } : { plain: value }
    return keys
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
