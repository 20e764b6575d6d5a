// Entry of the desktop app (out/main/index.js): the Host in Electron's main process and one
// hardened window that reaches it through the preload bridge.
import '../app/zod-jitless' // first: before any module builds a schema
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, screen, session, type MessageBoxOptions, type MessageBoxReturnValue } from 'electron'
import { createHost, type Host } from '../app/host'
import { describeUncaught, installProcessGuards } from '../app/process-guards'
import { appPageFor } from './app-page'
import { createElectronPlatform } from './dialogs'
import { registerIpc, type IpcBridge } from './ipc'
import { installLifecycle } from './lifecycle'
import { APP_ORIGIN, appOriginOf, devServerUrlFor } from './app-origin'
import { handleAppProtocol, registerAppSchemes } from './app-protocol'
import { handlePluginProtocol } from './plugin-protocol'
import { keepWindowAlive, type HungChoice, type RecoveryChoice } from './recovery'
import { ActivityTracker, describeActivity } from './activity'
import { loadWindowState, placeOnDisplays, trackWindowState } from './window-state'
import { userDataOverride } from './user-data'
import { createMainWindow, hardenWebContents, loadAppPage, windowIcon } from './window'
import { installDesktopNotifications } from './notifications'
import { APP_ID } from './app-id'
import { startUpdates } from './updates'
import { useLoginShellPath } from './login-shell-path'

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url))
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url))
const packaged = app.isPackaged
const devServerUrl = devServerUrlFor({ isPackaged: packaged, env: process.env })

let host: Host | undefined
/** The terminal (stderr) and, once the Host runs, its log (the app's Logs view). */
const log = (message: string, error?: unknown) => {
  console.error(`[seam] ${message}${error === undefined ? '' : `: ${describeUncaught(error, true)}`}`)
  host?.runtime.kernel.log({ level: 'warn', plugin: 'desktop', message, ...(error === undefined ? {} : { detail: describeUncaught(error, true) }), time: Date.now() })
}

let dialogsShown = 0
installProcessGuards({
  report(kind, error) {
    host?.runtime.kernel.log({ level: 'error', plugin: 'host', message: `${kind}: ${describeUncaught(error, false)}`, detail: describeUncaught(error, true), time: Date.now() })
    // A modal box per error could stack up in a loop: the first few are shown, all are logged.
    if (app.isReady() && dialogsShown < 3) {
      dialogsShown++
      dialog.showErrorBox('Seam hit an unexpected error', `${describeUncaught(error, false)}\n\nSeam keeps running; the details are in the log.`)
    }
  }
})

function fail(title: string, message: string): void {
  console.error(`[seam] ${title}: ${message}`)
  if (app.isReady()) dialog.showErrorBox(title, message)
  app.exit(1)
}

registerAppSchemes()
app.enableSandbox()
// Windows shows and routes notifications by this ID; the installer's shortcut carries the same one.
if (process.platform === 'win32') app.setAppUserModelId(APP_ID)

const page = appPageFor({ devServerUrl })
// Any web contents created later gets the same navigation rules.
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, page, { packaged }))

let userData: string | undefined
let badUserData: string | undefined
try {
  userData = userDataOverride(process.env)
} catch (error) {
  badUserData = (error as Error).message
}
if (badUserData !== undefined) {
  fail('Seam could not start', badUserData)
} else {
  // Before the lock: the lock belongs to the userData folder.
  if (userData) app.setPath('userData', userData)
  if (!app.requestSingleInstanceLock()) {
    app.quit()
  } else {
    start().catch((error: unknown) => fail('Seam could not start', error instanceof Error ? error.message : String(error)))
  }
}

