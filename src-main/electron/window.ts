// The one app window, hardened per Electron's security checklist: isolated, sandboxed, no Node
// in the renderer, a CSP, no navigation away from the app, no new windows, only the permissions
// the UI uses (permissions.ts). The
// page is seam://app/index.html (app-protocol.ts), never a file:// URL; DevTools exist only in
// development.
import { BrowserWindow, clipboard, Menu, shell, type Session, type WebContents, type WebPreferences } from 'electron'
import { contextMenuTemplate } from './context-menu'
import { contentSecurityPolicy } from '../transport/csp'
import { APP_URL } from './app-origin'
import { permissionHandlers, type PermissionLog } from './permissions'
import { DEFAULT_WINDOW_STATE, type WindowState } from './window-state'
import { isAppUrl, isSafeExternalUrl, type AppPage } from './security'

export interface MainWindowOptions {
  /** Absolute path of out/preload/index.cjs. */
  preloadPath: string
  /** electron-vite's dev server (ELECTRON_RENDERER_URL), development only (see devServerUrlFor). */
  devServerUrl?: string
  /** A packaged build: DevTools cannot be opened at all. */
  packaged: boolean
  /** The page IPC senders and navigations are checked against (appPageFor). */
  page: AppPage
  /** Where refusals (permissions) are reported. */
  log: PermissionLog
  /** The remembered size and position (window-state.ts); the defaults without one. */
  state?: WindowState
  /** The window's icon file (Linux and Windows taskbars); none when it is missing (windowIcon). */
  icon?: string
}

/**
 * The first of `candidates` that is a file, for the window icon; a missing icon is logged and the
 * window opens with the platform's default instead of failing.
 */
export function windowIcon(candidates: readonly string[], isFile: (path: string) => boolean, log: (message: string) => void): string | undefined {
  const found = candidates.find((candidate) => isFile(candidate))
  if (found === undefined) log(`window icon: none of ${candidates.join(', ')} exists; using the default icon`)
  return found
}

export function hardenedWebPreferences(preloadPath: string, options: { devTools: boolean }): WebPreferences {
  return {
    preload: preloadPath,
    devTools: options.devTools,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    // The context menu offers the spell checker's suggestions (context-menu.ts).
    spellcheck: true
  }
}

const hardenedSessions = new WeakSet<Session>()

/** CSP header on every response; permissions only for the app page (permissions.ts). Idempotent per session. */
export function hardenSession(session: Session, options: { dev: boolean; page: AppPage; log: PermissionLog }): void {
  if (hardenedSessions.has(session)) return
  hardenedSessions.add(session)
  const policy = contentSecurityPolicy({ dev: options.dev })
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...(details.responseHeaders ?? {}) }
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'content-security-policy') delete headers[name]
    }
    headers['Content-Security-Policy'] = [policy]
    headers['X-Content-Type-Options'] = ['nosniff']
    callback({ responseHeaders: headers })
  })
  const permissions = permissionHandlers(options.page, options.log)
  session.setPermissionRequestHandler(permissions.request)
  session.setPermissionCheckHandler(permissions.check)
}

/**
 * Navigation stays on the app; new windows are denied (https links open in the browser). In a
 * packaged build DevTools are closed the moment anything opens them.
 */
export function hardenWebContents(contents: WebContents, page: AppPage, options: { packaged: boolean } = { packaged: true }): void {
  if (options.packaged) contents.on('devtools-opened', () => contents.closeDevTools())
  contents.on('will-navigate', (event, url) => {
    const target = (event as { url?: string }).url ?? url
    if (!isAppUrl(target, page)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    const target = (event as { url?: string }).url ?? url
    if (!isAppUrl(target, page)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
}

/** The hardened window, not yet showing anything: load it with loadAppPage (see recovery.ts). */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const state = options.state ?? DEFAULT_WINDOW_STATE
  const window = new BrowserWindow({
    width: state.width,
    height: state.height,
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    ...(options.icon ? { icon: options.icon } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Seam',
    backgroundColor: '#1e1e1e',
    webPreferences: hardenedWebPreferences(options.preloadPath, { devTools: !options.packaged })
  })
  hardenSession(window.webContents.session, { dev: Boolean(options.devServerUrl), page: options.page, log: options.log })
  hardenWebContents(window.webContents, options.page, { packaged: options.packaged })
  if (state.maximized) window.maximize()
  installContextMenu(window)
  window.once('ready-to-show', () => window.show())
  return window
}

/** The URL the window shows: the app's own scheme, or the dev server in development. */
export function appUrlFor(options: Pick<MainWindowOptions, 'devServerUrl'>): string {
  return options.devServerUrl ?? APP_URL
}

/** Loads the app page (never a file:// URL); rejects with Electron's load error (e.g. ERR_FILE_NOT_FOUND). */
export function loadAppPage(window: BrowserWindow, options: Pick<MainWindowOptions, 'devServerUrl'>): Promise<void> {
  return window.loadURL(appUrlFor(options))
}

/** The right-click menu (context-menu.ts) on the window's page. */
export function installContextMenu(window: BrowserWindow): void {
  const contents = window.webContents
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, {
      replaceMisspelling: (word) => contents.replaceMisspelling(word),
      addToDictionary: (word) => contents.session.addWordToSpellCheckerDictionary(word),
      copyText: (text) => void clipboard.writeText(text)
    })
    Menu.buildFromTemplate(template).popup({ window })
  })
}
