import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import type { BrowserWindow as ElectronWindow } from 'electron'
import { BrowserWindow, dialog, safeStorage } from './fake-electron'
import { createElectronPlatform, safeStorageCipher } from './dialogs'

describe('electron platform services', () => {
  it('returns the chosen folder, or null when the picker is cancelled', async () => {
    const window = new BrowserWindow({})
    const platform = await createElectronPlatform(() => window as unknown as ElectronWindow)
    dialog.nextResult = { canceled: false, filePaths: ['/home/me/project'] }
    expect(await platform.chooseDirectory!()).toBe('/home/me/project')
    expect(dialog.calls.at(-1)![0]).toBe(window)
    expect((dialog.calls.at(-1)![1] as { properties: string[] }).properties).toContain('openDirectory')
    dialog.nextResult = { canceled: true, filePaths: [] }
    expect(await platform.chooseDirectory!()).toBeNull()
  })

  it('works without a window', async () => {
    const platform = await createElectronPlatform(() => null)
    dialog.nextResult = { canceled: false, filePaths: ['/srv/x'] }
    expect(await platform.chooseDirectory!()).toBe('/srv/x')
    expect(dialog.calls.at(-1)).toHaveLength(1)
  })

  it("seals secrets with safeStorage's async API as text, and opens them again", async () => {
    safeStorage.available = true
    safeStorage.backend = 'gnome_libsecret'
    const cipher = (await safeStorageCipher('linux'))!
    const sealed = await cipher.encrypt('sk-secret')
    expect(sealed).not.toContain('sk-secret')
    expect(await cipher.decrypt(sealed)).toEqual({ plain: 'sk-secret', stale: false })
    safeStorage.stale = true
    expect(await cipher.decrypt(sealed)).toEqual({ plain: 'sk-secret', stale: true })
    safeStorage.stale = false
    await expect(cipher.decrypt(Buffer.from('junk').toString('base64'))).rejects.toThrow(/decrypting/)
  })

  it('offers no cipher when safeStorage is unavailable, or only obfuscates on Linux', async () => {
    safeStorage.available = false
    expect(await safeStorageCipher('linux')).toBeUndefined()
    safeStorage.available = true
    safeStorage.backend = 'basic_text'
    expect(await safeStorageCipher('linux')).toBeUndefined()
    expect(await safeStorageCipher('darwin')).toBeDefined()
    safeStorage.backend = 'gnome_libsecret'
  })
})
