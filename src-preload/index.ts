// The sandboxed preload: exposes exactly `window.seam = { invoke, on }` through contextBridge.
// It never exposes ipcRenderer, Node or process.env; it imports only electron and the channel
// names, so it builds to a dependency-free CommonJS file (out/preload/index.cjs).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL } from '../src-shared/contract/channels'

type PushListener = (payload: unknown) => void

const NAME = /^[a-z][a-z0-9-]*(\/[a-z][a-z0-9-]*)*$/

const bridge = {
  /** Resolves to the WireReply `{ok, output}` / `{ok: false, error}`; the host validates everything. */
  invoke(method: string, input: unknown): Promise<unknown> {
    if (typeof method !== 'string' || !NAME.test(method) || method.length > 100) {
      return Promise.reject(new Error('seam.invoke: method must be a contract method name'))
    }
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, { method, input })
  },

  /** Calls `listener(payload)` for each push named `push`; returns the unsubscribe function. */
  on(push: string, listener: PushListener): () => void {
    if (typeof push !== 'string' || !NAME.test(push)) throw new Error('seam.on: push must be a contract push name')
    if (typeof listener !== 'function') throw new Error('seam.on: listener must be a function')
    const relay = (_event: IpcRendererEvent, message: unknown) => {
      if (typeof message !== 'object' || message === null) return
      const { push: name, payload } = message as { push?: unknown; payload?: unknown }
      if (name === push) listener(payload)
    }
    ipcRenderer.on(IPC_PUSH_CHANNEL, relay)
    let active = true
    return () => {
      if (!active) return
      active = false
      ipcRenderer.removeListener(IPC_PUSH_CHANNEL, relay)
    }
  }
}

contextBridge.exposeInMainWorld('seam', bridge)
