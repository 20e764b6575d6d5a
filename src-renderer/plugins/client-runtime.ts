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

export interface ClientPluginStatus {
  name: string
  url: string
  state: 'loading' | 'active' | 'failed'
  error?: string
  /** A newer build (a dev bundle's) that did not load or activate, while this one stays active. */
  replacementError?: string
}

/** Client-side state of each bundle's client part, for the plugin manager. */
export const useClientPluginsStore = create<{ plugins: Record<string, ClientPluginStatus> }>()(() => ({ plugins: {} }))

interface Loaded {
  name: string
  url: string
  disposers: Disposer[]
  disposed: boolean
}

type ActivateFn = (ctx: ClientContext) => unknown

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
    for (const name of [...this.loaded.keys()]) {
      if (!wanted.has(name)) this.deactivate(name)
    }
    for (const [name, url] of wanted) {
      const current = this.loaded.get(name)
      if (!current) await this.activate(name, url)
      else if (current.url !== url) await this.replace(current, url)
    }
  }

  /**
   * A new URL for a loaded entry (a dev bundle's new build): the new module is imported first and
   * the old one deactivated only once that worked, so a build that fails to load leaves the
   * previous one running; one that fails to activate gets the previous one activated again.
   */
  private async replace(current: Loaded, url: string): Promise<void> {
    let activate: ActivateFn
    try {
      activate = await this.importEntry(url)
    } catch (error) {
      console.error(`[seam] client plugin ${current.name}: the new build did not load`, error)
      current.url = url
      useClientPluginsStore.setState((state) => {
        const status = state.plugins[current.name]
        return status ? { plugins: { ...state.plugins, [current.name]: { ...status, replacementError: errorText(error) } } } : state
      })
      return
    }
    const previous = this.activeModules.get(current.name)
    this.deactivate(current.name)
    await this.activate(current.name, url, activate)
    const status = useClientPluginsStore.getState().plugins[current.name]
    if (status?.state !== 'failed' || !previous) return
    await this.activate(current.name, previous.url, previous.activate)
    const back = this.loaded.get(current.name)
    if (back) back.url = url
    useClientPluginsStore.setState((state) => {
      const restored = state.plugins[current.name]
      return restored ? { plugins: { ...state.plugins, [current.name]: { ...restored, replacementError: status.error } } } : state
    })
  }

  /** The activate function of each loaded entry, to fall back to when a replacement fails. */
  private readonly activeModules = new Map<string, { url: string; activate: ActivateFn }>()

  private async importEntry(url: string): Promise<ActivateFn> {
    const count = (this.loadCounts.get(url) ?? 0) + 1
    this.loadCounts.set(url, count)
    // A fresh module instance on re-activation (the host serves the file whatever the query).
    const mod = await this.load(count === 1 ? url : `${url}${url.includes('?') ? '&' : '?'}seam-load=${count}`)
    const activate = (mod as { default?: unknown } | null)?.default
    if (typeof activate !== 'function') throw new Error(`${url}: the client entry has no default export function activate(ctx)`)
    return activate as ActivateFn
  }

  private async activate(name: string, url: string, imported?: ActivateFn): Promise<void> {
    const plugin: Loaded = { name, url, disposers: [], disposed: false }
    this.loaded.set(name, plugin)
    setStatus(name, { name, url, state: 'loading' })
    try {
      const activate = imported ?? (await this.importEntry(url))
      const result: unknown = await activate(this.contextFor(plugin))
      if (typeof result === 'function') plugin.disposers.push(result as Disposer)
      if (plugin.disposed) return
      this.activeModules.set(name, { url, activate })
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
    this.activeModules.delete(name)
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
