// The Electron IPC transport: one invoke channel answered by the router after the sender frame
// is checked, pushes sent to each attached window, and the connection tracker kept up to date.
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron'
import { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL } from '../../src-shared/contract/channels'
import { WireRequestSchema, type WireReply } from '../../src-shared/contract/ipc'
import { formatZodError } from '../../src-shared/validation'
import type { HostCore } from '../transport/host-core'
import type { TransportLog } from '../transport/push-hub'
import { isAppUrl, isTrustedSender, type AppPage } from './security'

export interface IpcOptions {
  ipcMain: IpcMain
  core: HostCore
  /** The app's page (appPageFor): only its top frame is answered and pushed to. */
  page: AppPage
  log?: TransportLog
}

export interface IpcBridge {
  /** Serves one window: its pushes and its place in the connection count. Undone when it is destroyed. */
  attachWindow(window: BrowserWindow): () => void
  dispose(): void
}

export function registerIpc(options: IpcOptions): IpcBridge {
  const { ipcMain, core, page } = options
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[seam] ${message}`, error ?? ''))
  const attached = new Map<WebContents, () => void>()

  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event: IpcMainInvokeEvent, request: unknown): Promise<WireReply> => {
    if (!attached.has(event.sender) || !isTrustedSender(event.senderFrame, page)) {
      log(`refused IPC from ${JSON.stringify(event.senderFrame?.url ?? null)}`)
      return { ok: false, error: { code: 'FORBIDDEN', message: 'IPC is answered only for the Seam window' } }
    }
    const parsed = WireRequestSchema.safeParse(request)
    if (!parsed.success) {
      return { ok: false, error: { code: 'BAD_MESSAGE', message: formatZodError('message', parsed.error) } }
    }
    return core.router.invoke(parsed.data.method, parsed.data.input, { transport: 'electron' })
  })

  function attachWindow(window: BrowserWindow): () => void {
    const contents = window.webContents
    const existing = attached.get(contents)
    if (existing) return existing
    let release: (() => void) | undefined
    // Live before the connection is counted: acquiring it publishes a status push this window must get.
    let live = false
    const connect = () => {
      if (live) return
      live = true
      release = core.connections.acquire()
    }
    const disconnect = () => {
      live = false
      release?.()
      release = undefined
    }
    const unsubscribe = core.pushes.subscribe((message) => {
      if (contents.isDestroyed() || !live) return
      if (!isAppUrl(contents.getURL(), page)) return
      contents.send(IPC_PUSH_CHANNEL, message)
    })
    contents.on('did-finish-load', connect)
    contents.on('render-process-gone', disconnect)
    const detach = () => {
      if (!attached.has(contents)) return
      attached.delete(contents)
      unsubscribe()
      disconnect()
    }
    contents.once('destroyed', detach)
    window.once('closed', detach)
    attached.set(contents, detach)
    return detach
  }

  return {
    attachWindow,
    dispose() {
      ipcMain.removeHandler(IPC_INVOKE_CHANNEL)
      for (const detach of [...attached.values()]) detach()
    }
  }
}
