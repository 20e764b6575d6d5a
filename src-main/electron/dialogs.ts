// Native services the Host may use on the desktop: the folder picker for 'workspace/choose' and
// safeStorage for API keys. Passed to createHost as its `platform`.
import { dialog, safeStorage, type BrowserWindow } from 'electron'
import type { SecretCipher } from '../app/secrets'
import type { HostPlatform } from '../transport/host-core'

/** Call after app 'ready' (safeStorage answers only then). */
export async function createElectronPlatform(getWindow: () => BrowserWindow | null): Promise<HostPlatform> {
  return {
    async chooseDirectory() {
      const options = { title: 'Choose a workspace folder', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> }
      const window = getWindow()
      const result = window && !window.isDestroyed() ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
      if (result.canceled) return null
      return result.filePaths[0] ?? null
    },
    cipher: await safeStorageCipher()
  }
}

/**
 * safeStorage's asynchronous API (the synchronous calls are deprecated in Electron 45 and
 * removed in 46), when it protects anything: on Linux without a keyring Electron falls back to
 * a hard-coded key ('basic_text'), which is no better than the Host's 0600 file, so we say so
 * by returning no cipher. Call after app 'ready'.
 */
export async function safeStorageCipher(platform: NodeJS.Platform = process.platform): Promise<SecretCipher | undefined> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return undefined
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return undefined
  return {
    encrypt: async (plain) => (await safeStorage.encryptStringAsync(plain)).toString('base64'),
    decrypt: async (sealed) => {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(sealed, 'base64'))
      return { plain: result, stale: shouldReEncrypt }
    }
  }
}
