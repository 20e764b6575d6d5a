// Entry of the desktop app (out/main/index.js): the Host in Electron's main process and one
// hardened window that reaches it through the preload bridge.
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { createHost } from '../app/host'
import { createElectronPlatform } from './dialogs'
import { registerIpc, type IpcBridge } from './ipc'
import { handlePluginProtocol, registerPluginScheme } from './plugin-protocol'
import { appUrlFor, createMainWindow, hardenWebContents } from './window'

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url))
const rendererFile = fileURLToPath(new URL('../renderer/index.html', import.meta.url))
const devServerUrl = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : undefined
const appUrl = appUrlFor({ rendererFile, devServerUrl })

registerPluginScheme()
app.enableSandbox()

// Any web contents created later (devtools aside) gets the same navigation rules.
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, appUrl))

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  start().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    console.error('[seam] failed to start:', error)
    dialog.showErrorBox('Seam could not start', message)
    app.exit(1)
  })
}

async function start(): Promise<void> {
  await app.whenReady()
  let mainWindow: BrowserWindow | null = null
  const host = await createHost({ mode: 'electron', platform: createElectronPlatform(() => mainWindow) })
  handlePluginProtocol(session.defaultSession, host.resolvePluginFile?.bind(host))
  const ipc: IpcBridge = registerIpc({ ipcMain, core: host, appUrl })

  const openWindow = () => {
    const created = createMainWindow({ preloadPath, rendererFile, devServerUrl })
    mainWindow = created.window
    ipc.attachWindow(created.window)
    created.window.on('closed', () => {
      if (mainWindow === created.window) mainWindow = null
    })
  }
  openWindow()

  app.on('second-instance', () => {
    if (!mainWindow) return openWindow()
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
  app.on('window-all-closed', () => app.quit())

  let closed = false
  app.on('will-quit', (event) => {
    if (closed) return
    event.preventDefault()
    ipc.dispose()
    host
      .close()
      .catch((error: unknown) => console.error('[seam] host did not close cleanly:', error))
      .finally(() => {
        closed = true
        app.quit()
      })
  })
}
