// The plugin kernel: dispatch (emit, parallel, serial, waterfall), guards, services and the
// plugin tree. It runs in Node and in the renderer (no Node built-ins here).
import { OrderedLists, type Entry, type OrderKey } from './registry'
import { PluginRuntime, type Plugin, type PluginState } from './runtime'
import { Context } from './context'
import type {
  ErrorOrigin,
  EventName,
  GuardArgs,
  GuardName,
  ListenerArgs,
  LogRecord,
  ServiceName,
  Services,
  WaterfallArgs,
  WaterfallResult
} from './types'

type AnyListener = (...args: unknown[]) => unknown
type AnyGuard = (...args: unknown[]) => string | undefined | void

export class KernelError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KernelError'
  }
}

export interface PluginStateChange {
  plugin: string
  path: OrderKey
  state: PluginState
  error?: string
  missing: string[]
}

export class Kernel {
  readonly listeners = new OrderedLists<AnyListener>()
  readonly guards = new OrderedLists<AnyGuard>()
  private readonly services = new Map<string, { value: unknown; owner: PluginRuntime }>()
  private readonly dependents = new Map<string, Set<PluginRuntime>>()
  private readonly logSinks = new Set<(record: LogRecord) => void>()
  private readonly stateSinks = new Set<(change: PluginStateChange) => void>()
  /** The root plugin: owns everything registered on `kernel.context`. */
  readonly root: PluginRuntime
  /** Records kept when nobody listens yet, so early errors are not lost. */
  private readonly backlog: LogRecord[] = []

  constructor() {
    this.root = PluginRuntime.root(this)
  }

  get context(): Context {
    return this.root.context
  }

  // ---- dispatch ----------------------------------------------------------------------------

  /** Notification: every listener runs, isolated; a throw or rejection is reported, never propagated. */
  emit<K extends EventName>(name: K, ...args: ListenerArgs<K>): void {
    this.emitObserved(name, undefined, ...args)
  }

