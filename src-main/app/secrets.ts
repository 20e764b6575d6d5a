// API keys, never written in plain text to settings. On desktop the platform encrypts them
// (Electron safeStorage); elsewhere they live in a 0600 file in the Seam home. The UI never
// receives a stored key back.
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import { formatZodError } from '../../src-shared/validation'
import { writeFileAtomic } from './atomic-file'

export interface SecretCipher {
  encrypt(plain: string): string
  decrypt(sealed: string): string
}

const SecretsFileSchema = z.object({
  encrypted: z.boolean(),
  keys: z.record(z.string(), z.string())
})

export class SecretStore {
  constructor(
    private readonly path: string,
    private readonly cipher?: SecretCipher
  ) {}

  get(name: string): string | undefined {
    const file = this.read()
    const value = file.keys[name]
    if (value === undefined) return undefined
    if (!file.encrypted) return value
    if (!this.cipher) throw new Error(`${this.path}: keys were encrypted by the desktop app and cannot be read here; enter the key again`)
    return this.cipher.decrypt(value)
  }

  has(name: string): boolean {
    return this.read().keys[name] !== undefined
  }

  set(name: string, value: string | undefined): void {
    const file = this.read()
    const encrypted = Boolean(this.cipher)
    const keys = file.encrypted === encrypted ? { ...file.keys } : {}
    if (value === undefined || value === '') delete keys[name]
    else keys[name] = this.cipher ? this.cipher.encrypt(value) : value
    writeFileAtomic(this.path, JSON.stringify({ encrypted, keys }, null, 2) + '\n', 0o600)
  }

  private read(): z.infer<typeof SecretsFileSchema> {
    if (!existsSync(this.path)) return { encrypted: Boolean(this.cipher), keys: {} }
    let raw: unknown
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'))
    } catch (error) {
      // JSON.parse's message quotes the text around the error, which may be a key: never pass it on.
      if (error instanceof SyntaxError) throw new Error(`${this.path}: not valid JSON; fix or delete the file and enter the key again`)
      throw error
    }
    const parsed = SecretsFileSchema.safeParse(raw)
    if (!parsed.success) throw new Error(formatZodError(this.path, parsed.error))
    return parsed.data
  }
}
