// A stand-in for the parts of the `electron` module the shell uses, for unit tests: the real
// package tries to download its binary on import, which cannot work on these machines.
// Used as `vi.mock('electron', () => import('./fake-electron'))`.
import { EventEmitter } from 'node:events'

type Listener = (...args: unknown[]) => unknown

export class FakeEvent {
  defaultPrevented = false
  constructor(readonly url?: string) {}
  preventDefault(): void {
    this.defaultPrevented = true
  }
}

export class FakeSession {
  headersListener: Listener | null = null
  permissionRequestHandler: Listener | null = null
  permissionCheckHandler: Listener | null = null
  protocolHandlers = new Map<string, Listener>()
  webRequest = {
    onHeadersReceived: (listener: Listener) => {
      this.headersListener = listener
    }
  }
  protocol = {
    handle: (scheme: string, handler: Listener) => {
      this.protocolHandlers.set(scheme, handler)
    }
  }
  setPermissionRequestHandler(handler: Listener): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: Listener): void {
    this.permissionCheckHandler = handler
  }
}

export const defaultSession = new FakeSession()

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null
  url = ''
  destroyed = false
  sent: Array<{ channel: string; message: unknown }> = []
  session = defaultSession
  devToolsOpen = false
  /** Test helper: something opened DevTools (a shortcut, a menu, a debugger). */
  openDevTools(): void {
    this.devToolsOpen = true
    this.emit('devtools-opened')
  }
  closeDevTools(): void {
    this.devToolsOpen = false
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
  getURL(): string {
    return this.url
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  send(channel: string, message: unknown): void {
    this.sent.push({ channel, message })
  }
  /** Test helper: the renderer finished loading `url`. */
  finishLoad(url: string): void {
    this.url = url
    this.emit('did-finish-load')
  }
  destroy(): void {
    this.destroyed = true
    this.emit('destroyed')
  }
}

export class BrowserWindow extends EventEmitter {
  static created: BrowserWindow[] = []
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.created.filter((w) => !w.destroyed)
  }
  readonly webContents = new FakeWebContents()
  loadedFile: string | null = null
  loadedUrl: string | null = null
  destroyed = false
  shown = false
  constructor(readonly options: Record<string, unknown>) {
    super()
    BrowserWindow.created.push(this)
  }
  loadFile(path: string): Promise<void> {
    this.loadedFile = path
    return Promise.resolve()
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url
    return Promise.resolve()
  }
  focused = false
  minimized = false
  show(): void {
    this.shown = true
  }
  isFocused(): boolean {
    return this.focused && !this.destroyed
  }
  focus(): void {
    this.focused = true
  }
  isMinimized(): boolean {
    return this.minimized
  }
  restore(): void {
    this.minimized = false
  }
  isVisible(): boolean {
    return this.shown && !this.destroyed
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  close(): void {
    this.destroyed = true
    this.webContents.destroy()
    this.emit('closed')
  }
}

/** Electron's main-process Notification: records what was shown; `click()` plays the user's click. */
export class Notification extends EventEmitter {
  static supported = true
  static shown: Notification[] = []
  static isSupported(): boolean {
    return Notification.supported
  }
  closed = false
  constructor(readonly options: { title: string; body?: string }) {
    super()
  }
  show(): void {
    Notification.shown.push(this)
  }
  close(): void {
    this.closed = true
    this.emit('close')
  }
  /** Test helper: the user clicked the notification. */
  click(): void {
    this.emit('click')
  }
}

export const shell = {
  opened: [] as string[],
  openExternal(url: string): Promise<void> {
    shell.opened.push(url)
    return Promise.resolve()
  }
}

export const dialog = {
  nextResult: { canceled: true, filePaths: [] as string[] },
  calls: [] as unknown[][],
  showOpenDialog(...args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> {
    dialog.calls.push(args)
    return Promise.resolve(dialog.nextResult)
  },
  errorBoxes: [] as Array<[string, string]>,
  showErrorBox(title: string, content: string): void {
    dialog.errorBoxes.push([title, content])
  }
}

// Only the asynchronous API: the synchronous calls are deprecated in Electron 45 (removed in 46),
// so a test of code that still used them fails here.
export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret' as string,
  /** Test knob: the next decrypts report the data as sealed under an older key. */
  stale: false,
  isAsyncEncryptionAvailable: async () => safeStorage.available,
  getSelectedStorageBackend: () => safeStorage.backend,
  // Reversible and visibly different from the input, like the real thing.
  encryptStringAsync: async (plain: string) => Buffer.from(`enc:${[...plain].reverse().join('')}`, 'utf8'),
  decryptStringAsync: async (sealed: Buffer) => {
    const text = sealed.toString('utf8')
    if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    return { result: [...text.slice(4)].reverse().join(''), shouldReEncrypt: safeStorage.stale }
  }
}

export const protocol = {
  privileged: [] as unknown[],
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    protocol.privileged.push(...schemes)
  }
}

export class FakeIpcMain {
  handlers = new Map<string, Listener>()
  handle(channel: string, handler: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, handler)
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
}

export const ipcMain = new FakeIpcMain()

export class FakeIpcRenderer extends EventEmitter {
  invocations: Array<{ channel: string; args: unknown[] }> = []
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push({ channel, args })
    return Promise.resolve({ ok: true, output: { echoed: args[0] } })
  }
}

export const ipcRenderer = new FakeIpcRenderer()

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    contextBridge.exposed.set(key, api)
  }
}

export const session = { defaultSession }

/** Records the calls main.ts makes, in order, so tests can check what happens before the lock. */
export class FakeApp extends EventEmitter {
  isPackaged = false
  calls: string[] = []
  paths = new Map<string, string>()
  lockGranted = true
  enableSandbox(): void {
    this.calls.push('enableSandbox')
  }
  setPath(name: string, value: string): void {
    this.calls.push(`setPath:${name}`)
    this.paths.set(name, value)
  }
  requestSingleInstanceLock(): boolean {
    this.calls.push('requestSingleInstanceLock')
    return this.lockGranted
  }
  whenReady(): Promise<void> {
    this.calls.push('whenReady')
    return Promise.resolve()
  }
  isReady(): boolean {
    return this.calls.includes('whenReady')
  }
  quit(): void {
    this.calls.push('quit')
  }
  exit(code = 0): void {
    this.calls.push(`exit:${code}`)
  }
}

export const app = new FakeApp()

export default {
  BrowserWindow,
  Notification,
  shell,
  dialog,
  safeStorage,
  protocol,
  ipcMain,
  ipcRenderer,
  contextBridge,
  session,
  app
}
