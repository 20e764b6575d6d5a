// One applied plugin: its config, its state (waiting for services, active, failed, disposed)
// and the scope of everything it registered. Disposing the scope undoes all of it (S3, S24).
import type { z } from 'zod'
import { formatZodError } from '../validation'
import { Context } from './context'
import type { Kernel } from './kernel'
import type { OrderKey } from './registry'
import type { Disposable, ServiceName } from './types'

export interface PluginObject<C = unknown> {
  /** Unique enough to name the plugin in errors and in the plugin manager. */
  readonly name: string
  /** Validates (and may default) the config the plugin is applied with. */
  readonly schema?: z.ZodType<C, unknown>
  /** Services that must exist before `apply` runs; the plugin restarts when one is replaced or removed. */
  readonly inject?: readonly ServiceName[]
  apply(ctx: Context, config: C): void | Promise<void>
}

export type PluginFunction<C = unknown> = ((ctx: Context, config: C) => void | Promise<void>) & {
  readonly schema?: z.ZodType<C, unknown>
  readonly inject?: readonly ServiceName[]
}

export type Plugin<C = unknown> = PluginObject<C> | PluginFunction<C>

/** Identity helper that lets TypeScript infer the config type from the schema. */
export function definePlugin<C>(plugin: PluginObject<C>): PluginObject<C> {
  return plugin
}

export type PluginState = 'waiting' | 'active' | 'failed' | 'disposed'

export class PluginConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PluginConfigError'
  }
}

export class PluginRuntime {
  state: PluginState = 'waiting'
  error?: Error
  readonly name: string
  context!: Context
  private config: unknown
  private disposables: Disposable[] = []
  private readonly watches: Disposable[] = []
  private childCounter = 0
  private entryCounter = 0
  private generation = 0
  private readonly children = new Set<PluginRuntime>()
  /** Resolves after the current (or next) start attempt finishes, whatever its outcome. */
  ready: Promise<void> = Promise.resolve()

  private constructor(
    readonly kernel: Kernel,
    readonly plugin: Plugin<unknown> | undefined,
    readonly path: OrderKey,
    readonly parent: PluginRuntime | undefined
  ) {
    this.name = plugin ? pluginName(plugin) : 'root'
  }

  static root(kernel: Kernel): PluginRuntime {
    const runtime = new PluginRuntime(kernel, undefined, [], undefined)
    runtime.context = new Context(kernel, runtime)
    runtime.state = 'active'
    return runtime
  }

  /** Validates the config (throwing a PluginConfigError naming the plugin and field) and starts. */
  static create(parent: PluginRuntime, plugin: Plugin<unknown>, config: unknown): PluginRuntime {
    const runtime = new PluginRuntime(parent.kernel, plugin, [...parent.path, parent.childCounter++], parent)
    runtime.config = runtime.validate(config)
    parent.children.add(runtime)
    parent.disposables.push(() => runtime.dispose())
    for (const service of plugin.inject ?? []) {
      runtime.watches.push(parent.kernel.watchService(service, runtime))
    }
    runtime.start()
    return runtime
  }

  nextEntryKey(): OrderKey {
    return [...this.path, this.entryCounter++]
  }

  addDisposable(dispose: Disposable): Disposable {
    this.disposables.push(dispose)
    return () => {
      const at = this.disposables.indexOf(dispose)
      if (at >= 0) this.disposables.splice(at, 1)
      dispose()
    }
  }

  get missing(): string[] {
    return (this.plugin?.inject ?? []).filter((name) => !this.kernel.hasService(name))
  }

  /** Replace the config and restart; the old config stays when the new one is invalid (and this throws). */
  update(config: unknown): void {
    this.config = this.validate(config)
    this.restart()
  }

  restart(): void {
    if (this.state === 'disposed') return
    this.stop()
    this.start()
  }

  onServiceChanged(): void {
    if (this.state === 'disposed') return
    // Any change to an injected service (provided, replaced, removed) restarts the plugin;
    // it waits again when something it needs is now missing.
    this.restart()
  }

  dispose(): void {
    if (this.state === 'disposed') return
    this.stop()
    for (const unwatch of this.watches.splice(0)) unwatch()
    this.parent?.children.delete(this)
    this.setState('disposed')
  }

  disposeChildren(): void {
    for (const child of [...this.children].reverse()) child.dispose()
  }

  private validate(config: unknown): unknown {
    const schema = this.plugin?.schema
    if (!schema) return config
    const result = schema.safeParse(config)
    if (!result.success) throw new PluginConfigError(formatZodError(`plugin "${this.name}" config`, result.error))
    return result.data
  }

  private start(): void {
    const plugin = this.plugin
    if (!plugin) return
    const generation = ++this.generation
    if (this.missing.length > 0) {
      this.setState('waiting')
      return
    }
    this.childCounter = 0
    this.entryCounter = 0
    this.error = undefined
    this.context = new Context(this.kernel, this)
    this.setState('active')
    try {
      const result = typeof plugin === 'function' ? plugin(this.context, this.config) : plugin.apply(this.context, this.config)
      if (result instanceof Promise) {
        this.ready = result.then(
          () => undefined,
          (error: unknown) => {
            if (generation === this.generation) this.fail(error)
          }
        )
      }
    } catch (error) {
      this.fail(error)
    }
  }

  private fail(error: unknown): void {
    this.stop()
    this.error = error instanceof Error ? error : new Error(String(error))
    this.kernel.reportError(error, { plugin: this.name, phase: 'apply' })
    this.setState('failed')
  }

  /** Undo everything the plugin registered, innermost (latest) first. */
  private stop(): void {
    this.generation++
    const disposables = this.disposables.splice(0)
    for (let i = disposables.length - 1; i >= 0; i--) {
      try {
        disposables[i]()
      } catch (error) {
        this.kernel.reportError(error, { plugin: this.name, phase: 'dispose' })
      }
    }
    this.children.clear()
  }

  private setState(state: PluginState): void {
    this.state = state
    this.kernel.notifyState({ plugin: this.name, path: this.path, state, error: this.error?.message, missing: this.missing })
  }
}

export function pluginName(plugin: Plugin<unknown>): string {
  return (typeof plugin === 'function' ? plugin.name : plugin.name) || 'anonymous'
}
