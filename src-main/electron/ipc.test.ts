import { describe, expect, it } from 'vitest'
import type { BrowserWindow as ElectronWindow, IpcMain } from 'electron'
import { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL } from '../../src-shared/contract/channels'
import { createTestHostCore } from '../transport/test-host-core'
import { BrowserWindow, FakeIpcMain, FakeWebContents, invokeEvent } from './fake-electron'
import { registerIpc } from './ipc'
import type { AppPage } from './security'

const appUrl = 'seam://app/index.html'
const page: AppPage = { kind: 'app' }

function setup() {
  const ipcMain = new FakeIpcMain()
  const core = createTestHostCore('electron')
  const logged: string[] = []
  const bridge = registerIpc({ ipcMain: ipcMain as unknown as IpcMain, core, page, log: (m) => logged.push(m) })
  const window = new BrowserWindow({})
  bridge.attachWindow(window as unknown as ElectronWindow)
  window.webContents.finishLoad(appUrl)
  const handler = ipcMain.handlers.get(IPC_INVOKE_CHANNEL)!
  const invoke = (request: unknown, frame: { url: string; parent: unknown } | null = { url: appUrl, parent: null }, sender: FakeWebContents = window.webContents) =>
    handler(invokeEvent(sender, frame), request) as Promise<Record<string, unknown>>
  return { ipcMain, core, bridge, window, invoke, logged }
}

describe('electron IPC transport', () => {
  it('answers the app frame through the router', async () => {
    const { invoke, core } = setup()
    expect(await invoke({ method: 'workspace/set', input: { path: '/w' } })).toEqual({ ok: true, output: { path: '/w' } })
    expect(core.calls[0]!.caller).toEqual({ transport: 'electron' })
  })

  it('answers invalid payloads with the field named, and malformed messages with BAD_MESSAGE', async () => {
    const { invoke } = setup()
    expect(await invoke({ method: 'workspace/set', input: { path: 42 } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'path' } })
    expect(await invoke({ method: 'sessions/open', input: { id: '../../etc' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'id' } })
    expect(await invoke('not an object')).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } })
    expect(await invoke({ input: {} })).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } })
    expect(await invoke({ method: 'shell/exec', input: {} })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } })
  })

  it('refuses subframes, foreign pages, missing frames and unknown web contents', async () => {
    const { invoke, core, logged } = setup()
    const request = { method: 'workspace/set', input: { path: '/w' } }
    const refusals = [
      await invoke(request, { url: appUrl, parent: { url: appUrl } }),
      await invoke(request, { url: 'https://example.com.attacker.com/', parent: null }),
      await invoke(request, { url: 'file:///tmp/evil.html', parent: null }),
      // The built renderer opened from disk is not the app: its origin is seam://app (issue 13: Electron).
      await invoke(request, { url: 'file:///opt/seam/out/renderer/index.html', parent: null }),
      await invoke(request, null),
      await invoke(request, { url: appUrl, parent: null }, new FakeWebContents())
    ]
    for (const reply of refusals) expect(reply).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    expect(core.calls).toEqual([])
    expect(logged.length).toBe(6)
  })

  it('sends validated pushes to the loaded app page only', () => {
    const { core, window } = setup()
    core.pushes.publish('sessions/changed', {})
    expect(window.webContents.sent).toEqual([{ channel: IPC_PUSH_CHANNEL, message: { push: 'sessions/changed', payload: {} } }])
    window.webContents.url = 'https://elsewhere.test/'
    core.pushes.publish('sessions/changed', {})
    expect(window.webContents.sent).toHaveLength(1)
  })

  it('a push published as the window connects (the host\'s status) reaches that window', () => {
    const ipcMain = new FakeIpcMain()
    const core = createTestHostCore('electron')
    core.connections.onChange((count) => {
      if (count > 0) core.pushes.publish('sessions/changed', {})
    })
    const bridge = registerIpc({ ipcMain: ipcMain as unknown as IpcMain, core, page })
    const window = new BrowserWindow({})
    bridge.attachWindow(window as unknown as ElectronWindow)
    window.webContents.finishLoad(appUrl)
    expect(window.webContents.sent).toEqual([{ channel: IPC_PUSH_CHANNEL, message: { push: 'sessions/changed', payload: {} } }])
  })

  it('counts the window as a connection until its renderer is gone', () => {
    const { core, window } = setup()
    expect(core.connections.count).toBe(1)
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed' })
    expect(core.connections.count).toBe(0)
    core.pushes.publish('sessions/changed', {})
    expect(window.webContents.sent).toHaveLength(0)
    window.webContents.finishLoad(appUrl) // reloaded after the crash
    expect(core.connections.count).toBe(1)
    window.close()
    expect(core.connections.count).toBe(0)
    expect(core.pushes.subscriberCount).toBe(0)
  })

  it('refuses a closed window and removes its handler on dispose', async () => {
    const { window, invoke, bridge, ipcMain } = setup()
    window.close()
    expect(await invoke({ method: 'workspace/set', input: { path: '/w' } })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    bridge.dispose()
    expect(ipcMain.handlers.has(IPC_INVOKE_CHANNEL)).toBe(false)
  })
})
