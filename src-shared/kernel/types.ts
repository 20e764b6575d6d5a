// The kernel's open maps. Plugins extend them by declaration merging (S25):
//
//   declare module '../kernel/types' {
//     interface Events { 'tools/pre-execute': (call: SealedCall, next: Next<PreToolDecision>) => Promise<PreToolDecision> }
//     interface Services { tools: ToolRegistry }
//   }

/** Every event the host dispatches: name -> listener signature. Waterfall listeners take `next` last. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Events {}

/** Every service a plugin can provide or inject: name -> value type. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Services {}

/** Guard families: name -> the arguments a guard receives. A guard returns a deny reason or nothing. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Guards {}

export type EventName = keyof Events & string
export type ServiceName = keyof Services & string
export type GuardName = keyof Guards & string

// Any function signature; `never[]` parameters make every listener signature assignable to it.
type AnyFunction = (...args: never[]) => unknown

export type Listener<K extends EventName> = Events[K] extends AnyFunction ? Events[K] : never
export type ListenerArgs<K extends EventName> = Events[K] extends (...args: infer A) => unknown ? A : never

/** `next` passed to a waterfall listener: runs the rest of the chain (or the fallback) and returns its result. */
export type Next<R> = () => R

/** Arguments of a waterfall event without the trailing `next`. */
export type WaterfallArgs<K extends EventName> = ListenerArgs<K> extends [...infer A, Next<unknown>] ? A : never
export type WaterfallResult<K extends EventName> = Events[K] extends (...args: never[]) => infer R ? R : never

export type GuardArgs<K extends GuardName> = Extract<Guards[K], unknown[]>
export type GuardFn<K extends GuardName> = (...args: GuardArgs<K>) => string | undefined | void

export type Disposable = () => void

export interface ListenOptions {
  /** Run before every listener registered without `prepend` (later prepends run first). */
  prepend?: boolean
}

/** Where an error reported to the kernel came from, for the logger and the UI. */
export interface ErrorOrigin {
  plugin: string
  /** e.g. `emit tools/result`, `apply`, `effect`, `dispose`. */
  phase: string
}

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error'
  plugin: string
  message: string
  time: number
  /** Present for errors: the stack or the error's own text. */
  detail?: string
}