async function start(): Promise<void> {
  await app.whenReady()
  // Without the preload the page has no bridge to the Host and could only show an error.
  if (!existsSync(preloadPath)) return fail('Seam is not built', `${preloadPath} is missing. Run \`npm run build\`, then start Seam again.`)
  let mainWindow: BrowserWindow | null = null
  // Before the Host: every tool, hook and MCP server it starts inherits this PATH (macOS only).
  await useLoginShellPath({ log })
  host = await createHost({ mode: 'electron', platform: await createElectronPlatform(() => mainWindow) })
  const running = host
  handleAppProtocol(session.defaultSession, rendererDir)
  handlePluginProtocol(session.defaultSession, running.resolvePluginFile?.bind(running), devServerUrl ? (appOriginOf(devServerUrl) ?? APP_ORIGIN) : APP_ORIGIN, log)
  const ipc: IpcBridge = registerIpc({ ipcMain, core: running, page })
  const activity = new ActivityTracker()
  const stopActivity = running.runtime.sessions.onAppended((sessionId, event) => activity.event(sessionId, event))
  const stopNotifications = installDesktopNotifications({
    onAppended: (listener) => running.runtime.sessions.onAppended(listener),
    onSubagentAppended: (listener) => running.runtime.eachKernel((kernel) => kernel.context.on('agent/subagent-appended', (sessionId, _agent, event) => listener(sessionId, event))),
    enabled: () => running.runtime.settings.value.desktopNotifications,
    window: () => mainWindow,
    openWindow: () => openWindow(),
    focusSession: (payload) => running.pushes.publish('app/focus-session', payload),
    sessionName: (sessionId) => running.runtime.sessions.sessionName(sessionId)
  })

  const lifecycle = installLifecycle({
    app,
    platform: process.platform,
    windows: () => BrowserWindow.getAllWindows(),
    openWindow: () => void openWindow(),
    showWindow() {
      if (!mainWindow) return void openWindow()
      if (mainWindow.isMinimized()) mainWindow.restore()
      mainWindow.focus()
    },
    running: () => describeActivity(activity.current),
    async confirmQuit(what) {
      const options = { type: 'warning' as const, title: 'Quit Seam?', message: `Quit Seam? ${what[0]!.toUpperCase()}${what.slice(1)}.`, detail: 'Quitting stops it. Sessions are saved and can be resumed.', buttons: ['Quit', 'Cancel'], defaultId: 1, cancelId: 1, noLink: true }
      return (await messageBox(options)).response === 0
    },
    async close() {
      stopActivity()
      stopNotifications()
      ipc.dispose()
      await running.close()
    },
    log
  })

  /** A question over the window when there is one, else on its own. */
  function messageBox(options: MessageBoxOptions): Promise<MessageBoxReturnValue> {
    return mainWindow && !mainWindow.isDestroyed() ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options)
  }

  function ask(title: string, message: string): Promise<RecoveryChoice> {
    const options = { type: 'error' as const, title, message: title, detail: message, buttons: ['Retry', 'Quit'], defaultId: 0, cancelId: 1, noLink: true }
    return messageBox(options).then(({ response }) => (response === 0 ? 'retry' : 'quit'))
  }

  function askHung(): Promise<HungChoice> {
    const options = { type: 'warning' as const, title: 'Seam is not responding', message: 'The Seam window is not responding.', detail: 'Reload it, or wait for it to respond. Sessions are saved either way.', buttons: ['Reload', 'Wait'], defaultId: 1, cancelId: 1, noLink: true }
    return messageBox(options).then(({ response }) => (response === 0 ? 'reload' : 'wait'))
  }

  const stateFile = join(app.getPath('userData'), 'window-state.json')
  const isFile = (path: string) => {
    try {
      return statSync(path).isFile()
    } catch {
      return false
    }
  }
  // Packaged: the icon electron-builder copies beside the app (extraResources); in development the repository's.
  const icon = process.platform === 'darwin' ? undefined : windowIcon(packaged ? [join(process.resourcesPath, 'icon.png')] : [join(app.getAppPath(), 'packaging/icons/png/512x512.png')], isFile, log)

  function openWindow(): BrowserWindow {
    const state = placeOnDisplays(loadWindowState(stateFile, log), screen.getAllDisplays().map((display) => display.workArea))
    const window = createMainWindow({ preloadPath, devServerUrl, page, packaged, log, state, ...(icon ? { icon } : {}) })
    trackWindowState(window, stateFile, log)
    mainWindow = window
    ipc.attachWindow(window)
    lifecycle.watchWindow(window)
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null
    })
    const recovery = keepWindowAlive({ window, load: () => loadAppPage(window, { devServerUrl }), log, ask, askHung, quit: () => app.quit() })
    void recovery.loadNow()
    return window
  }
  openWindow()
  void startUpdates({ enabled: running.runtime.settings.value.autoUpdate, packaged, log })

  // Ctrl+C in the terminal of `npm start`, or a service manager: close the Host like a quit.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit())
}
