// Seam's settings file: a file that failed to load is never overwritten by a later change.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SettingsFile } from './settings'

let home: string

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'seam-settings-'))
})

afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('SettingsFile', () => {
  it('writes a change to a new file, private to the user', async () => {
    const file = new SettingsFile(join(home, 'settings.json'))
    expect(file.loadError).toBeUndefined()
    file.update({ maxSteps: 7 })
    expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')).maxSteps).toBe(7)
    expect((await stat(join(home, 'settings.json'))).mode & 0o777).toBe(0o600)
  })

  it('refuses to overwrite a file that is not valid JSON, naming the file, and leaves it as it was', async () => {
    const path = join(home, 'settings.json')
    const text = '{ "maxSteps": 12, "trustedWorkspaces": ["/a"], }\n'
    await writeFile(path, text)
    const file = new SettingsFile(path)
    expect(file.loadError).toMatch(/not valid JSON/)
    expect(() => file.update({ maxSteps: 5 })).toThrow(new RegExp(`${path}.*not valid JSON.*will not overwrite`))
    expect(await readFile(path, 'utf8')).toBe(text)
  })

  it('refuses to overwrite a file that failed validation, naming the field', async () => {
    const path = join(home, 'settings.json')
    const text = JSON.stringify({ maxSteps: 5000, trustedWorkspaces: ['/a'] })
    await writeFile(path, text)
    const file = new SettingsFile(path)
    expect(file.loadError).toMatch(/maxSteps/)
    let error: (Error & { code?: string }) | undefined
    try {
      file.update({ workspace: home })
    } catch (e) {
      error = e as Error & { code?: string }
    }
    expect(error?.message).toMatch(/maxSteps/)
    expect(error?.code).toBe('SETTINGS_UNREADABLE')
    expect(await readFile(path, 'utf8')).toBe(text)
  })
})
