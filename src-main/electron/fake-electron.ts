// A stand-in for the parts of the `electron` module the shell uses, for unit tests: the real
// package tries to download its binary on import, which cannot work on these machines.
// Used as `vi.mock('electron', () => import('./fake-electron'))`.
//
// Every faked member is typed with Electron's own declarations (`implements Pick<...>`,
// `satisfies`), so a fake that accepts what Electron 45 rejects (a permission name it never
// sends, a handler of the wrong shape, a missing argument) fails to compile, and the rules
// Electron enforces at run time (schemes registered once, before 'ready') throw here too.
import { EventEmitter } from 'node:events'
import type * as Electron from 'electron'

type ElectronModule = typeof import('electron')
type PermissionRequestHandler = NonNullable<Parameters<Electron.Session['setPermissionRequestHandler']>[0]>
type PermissionCheckHandler = NonNullable<Parameters<Electron.Session['setPermissionCheckHandler']>[0]>
// The last overload, `onHeadersReceived(listener)`.
type HeadersListener = NonNullable<Parameters<Electron.WebRequest['onHeadersReceived']>[0]>
type ProtocolHandler = Parameters<Electron.Protocol['handle']>[1]

/**
 * `faking<Real>()(fake)`: the fake must have `Real`'s members with Electron's types; it may carry
 * test helpers besides (a generic constraint, unlike `satisfies`, allows extra properties).
 */
const faking =
  <Real>() =>
  <Fake extends Real>(fake: Fake): Fake =>
    fake

export class FakeEvent {
  defaultPrevented = false
  constructor(readonly url?: string) {}
  preventDefault(): void {
    this.defaultPrevented = true
  }
}

export class FakeSession implements Pick<Electron.Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'addWordToSpellCheckerDictionary'> {
  dictionary: string[] = []
  addWordToSpellCheckerDictionary(word: string): boolean {
    this.dictionary.push(word)
    return true
  }
  headersListener: HeadersListener | null = null
  permissionRequestHandler: PermissionRequestHandler | null = null
  permissionCheckHandler: PermissionCheckHandler | null = null
  protocolHandlers = new Map<string, ProtocolHandler>()
  readonly webRequest: Pick<Electron.WebRequest, 'onHeadersReceived'> = {
    onHeadersReceived: (first: Electron.WebRequestFilter | HeadersListener | null, second?: HeadersListener | null) => {
      this.headersListener = typeof first === 'function' || first === null ? first : (second ?? null)
    }
  }
  readonly protocol: Pick<Electron.Protocol, 'handle'> = {
    handle: (scheme, handler) => {
      if (this.protocolHandlers.has(scheme)) throw new Error(`The scheme "${scheme}" is already handled`)
      this.protocolHandlers.set(scheme, handler)
    }
  }
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.permissionCheckHandler = handler
  }
}

export const defaultSession = new FakeSession()

type WebContentsPart = Pick<
  Electron.WebContents,
  'setWindowOpenHandler' | 'getURL' | 'isDestroyed' | 'send' | 'closeDevTools' | 'reload' | 'forcefullyCrashRenderer' | 'copy' | 'cut' | 'paste' | 'selectAll' | 'replaceMisspelling'
>

