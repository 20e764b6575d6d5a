// The permission handlers against what Electron 45 sends (issue 30): its permission names, a
// request's `PermissionRequest` details (the frame's URL) and a check's requesting origin.
// `navigator.clipboard.writeText` (a code block's Copy button) asks for
// `clipboard-sanitized-write`; the app page gets it, nothing else gets anything.
import type { WebContents } from 'electron'
import { describe, expect, it } from 'vitest'
import { APP_PERMISSIONS, permissionHandlers, type PermissionName } from './permissions'
import type { AppPage } from './security'

const app: AppPage = { kind: 'app' }
const dev: AppPage = { kind: 'server', origin: 'http://localhost:5173/' }
const contents = {} as WebContents // the handlers never read it: the frame's URL decides

function handlers(page: AppPage = app) {
  const logged: string[] = []
  const { request, check } = permissionHandlers(page, (line) => logged.push(line))
  const ask = (permission: PermissionName, requestingUrl: string, isMainFrame = true) => {
    let answer: boolean | undefined
    request(contents, permission, (granted) => (answer = granted), { isMainFrame, requestingUrl })
    return answer
  }
  const checked = (permission: PermissionName, origin: string, isMainFrame = true) => check(contents, permission, origin, { isMainFrame, requestingUrl: `${origin}/index.html` })
  return { ask, checked, check, logged }
}

// Every name in Electron 45's declarations that the UI does not use.
const OTHERS: PermissionName[] = [
  'clipboard-read',
  'deprecated-sync-clipboard-read',
  'media',
  'display-capture',
  'geolocation',
  'fullscreen',
  'openExternal',
  'fileSystem',
  'hid',
  'serial',
  'usb',
  'midi',
  'midiSysex',
  'pointerLock',
  'keyboardLock',
  'idle-detection',
  'local-fonts',
  'storage-access',
  'window-management',
  'unknown'
]

describe('permission handlers (issue 30)', () => {
  it("grant the app page's top-level frame exactly clipboard-sanitized-write and notifications", () => {
    expect([...APP_PERMISSIONS].sort()).toEqual(['clipboard-sanitized-write', 'notifications'])
    const { ask, checked } = handlers()
    for (const permission of APP_PERMISSIONS) {
      expect(ask(permission, 'seam://app/index.html'), permission).toBe(true)
      expect(ask(permission, 'seam://app/sessions/abc?x=1#y'), permission).toBe(true)
      expect(checked(permission, 'seam://app'), permission).toBe(true)
    }
  })

  it('refuse every other permission, to the app page too', () => {
    const { ask, checked } = handlers()
    for (const permission of OTHERS) {
      expect(ask(permission, 'seam://app/index.html'), permission).toBe(false)
      expect(checked(permission, 'seam://app'), permission).toBe(false)
    }
  })

  it('refuse a request from another origin, a page opened from disk, a look-alike or a subframe, and log it once', () => {
    const { ask, checked, check, logged } = handlers()
    for (const url of ['https://attacker.example/', 'file:///opt/seam/out/renderer/index.html', 'seam://app.evil/index.html', 'seam-plugin://bundles/x/client.js', 'http://localhost:5173/', '', 'not a url']) {
      expect(ask('clipboard-sanitized-write', url), url).toBe(false)
      expect(checked('clipboard-sanitized-write', url), url).toBe(false)
    }
    expect(ask('clipboard-sanitized-write', 'seam://app/index.html', false)).toBe(false)
    expect(logged).toContain('permission request refused: clipboard-sanitized-write for https://attacker.example')
    expect(logged).toContain('permission request refused: clipboard-sanitized-write for seam://app (a subframe)')
    // A service worker's check names no document.
    expect(check(contents, 'notifications', '', { isMainFrame: false })).toBe(false)
    expect(logged).toContain('permission check refused: notifications for an unknown frame')
    const before = logged.length
    for (let i = 0; i < 50; i++) ask('clipboard-sanitized-write', 'https://attacker.example/')
    expect(logged.length).toBe(before)
  })

  it('in development, trust the dev server origin and not seam://app', () => {
    const { ask, checked } = handlers(dev)
    expect(ask('clipboard-sanitized-write', 'http://localhost:5173/#/settings')).toBe(true)
    expect(checked('clipboard-sanitized-write', 'http://localhost:5173')).toBe(true)
    expect(ask('clipboard-sanitized-write', 'http://localhost:5174/')).toBe(false)
    expect(ask('clipboard-sanitized-write', 'seam://app/index.html')).toBe(false)
  })
})
