import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import type { BrowserWindow as ElectronWindow } from 'electron'
import { BrowserWindow, dialog, safeStorage } from './fake-electron'
import { createElectronPlatform, safeStorageCipher } from './dialogs'

describe('electron platform services', () => {
  it('returns the chosen folder, or null when the picker is cancelled', async () => {
    const window = new BrowserWindow({})
    const platform = createElectronPlatform(() => window as unknown as ElectronWindow)
    dialog.nextResult = { canceled: false, filePaths: ['/home/me/project'] }
    expect(await platform.chooseDirectory!()).toBe('/home/me/project')
    expect(dialog.calls.at(-1)![0]).toBe(window)
    expect((dialog.calls.at(-1)![1] as { properties: string[] }).properties).toContain('openDirectory')
    dialog.nextResult = { canceled: true, filePaths: [] }
    expect(await platform.chooseDirectory!()).toBeNull()
  })

  it('works without a window', async () => {
    const platform = createElectronPlatform(() => null)
    dialog.nextResult = { canceled: false, filePaths: ['/srv/x'] }
    expect(await platform.chooseDirectory!()).toBe('/srv/x')
    expect(dialog.calls.at(-1)).toHaveLength(1)
  })

  it('seals secrets with safeStorage as text, and opens them again', () => {
    safeStorage.available = true
    safeStorage.backend = 'gnome_libsecret'
    const cipher = safeStorageCipher()!
    const sealed = cipher.encrypt('sk-secret')
    expect(sealed).not.toContain('sk-secret')
    expect(cipher.decrypt(sealed)).toBe('sk-secret')
  })

  it('offers no cipher when safeStorage is unavailable or only obfuscates', () => {
    safeStorage.available = false
    expect(safeStorageCipher()).toBeUndefined()
    safeStorage.available = true
    safeStorage.backend = 'basic_text'
    expect(safeStorageCipher()).toBe(process.platform === 'linux' ? undefined : safeStorageCipher())
    safeStorage.backend = 'gnome_libsecret'
  })
})