export class FakeWebContents extends EventEmitter implements WebContentsPart {
  windowOpenHandler: Parameters<Electron.WebContents['setWindowOpenHandler']>[0] | null = null
  url = ''
  destroyed = false
  sent: Array<{ channel: string; message: unknown }> = []
  session = defaultSession
  devToolsOpen = false
  /** Editing commands and reloads, in order (copy, paste, replaceMisspelling:<word>, reload, crash). */
  commands: string[] = []
  /** Test helper: something opened DevTools (a shortcut, a menu, a debugger). */
  openDevTools(): void {
    this.devToolsOpen = true
    this.emit('devtools-opened')
  }
  closeDevTools(): void {
    this.devToolsOpen = false
  }
  setWindowOpenHandler(handler: Parameters<Electron.WebContents['setWindowOpenHandler']>[0]): void {
    this.windowOpenHandler = handler
  }
  getURL(): string {
    return this.url
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, message: args[0] })
  }
  reload(): void {
    this.commands.push('reload')
  }
  forcefullyCrashRenderer(): void {
    this.commands.push('crash')
    // Like Electron: the renderer is killed and the contents hear of it.
    const details: Electron.RenderProcessGoneDetails = { reason: 'killed', exitCode: 9 }
    this.emit('render-process-gone', new FakeEvent(), details)
  }
  copy(): void {
    this.commands.push('copy')
  }
  cut(): void {
    this.commands.push('cut')
  }
  paste(): void {
    this.commands.push('paste')
  }
  selectAll(): void {
    this.commands.push('selectAll')
  }
  replaceMisspelling(text: string): void {
    this.commands.push(`replaceMisspelling:${text}`)
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

type WindowPart = Pick<
  Electron.BrowserWindow,
  | 'loadFile'
  | 'loadURL'
  | 'show'
  | 'isFocused'
  | 'focus'
  | 'isMinimized'
  | 'restore'
  | 'isVisible'
  | 'isDestroyed'
  | 'close'
  | 'getNormalBounds'
  | 'setBounds'
  | 'isMaximized'
  | 'maximize'
  | 'isFullScreen'
>

export class BrowserWindow extends EventEmitter implements WindowPart {
  static created: BrowserWindow[] = []
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.created.filter((w) => !w.destroyed)
  }
  readonly webContents = new FakeWebContents()
  loadedFile: string | null = null
  loadedUrl: string | null = null
  destroyed = false
  shown = false
  focused = false
  minimized = false
  maximized = false
  fullScreen = false
  bounds: Electron.Rectangle
  constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
    super()
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 }
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
  getNormalBounds(): Electron.Rectangle {
    return { ...this.bounds }
  }
  setBounds(bounds: Partial<Electron.Rectangle>): void {
    this.bounds = { ...this.bounds, ...bounds }
  }
  isMaximized(): boolean {
    return this.maximized
  }
  maximize(): void {
    this.maximized = true
  }
  isFullScreen(): boolean {
    return this.fullScreen
  }
  close(): void {
    // Like Electron: 'close' can be prevented; 'closed' follows only when it is not.
    const event = new FakeEvent()
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroyed = true
    this.webContents.destroy()
    this.emit('closed')
  }
}

/** Electron's main-process Notification: records what was shown; `click()` plays the user's click. */
export class Notification extends EventEmitter implements Pick<Electron.Notification, 'show' | 'close'> {
  static supported = true
  static shown: Notification[] = []
  static isSupported(): boolean {
    return Notification.supported
  }
  closed = false
  constructor(readonly options: Electron.NotificationConstructorOptions) {
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

/** A built menu; `popup` records that it was shown. */
export class Menu implements Pick<Electron.Menu, 'popup'> {
  static built: Menu[] = []
  static buildFromTemplate(template: Array<Electron.MenuItemConstructorOptions | Electron.MenuItem>): Menu {
    const menu = new Menu(template as Electron.MenuItemConstructorOptions[])
    Menu.built.push(menu)
    return menu
  }
  popups: Array<Electron.PopupOptions | undefined> = []
  constructor(readonly template: Electron.MenuItemConstructorOptions[]) {}
  popup(options?: Electron.PopupOptions): void {
    this.popups.push(options)
  }
}

const written: string[] = []
export const clipboard = faking<Pick<ElectronModule['clipboard'], 'writeText'>>()({
  written,
  async writeText(text: string): Promise<void> {
    written.push(text)
  }
})

export const shell = faking<Pick<ElectronModule['shell'], 'openExternal'>>()({
  opened: [] as string[],
  openExternal(url: string): Promise<void> {
    shell.opened.push(url)
    return Promise.resolve()
  }
})

type WindowOr<T> = [window: Electron.BaseWindow, options: T] | [options: T]

export const dialog = faking<Pick<ElectronModule['dialog'], 'showOpenDialog' | 'showMessageBox' | 'showErrorBox'>>()({
  nextResult: { canceled: true, filePaths: [] as string[] } as Electron.OpenDialogReturnValue,
  calls: [] as unknown[][],
  showOpenDialog(...args: WindowOr<Electron.OpenDialogOptions>): Promise<Electron.OpenDialogReturnValue> {
    dialog.calls.push(args)
    return Promise.resolve(dialog.nextResult)
  },
  /** The button index the next message boxes answer (their `response`). */
  nextResponse: 0,
  messageBoxes: [] as Electron.MessageBoxOptions[],
  showMessageBox(...args: WindowOr<Electron.MessageBoxOptions>): Promise<Electron.MessageBoxReturnValue> {
    dialog.messageBoxes.push(args.length === 2 ? args[1] : args[0])
    return Promise.resolve({ response: dialog.nextResponse, checkboxChecked: false })
  },
  errorBoxes: [] as Array<[string, string]>,
  showErrorBox(title: string, content: string): void {
    dialog.errorBoxes.push([title, content])
  }
})

// Only the asynchronous API: the synchronous calls are deprecated in Electron 45 (removed in 46),
// so a test of code that still used them fails here.
type StorageBackend = ReturnType<Electron.SafeStorage['getSelectedStorageBackend']>
/** Test knobs of the fake safeStorage. */
const storage: { available: boolean; backend: StorageBackend; stale: boolean } = { available: true, backend: 'gnome_libsecret', stale: false }
export const safeStorage = faking<Pick<Electron.SafeStorage, 'isAsyncEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptStringAsync' | 'decryptStringAsync'>>()({
  get available() {
    return storage.available
  },
  set available(value: boolean) {
    storage.available = value
  },
  get backend() {
    return storage.backend
  },
  set backend(value: StorageBackend) {
    storage.backend = value
  },
  /** Test knob: the next decrypts report the data as sealed under an older key. */
  get stale() {
    return storage.stale
  },
  set stale(value: boolean) {
    storage.stale = value
  },
  isAsyncEncryptionAvailable: async () => storage.available,
  getSelectedStorageBackend: () => storage.backend,
  // Reversible and visibly different from the input, like the real thing.
  encryptStringAsync: async (plain: string) => Buffer.from(`enc:${[...plain].reverse().join('')}`, 'utf8'),
  decryptStringAsync: async (sealed: Buffer) => {
    const text = sealed.toString('utf8')
    if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    return { result: [...text.slice(4)].reverse().join(''), shouldReEncrypt: storage.stale }
  }
})

export const protocol = faking<Pick<Electron.Protocol, 'registerSchemesAsPrivileged'>>()({
  privileged: [] as Electron.CustomScheme[],
  /**
   * Like Electron: only before 'ready' (it throws after), and a second call replaces the first
   * (schemes from the first call lose their privileges), which here is an error: register
   * every scheme in one call.
   */
  registerSchemesAsPrivileged(schemes: Electron.CustomScheme[]): void {
    if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready')
    if (protocol.privileged.length > 0) throw new Error('protocol.registerSchemesAsPrivileged was already called: a second call replaces the first')
    protocol.privileged.push(...schemes)
  }
})

export class FakeIpcMain implements Pick<Electron.IpcMain, 'handle' | 'removeHandler'> {
  handlers = new Map<string, Parameters<Electron.IpcMain['handle']>[1]>()
  handle(channel: string, handler: Parameters<Electron.IpcMain['handle']>[1]): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, handler)
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
}

export const ipcMain = new FakeIpcMain()

export class FakeIpcRenderer extends EventEmitter implements Pick<Electron.IpcRenderer, 'invoke'> {
  invocations: Array<{ channel: string; args: unknown[] }> = []
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push({ channel, args })
    return Promise.resolve({ ok: true, output: { echoed: args[0] } })
  }
}

