// Loads enabled bundles' client entries (`plugins/client-entries`) as ES modules, activates each
// with its own ClientContext, and deactivates the ones that disappear: every registration the
// plugin made is undone, so disabling or removing a bundle removes its UI at once.
import { create } from 'zustand'
import type { HostApi } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import { errorText } from '../app/errors'
import type { ClientContext, Disposer } from './sdk'
import { slotsActions } from './slots-store'

export type ModuleLoader = (url: string) => Promise<unknown>

export interface ClientPluginStatus { name: string; url: string; state: 'loading' | 'active' | 'failed'; error?: string }

/** Client-side state of each bundle's client part, for the plugin manager. */
export const useClientPluginsStore = create<{ plugins: Record<string, ClientPluginStatus> }>()(() => ({ plugins: {} }))

interface Loaded {
  name: string
  url: string
  disposers: Disposer[]
  disposed: boolean
}

type SessionListener = (event: SessionEvent, sessionId: string) => void

const importModule: ModuleLoader = (url) => import(/* @vite-ignore */ url)

export class ClientPluginRuntime {
  private readonly loaded = new Map<string, Loaded>()
  private readonly listeners = new Set<{ plugin: string; fn: SessionListener }>()
  private readonly loadCounts = new Map<string, number>()
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly host: HostApi,
    private readonly load: ModuleLoader = importModule
  ) {}

  /** Fetches the client entries and (de)activates to match; calls run one after another. */
  sync(): Promise<void> {
    this.queue = this.queue.then(() => this.syncNow())
    return this.queue
  }

  /** Forwards a session event to every plugin's listeners; a throwing listener is reported, not fatal. */
  dispatchSessionEvent(sessionId: string, event: SessionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener.fn(event, sessionId)
      } catch (error) {
        console.error(`[seam] client plugin ${listener.plugin}: session event listener threw`, error)
      }
    }
  }

  /** Deactivates every client plugin. */
  dispose(): void {
    for (const name of [...this.loaded.keys()]) this.deactivate(name)
  }

  private async syncNow(): Promise<void> {
    let entries: Array<{ name: string; url: string }>
    try {
      entries = await this.host.invoke('plugins/client-entries', {})
    } catch (error) {
      console.error('[seam] plugins/client-entries failed', error)
      return
    }
    const wanted = new Map(entries.map((e) => [e.name, e.url]))
    for (const [name, plugin] of this.loaded) {
      if (wanted.get(name) !== plugin.url) this.deactivate(name)
    }
    for (const [name, url] of wanted) {
      if (!this.loaded.has(name)) await this.activate(name, url)
    }
  }

  private async activate(name: string, url: string): Promise<void> {
    const plugin: Loaded = { name, url, disposers: [], disposed: false }
    this.loaded.set(name, plugin)
    setStatus(name, { name, url, state: 'loading' })
    try {
      const count = (this.loadCounts.get(url) ?? 0) + 1
      this.loadCounts.set(url, count)
      // A fresh module instance on re-activation (the host serves the file whatever the query).
      const mod = await this.load(count === 1 ? url : `${url}${url.includes('?') ? '&' : '?'}seam-load=${count}`)
      const activate = (mod as { default?: unknown } | null)?.default
      if (typeof activate !== 'function') throw new Error(`${url}: the client entry has no default export function activate(ctx)`)
      const result: unknown = await activate(this.contextFor(plugin))
      if (typeof result === 'function') plugin.disposers.push(result as Disposer)
      if (plugin.disposed) return
      setStatus(name, { name, url, state: 'active' })
    } catch (error) {
      this.undo(plugin)
      console.error(`[seam] client plugin ${name} failed to activate`, error)
      setStatus(name, { name, url, state: 'failed', error: errorText(error) })
    }
  }

  private deactivate(name: string): void {
    const plugin = this.loaded.get(name)
    if (!plugin) return
    this.loaded.delete(name)
    this.undo(plugin)
    useClientPluginsStore.setState((state) => {
      const plugins = { ...state.plugins }
      delete plugins[name]
      return { plugins }
    })
  }

  private undo(plugin: Loaded): void {
    plugin.disposed = true
    for (const dispose of plugin.disposers.splice(0).reverse()) {
      try {
        dispose()
      } catch (error) {
        console.error(`[seam] client plugin ${plugin.name}: a disposer threw`, error)
      }
    }
    slotsActions.removePlugin(plugin.name)
    for (const listener of [...this.listeners]) if (listener.plugin === plugin.name) this.listeners.delete(listener)
  }

  private contextFor(plugin: Loaded): ClientContext {
    const track = (undo: () => void): Disposer => {
      let done = false
      const dispose = () => {
        if (done) return
        done = true
        undo()
      }
      if (plugin.disposed) dispose()
      else plugin.disposers.push(dispose)
      return dispose
    }
    const owned = { plugin: plugin.name }
    return {
      plugin: plugin.name,
      slots: {
        sidebarPanel: (panel) => track(removeUid(slotsActions.add('sidebarPanels', { ...owned, ...panel }))),
        settingsPage: (page) => track(removeUid(slotsActions.add('settingsPages', { ...owned, ...page }))),
        statusItem: (item) => track(removeUid(slotsActions.add('statusItems', { ...owned, ...item }))),
        toolResultRenderer: (toolName, render) => track(removeUid(slotsActions.add('toolResultRenderers', { ...owned, toolName, render })))
      },
      rpc: async <T,>(method: string, input?: unknown): Promise<T> => {
        if (plugin.disposed) throw new Error(`client plugin ${plugin.name} is no longer active`)
        return (await this.host.invoke('plugins/call', { plugin: plugin.name, method, input })) as T
      },
      onSessionEvent: (fn) => {
        const listener = { plugin: plugin.name, fn }
        this.listeners.add(listener)
        return track(() => this.listeners.delete(listener))
      }
    }
  }
}

function removeUid(uid: number): () => void {
  return () => slotsActions.remove(uid)
}

function setStatus(name: string, status: ClientPluginStatus): void {
  useClientPluginsStore.setState((state) => ({ plugins: { ...state.plugins, [name]: status } }))
}
