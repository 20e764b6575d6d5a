// Entry of the desktop app (out/main/index.js): the Host in Electron's main process and one
// hardened window that reaches it through the preload bridge.
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { createHost } from '../app/host'
import { createElectronPlatform } from './dialogs'
import { registerIpc, type IpcBridge } from './ipc'
import { appOriginOf, devServerUrlFor } from './app-origin'
import { handleAppProtocol, registerAppSchemes } from './app-protocol'
import { handlePluginProtocol } from './plugin-protocol'
import { appUrlFor, createMainWindow, hardenWebContents } from './window'

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url))
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url))
const packaged = app.isPackaged
const devServerUrl = devServerUrlFor({ isPackaged: packaged, env: process.env })
const appUrl = appUrlFor({ devServerUrl })

registerAppSchemes()
app.enableSandbox()

// Any web contents created later gets the same navigation rules.
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, appUrl, { packaged }))

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
  handleAppProtocol(session.defaultSession, rendererDir)
  handlePluginProtocol(session.defaultSession, host.resolvePluginFile?.bind(host), appOriginOf(appUrl) ?? '')
  const ipc: IpcBridge = registerIpc({ ipcMain, core: host, appUrl })

  const openWindow = () => {
    const created = createMainWindow({ preloadPath, devServerUrl, packaged })
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
