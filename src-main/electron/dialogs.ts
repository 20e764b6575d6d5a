// Native services the Host may use on the desktop: the folder picker for 'workspace/choose' and
// safeStorage for API keys. Passed to createHost as its `platform`.
import { dialog, safeStorage, type BrowserWindow } from 'electron'
import type { HostPlatform } from '../transport/host-core'

export function createElectronPlatform(getWindow: () => BrowserWindow | null): HostPlatform {
  return {
    async chooseDirectory() {
      const options = { title: 'Choose a workspace folder', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> }
      const window = getWindow()
      const result = window && !window.isDestroyed() ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
      if (result.canceled) return null
      return result.filePaths[0] ?? null
    },
    cipher: safeStorageCipher()
  }
}

/**
 * safeStorage when it protects anything: on Linux without a keyring Electron falls back to a
 * hard-coded key ('basic_text'), which is no better than the Host's 0600 file, so we say so by
 * returning no cipher. Call after app 'ready'.
 */
export function safeStorageCipher(): HostPlatform['cipher'] {
  if (!safeStorage.isEncryptionAvailable()) return undefined
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return undefined
  return {
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64'))
  }
}