export const ipcRenderer = new FakeIpcRenderer()

export const contextBridge = faking<Pick<Electron.ContextBridge, 'exposeInMainWorld'>>()({
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    contextBridge.exposed.set(key, api)
  }
})

export const session = { defaultSession }

type AppPart = Pick<Electron.App, 'enableSandbox' | 'setPath' | 'getPath' | 'requestSingleInstanceLock' | 'whenReady' | 'isReady' | 'quit' | 'exit' | 'setAppUserModelId'>

/** Records the calls main.ts makes, in order, so tests can check what happens before the lock. */
export class FakeApp extends EventEmitter implements AppPart {
  isPackaged = false
  calls: string[] = []
  paths = new Map<string, string>()
  lockGranted = true
  ready = false
  enableSandbox(): void {
    this.calls.push('enableSandbox')
  }
  setPath(name: Parameters<Electron.App['setPath']>[0], value: string): void {
    this.calls.push(`setPath:${name}`)
    this.paths.set(name, value)
  }
  getPath(name: Parameters<Electron.App['getPath']>[0]): string {
    return this.paths.get(name) ?? `/fake/${name}`
  }
  requestSingleInstanceLock(): boolean {
    this.calls.push('requestSingleInstanceLock')
    return this.lockGranted
  }
  whenReady(): Promise<void> {
    this.calls.push('whenReady')
    this.ready = true
    return Promise.resolve()
  }
  isReady(): boolean {
    return this.ready
  }
  setAppUserModelId(id: string): void {
    this.calls.push(`setAppUserModelId:${id}`)
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
  Menu,
  clipboard,
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

/** The event Electron passes to an `ipcMain.handle` handler, with the two fields the bridge reads. */
export function invokeEvent(sender: FakeWebContents, senderFrame: { url: string; parent: unknown } | null): Electron.IpcMainInvokeEvent {
  return { sender, senderFrame } as unknown as Electron.IpcMainInvokeEvent
}