  /** `emit`, and `onFailure` also hears of every listener that threw or rejected (e.g. to show it in the session). */
  emitObserved<K extends EventName>(name: K, onFailure: ListenerFailure | undefined, ...args: ListenerArgs<K>): void {
    const list = this.listeners.get(name)
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]
      const failed = (error: unknown): void => this.listenerFailed(error, entry.owner, `emit ${name}`, onFailure)
      try {
        const result = entry.callback(...args)
        if (result instanceof Promise) result.catch(failed)
      } catch (error) {
        failed(error)
      }
    }
  }

  /** Notification awaited: listeners run concurrently, isolated like `emit`; resolves when all settle. */
  parallel<K extends EventName>(name: K, ...args: ListenerArgs<K>): Promise<void> {
    return this.parallelObserved(name, undefined, ...args)
  }

  /** `parallel`, and `onFailure` also hears of every listener that threw or rejected. */
  async parallelObserved<K extends EventName>(name: K, onFailure: ListenerFailure | undefined, ...args: ListenerArgs<K>): Promise<void> {
    const list = this.listeners.get(name)
    await Promise.all(
      list.map(async (entry) => {
        try {
          await entry.callback(...args)
        } catch (error) {
          this.listenerFailed(error, entry.owner, `parallel ${name}`, onFailure)
        }
      })
    )
  }

  private listenerFailed(error: unknown, plugin: string, phase: string, onFailure: ListenerFailure | undefined): void {
    this.reportError(error, { plugin, phase })
    if (!onFailure) return
    try {
      onFailure(error, plugin)
    } catch (inner) {
      this.reportError(inner, { plugin: 'kernel', phase: `reporting a failure of ${phase}` })
    }
  }

  /** Listeners run one after another, awaited; the first non-undefined result wins. Errors propagate. */
  async serial<K extends EventName>(name: K, ...args: ListenerArgs<K>): Promise<Awaited<WaterfallResult<K>> | undefined> {
    const list = this.listeners.get(name)
    for (const entry of list) {
      const result = await entry.callback(...args)
      if (result !== undefined) return result as Awaited<WaterfallResult<K>>
    }
    return undefined
  }

  /**
   * Waterfall (S26): listeners run outer to inner; each receives `(...args, next)`. `next()` runs
   * the rest of the chain, or `fallback` after the last listener. Not calling `next` short-circuits
   * everything inside. Calling it twice throws. Errors propagate to the caller, whose seam decides
   * what a failure means (S16, S20).
   */
  waterfall<K extends EventName>(name: K, ...input: [...WaterfallArgs<K>, () => WaterfallResult<K>]): WaterfallResult<K> {
    const list = this.listeners.get(name)
    const last = input.length - 1
    if (list.length === 0) return (input[last] as () => WaterfallResult<K>)()
    return runWaterfall(name, list, input, last, 0) as WaterfallResult<K>
  }

  /**
   * Guards (S1, S12): synchronous, deny-only. Returns the first deny reason. A guard that throws
   * denies (fail closed) with the error as its reason; no guard can turn a deny into an allow.
   */
  checkGuards<K extends GuardName>(family: K, ...args: GuardArgs<K>): string | undefined {
    const list = this.guards.get(family)
    for (const entry of list) {
      let reason: string | undefined | void
      try {
        reason = entry.callback(...(args as unknown[]))
      } catch (error) {
        this.reportError(error, { plugin: entry.owner, phase: `guard ${family}` })
        return `guard from plugin "${entry.owner}" failed: ${errorText(error)}`
      }
      if (typeof reason === 'string' && reason.length > 0) return reason
    }
    return undefined
  }

  listenerCount(name: EventName): number {
    return this.listeners.count(name)
  }

  // ---- services ----------------------------------------------------------------------------

  getService<K extends ServiceName>(name: K): Services[K] | undefined {
    return this.services.get(name)?.value as Services[K] | undefined
  }

  hasService(name: string): boolean {
    return this.services.has(name)
  }

  provideService(name: string, value: unknown, owner: PluginRuntime): () => void {
    const record = { value, owner }
    this.services.set(name, record)
    this.notifyDependents(name, owner)
    return () => {
      if (this.services.get(name) !== record) return
      this.services.delete(name)
      this.notifyDependents(name, owner)
    }
  }

  watchService(name: string, runtime: PluginRuntime): () => void {
    let set = this.dependents.get(name)
    if (!set) this.dependents.set(name, (set = new Set()))
    set.add(runtime)
    return () => set.delete(runtime)
  }

  private notifyDependents(name: string, changedBy: PluginRuntime): void {
    const set = this.dependents.get(name)
    if (!set) return
    for (const runtime of [...set]) {
      if (runtime !== changedBy) runtime.onServiceChanged()
    }
  }

  // ---- plugins -----------------------------------------------------------------------------

  plugin<C>(plugin: Plugin<C>, config?: unknown): PluginRuntime {
    return this.root.context.plugin(plugin, config)
  }

  // ---- errors and logs ---------------------------------------------------------------------

  onLog(sink: (record: LogRecord) => void): () => void {
    this.logSinks.add(sink)
    for (const record of this.backlog.splice(0)) sink(record)
    return () => this.logSinks.delete(sink)
  }

  log(record: LogRecord): void {
    if (this.logSinks.size === 0) {
      if (this.backlog.length < 1000) this.backlog.push(record)
      return
    }
    for (const sink of this.logSinks) {
      try {
        sink(record)
      } catch {
        // A broken sink must not take the others (or the caller) down; there is nowhere left to report it.
      }
    }
  }

  /** Errors in plugins are never swallowed: every one reaches the log sinks (and so the UI). */
  reportError(error: unknown, origin: ErrorOrigin): void {
    this.log({
      level: 'error',
      plugin: origin.plugin,
      message: `${origin.phase}: ${errorText(error)}`,
      time: Date.now(),
      detail: error instanceof Error ? error.stack : undefined
    })
  }

  onPluginState(sink: (change: PluginStateChange) => void): () => void {
    this.stateSinks.add(sink)
    return () => this.stateSinks.delete(sink)
  }

  notifyState(change: PluginStateChange): void {
    for (const sink of this.stateSinks) sink(change)
  }

  /** Dispose every plugin, innermost first. */
  dispose(): void {
    this.root.disposeChildren()
  }
}

/**
 * One level of a waterfall. A plain function (no per-dispatch closure but `next`), with the
 * common argument counts spelled out: this is the hot path every seam goes through.
 */
function runWaterfall(name: string, list: readonly Entry<AnyListener>[], input: unknown[], last: number, index: number): unknown {
  if (index === list.length) return (input[last] as () => unknown)()
  const entry = list[index]
  let called = false
  const next = () => {
    if (called) throw new KernelError(`a listener of "${name}" from plugin "${entry.owner}" called next() twice`)
    called = true
    return runWaterfall(name, list, input, last, index + 1)
  }
  const callback = entry.callback
  switch (last) {
    case 0:
      return callback(next)
    case 1:
      return callback(input[0], next)
    case 2:
      return callback(input[0], input[1], next)
    case 3:
      return callback(input[0], input[1], input[2], next)
    case 4:
      return callback(input[0], input[1], input[2], input[3], next)
    default:
      return callback(...input.slice(0, last), next)
  }
}

/** Told of a notification listener that failed, after the kernel logged it. */
export type ListenerFailure = (error: unknown, plugin: string) => void

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : JSON.stringify(error) ?? String(error)
}

export type { Entry }
