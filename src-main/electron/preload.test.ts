import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('./fake-electron'))

import { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL } from '../../src-shared/contract/channels'
import { contextBridge, ipcRenderer } from './fake-electron'
import '../../src-preload/index'

interface Bridge {
  invoke(method: string, input: unknown): Promise<unknown>
  on(push: string, listener: (payload: unknown) => void): () => void
}

const bridge = contextBridge.exposed.get('seam') as Bridge

describe('preload bridge', () => {
  it('exposes only window.seam with invoke and on, never ipcRenderer', () => {
    expect([...contextBridge.exposed.keys()]).toEqual(['seam'])
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on'])
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true)
  })

  it('invokes on the one channel with {method, input}', async () => {
    expect(await bridge.invoke('app/status', {})).toEqual({ ok: true, output: { echoed: { method: 'app/status', input: {} } } })
    expect(ipcRenderer.invocations.at(-1)).toEqual({ channel: IPC_INVOKE_CHANNEL, args: [{ method: 'app/status', input: {} }] })
    await expect(bridge.invoke('../../evil', {})).rejects.toThrow(/method/)
    await expect(bridge.invoke(42 as unknown as string, {})).rejects.toThrow(/method/)
  })

  it('delivers only the named push, without the IPC event, until unsubscribed', () => {
    const seen: unknown[] = []
    const off = bridge.on('agent/state', (payload) => seen.push(payload))
    const event = { sender: ipcRenderer }
    ipcRenderer.emit(IPC_PUSH_CHANNEL, event, { push: 'agent/state', payload: { running: true } })
    ipcRenderer.emit(IPC_PUSH_CHANNEL, event, { push: 'log', payload: { x: 1 } })
    ipcRenderer.emit(IPC_PUSH_CHANNEL, event, 'garbage')
    off()
    off()
    ipcRenderer.emit(IPC_PUSH_CHANNEL, event, { push: 'agent/state', payload: { running: false } })
    expect(seen).toEqual([{ running: true }])
    expect(ipcRenderer.listenerCount(IPC_PUSH_CHANNEL)).toBe(0)
    expect(() => bridge.on('agent/state', 'nope' as unknown as () => void)).toThrow(/listener/)
  })
})
