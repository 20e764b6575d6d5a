// A plugin's view of the kernel. Dispatch goes to the shared kernel; every registration made
// through a context belongs to its plugin and is undone when that plugin is disposed (S3, S24).
import type { Kernel } from './kernel'
import { PluginRuntime, type Plugin } from './runtime'
import type {
  Disposable,
  EventName,
  GuardFn,
  GuardName,
  Listener,
  ListenerArgs,
  ListenOptions,
  LogRecord,
  ServiceName,
  Services,
  WaterfallArgs,
  WaterfallResult,
  GuardArgs
} from './types'

type AnyListener = (...args: unknown[]) => unknown
type AnyGuard = (...args: unknown[]) => string | undefined | void

export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string, error?: unknown): void
}

export class Context {
  readonly logger: Logger

  constructor(
    readonly kernel: Kernel,
    readonly runtime: PluginRuntime
  ) {
    const log = (level: LogRecord['level'], message: string, detail?: string) =>
      kernel.log({ level, plugin: runtime.name, message, time: Date.now(), detail })
    this.logger = {
      debug: (m) => log('debug', m),
      info: (m) => log('info', m),
      warn: (m) => log('warn', m),
      error: (m, error) => log('error', m, error instanceof Error ? error.stack : error === undefined ? undefined : String(error))
    }
  }

  get name(): string {
    return this.runtime.name
  }

  // ---- listeners ---------------------------------------------------------------------------

  on<K extends EventName>(name: K, listener: Listener<K>, options?: ListenOptions): Disposable {
    const remove = this.kernel.listeners.add(name, {
      callback: listener as unknown as AnyListener,
      key: this.runtime.nextEntryKey(),
      prepend: options?.prepend ?? false,
      owner: this.runtime.name
    })
    return this.runtime.addDisposable(remove)
  }

  emit<K extends EventName>(name: K, ...args: ListenerArgs<K>): void {
    this.kernel.emit(name, ...args)
  }

  parallel<K extends EventName>(name: K, ...args: ListenerArgs<K>): Promise<void> {
    return this.kernel.parallel(name, ...args)
  }

  serial<K extends EventName>(name: K, ...args: ListenerArgs<K>): Promise<Awaited<WaterfallResult<K>> | undefined> {
    return this.kernel.serial(name, ...args)
  }

  waterfall<K extends EventName>(name: K, ...input: [...WaterfallArgs<K>, () => WaterfallResult<K>]): WaterfallResult<K> {
    return this.kernel.waterfall(name, ...input)
  }

  // ---- guards ------------------------------------------------------------------------------

  guard<K extends GuardName>(family: K, guard: GuardFn<K>): Disposable {
    const remove = this.kernel.guards.add(family, {
      callback: guard as unknown as AnyGuard,
      key: this.runtime.nextEntryKey(),
      prepend: false,
      owner: this.runtime.name
    })
    return this.runtime.addDisposable(remove)
  }

  checkGuards<K extends GuardName>(family: K, ...args: GuardArgs<K>): string | undefined {
    return this.kernel.checkGuards(family, ...args)
  }

  // ---- services ----------------------------------------------------------------------------

  /** Provide a service for as long as this plugin lives; dependents start or restart. */
  provide<K extends ServiceName>(name: K, value: Services[K]): Disposable {
    return this.runtime.addDisposable(this.kernel.provideService(name, value, this.runtime))
  }

  /** An injected service (declared in `inject`, so it exists while the plugin is active), or throws. */
  get<K extends ServiceName>(name: K): Services[K] {
    const value = this.kernel.getService(name)
    if (value === undefined) throw new Error(`plugin "${this.name}": service "${name}" is not available (declare it in inject)`)
    return value
  }

  /** An optional service, or undefined. */
  maybe<K extends ServiceName>(name: K): Services[K] | undefined {
    return this.kernel.getService(name)
  }

  // ---- lifetime ----------------------------------------------------------------------------

  /** Run `setup` now; the disposer it returns runs when the plugin is disposed or restarted. */
  effect(setup: () => Disposable | void): Disposable {
    const dispose = setup()
    return this.runtime.addDisposable(dispose ?? (() => {}))
  }

  onDispose(dispose: Disposable): Disposable {
    return this.runtime.addDisposable(dispose)
  }

  /** Apply a child plugin; it is disposed with this one. Throws PluginConfigError on bad config. */
  plugin<C>(plugin: Plugin<C>, config?: unknown): PluginRuntime {
    return PluginRuntime.create(this.runtime, plugin as Plugin<unknown>, config)
  }
}

/**
 * Adds a typed accessor to every context (Cordis' mixins without proxies). The getter receives
 * the calling plugin's context, so what it returns can register things in that plugin's scope.
 * Declare the property with `declare module '.../kernel/context' { interface Context { tools: ... } }`.
 */
export function defineContextProperty<K extends string>(name: K, getter: (ctx: Context) => unknown): void {
  Object.defineProperty(Context.prototype, name, {
    configurable: true,
    get(this: Context) {
      return getter(this)
    }
  })
}
