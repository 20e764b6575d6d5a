import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import type { HeadersReceivedResponse, WebContents } from 'electron'
import { BrowserWindow, FakeEvent, Menu, clipboard, defaultSession, shell } from './fake-electron'
import type { AppPage } from './security'
import { createMainWindow, loadAppPage, windowIcon } from './window'

const preloadPath = '/opt/seam/out/preload/index.cjs'
const page: AppPage = { kind: 'app' }
const appUrl = 'seam://app/index.html'
const logged: string[] = []
const log = (message: string) => logged.push(message)

function openWindow(packaged = true) {
  const window = createMainWindow({ preloadPath, page, packaged, log })
  void loadAppPage(window, {})
  return { fake: window as unknown as BrowserWindow, appUrl }
}

describe('main window', () => {
  it('is isolated, sandboxed, without Node, with web security and the CommonJS preload', () => {
    const { fake } = openWindow()
    const prefs = fake.options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: preloadPath
    })
    expect(prefs).not.toHaveProperty('enableBlinkFeatures')
  })

  it('loads the renderer from the app\'s custom scheme, never from file:// (issue 13: Electron)', () => {
    const { fake } = openWindow()
    expect(fake.loadedFile).toBeNull()
    expect(fake.loadedUrl).toBe('seam://app/index.html')
  })

  it('a packaged build has no DevTools: disabled in webPreferences, and closed if anything opens them (issue 13: Electron)', () => {
    const packaged = openWindow(true).fake
    expect((packaged.options.webPreferences as Record<string, unknown>).devTools).toBe(false)
    packaged.webContents.openDevTools()
    expect(packaged.webContents.devToolsOpen).toBe(false)
    const dev = openWindow(false).fake
    expect((dev.options.webPreferences as Record<string, unknown>).devTools).toBe(true)
    dev.webContents.openDevTools()
    expect(dev.webContents.devToolsOpen).toBe(true)
  })

  it('loads the dev server when given one, and trusts only its origin', () => {
    const devServerUrl = 'http://localhost:5173/'
    const window = createMainWindow({ preloadPath, devServerUrl, page: { kind: 'server', origin: devServerUrl }, packaged: false, log })
    void loadAppPage(window, { devServerUrl })
    const fake = window as unknown as BrowserWindow
    expect(fake.loadedUrl).toBe('http://localhost:5173/')
    const navigate = (url: string) => {
      const event = new FakeEvent(url)
      fake.webContents.emit('will-navigate', event, url)
      return event.defaultPrevented
    }
    expect(navigate('http://localhost:5173/#/settings')).toBe(false)
    expect(navigate('http://localhost:5174/')).toBe(true)
  })

  it('blocks navigation away from the app page', () => {
    const { fake, appUrl } = openWindow()
    const navigate = (url: string) => {
      const event = new FakeEvent(url)
      fake.webContents.emit('will-navigate', event, url)
      return event.defaultPrevented
    }
    expect(navigate('https://example.com/')).toBe(true)
    expect(navigate('file:///etc/passwd')).toBe(true)
    expect(navigate('file:///opt/seam/out/renderer/index.html')).toBe(true)
    expect(navigate('seam://app.evil/index.html')).toBe(true)
    expect(navigate(`${appUrl}#/settings`)).toBe(false)
    const redirect = new FakeEvent('https://example.com/')
    fake.webContents.emit('will-redirect', redirect, redirect.url)
    expect(redirect.defaultPrevented).toBe(true)
  })

  it('refuses <webview>', () => {
    const { fake } = openWindow()
    const event = new FakeEvent()
    fake.webContents.emit('will-attach-webview', event, {}, {})
    expect(event.defaultPrevented).toBe(true)
  })

  it('denies window.open and opens only validated https URLs externally', () => {
    const { fake } = openWindow()
    const handler = fake.webContents.windowOpenHandler!
    shell.opened.length = 0
    for (const url of ['https://docs.example.com/a', 'http://example.com', 'javascript:alert(1)', 'file:///etc/passwd', 'https://u:p@example.com/']) {
      expect(handler({ url, frameName: '', features: '', disposition: 'new-window', referrer: { url: appUrl, policy: 'no-referrer' } })).toEqual({ action: 'deny' })
    }
    expect(shell.opened).toEqual(['https://docs.example.com/a'])
  })

  it("installs the permission handlers on the window's session: the app page may copy, other pages get nothing (issue 30)", () => {
    const { fake } = openWindow()
    const contents = fake.webContents as unknown as WebContents
    const answers: boolean[] = []
    defaultSession.permissionRequestHandler!(contents, 'clipboard-sanitized-write', (ok) => answers.push(ok), { isMainFrame: true, requestingUrl: appUrl })
    defaultSession.permissionRequestHandler!(contents, 'media', (ok) => answers.push(ok), { isMainFrame: true, requestingUrl: appUrl })
    defaultSession.permissionRequestHandler!(contents, 'clipboard-sanitized-write', (ok) => answers.push(ok), { isMainFrame: true, requestingUrl: 'file:///opt/seam/out/renderer/index.html' })
    expect(answers).toEqual([true, false, false])
    expect(defaultSession.permissionCheckHandler!(contents, 'clipboard-sanitized-write', 'seam://app', { isMainFrame: true, requestingUrl: appUrl })).toBe(true)
    expect(defaultSession.permissionCheckHandler!(contents, 'geolocation', 'seam://app', { isMainFrame: true, requestingUrl: appUrl })).toBe(false)
    expect(logged.some((line) => line.includes('media') && line.includes('seam://app'))).toBe(true)
  })

  it('sets the CSP header on responses, replacing any other', () => {
    openWindow()
    let result: HeadersReceivedResponse | undefined
    defaultSession.headersListener!(
      {
        id: 1,
        url: appUrl,
        method: 'GET',
        resourceType: 'mainFrame',
        referrer: '',
        timestamp: 0,
        statusLine: 'HTTP/1.1 200 OK',
        statusCode: 200,
        responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] }
      },
      (response) => (result = response)
    )
    const headers = result!.responseHeaders as Record<string, string[]>
    expect(headers['content-security-policy']).toBeUndefined()
    expect(headers['Content-Security-Policy']![0]).toContain("default-src 'self'")
    const scriptSrc = headers['Content-Security-Policy']![0]!.split(';').find((d) => d.trim().startsWith('script-src'))
    expect(scriptSrc).toContain("'self'")
    expect(scriptSrc).not.toContain('unsafe-inline')
    expect(scriptSrc).not.toContain('unsafe-eval')
    expect(headers['Content-Type']).toEqual(['text/html'])
  })

  it('shows the window once it is ready', () => {
    const { fake } = openWindow()
    expect(fake.shown).toBe(false)
    fake.emit('ready-to-show')
    expect(fake.shown).toBe(true)
  })

  it('opens at the remembered size and position, maximized when it was (issue 30)', () => {
    const window = createMainWindow({ preloadPath, page, packaged: true, log, state: { x: 40, y: 30, width: 1500, height: 950, maximized: true } }) as unknown as BrowserWindow
    expect(window.options).toMatchObject({ x: 40, y: 30, width: 1500, height: 950 })
    expect(window.isMaximized()).toBe(true)
    expect((window.options.webPreferences as Record<string, unknown>).spellcheck).toBe(true)
  })

  it('right-click shows the context menu at the spot; a suggestion replaces the misspelled word (issue 30)', () => {
    const { fake } = openWindow()
    const flags = { canUndo: false, canRedo: false, canCut: true, canCopy: true, canPaste: true, canDelete: true, canSelectAll: true, canEditRichly: false }
    const params = { isEditable: true, selectionText: '', misspelledWord: 'teh', dictionarySuggestions: ['the'], editFlags: flags, linkURL: 'https://example.com/' }
    Menu.built.length = 0
    fake.webContents.emit('context-menu', new FakeEvent(), params)
    expect(Menu.built).toHaveLength(1)
    const menu = Menu.built[0]!
    expect(menu.popups).toEqual([{ window: fake }])
    ;(menu.template[0]!.click as () => void)()
    expect(fake.webContents.commands).toEqual(['replaceMisspelling:the'])
    ;(menu.template.find((item) => item.label === 'Add to Dictionary')!.click as () => void)()
    expect(defaultSession.dictionary).toEqual(['teh'])
    ;(menu.template.find((item) => item.label === 'Copy Link')!.click as () => void)()
    expect(clipboard.written).toEqual(['https://example.com/'])
  })

  it('a missing icon file is logged and the window opens with the default icon (issue 30)', () => {
    const lines: string[] = []
    expect(windowIcon(['/opt/Seam/resources/icon.png'], () => false, (line) => lines.push(line))).toBeUndefined()
    expect(lines).toEqual(['window icon: none of /opt/Seam/resources/icon.png exists; using the default icon'])
    expect(windowIcon(['/a.png', '/b.png'], (path) => path === '/b.png', (line) => lines.push(line))).toBe('/b.png')
    const window = createMainWindow({ preloadPath, page, packaged: true, log }) as unknown as BrowserWindow
    expect(window.options).not.toHaveProperty('icon')
  })
})
