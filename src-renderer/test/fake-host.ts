// An in-memory HostApi for UI unit tests: inputs are checked against the contract's schemas,
// handlers are plain functions per method, pushes are emitted by the test. (The end-to-end tests
// run the real host.)
import { Methods, type HostApi, type MethodInput, type MethodName, type MethodOutput, type PushName, type PushPayload } from '../../src-shared/contract/ipc'

export type FakeHandlers = { [M in MethodName]?: (input: MethodInput<M>) => MethodOutput<M> | Promise<MethodOutput<M>> }

export class FakeHost implements HostApi {
  readonly transport: 'electron' | 'web' = 'web'
  readonly calls: Array<{ method: MethodName; input: unknown }> = []
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>()

  constructor(public handlers: FakeHandlers = {}) {}

  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
    this.calls.push({ method, input })
    const parsed = Methods[method].input.safeParse(input)
    if (!parsed.success) {
      // As the real router answers: the code, and the first failing field.
      const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '(root)'
      return Promise.reject(Object.assign(new Error(`${method}: invalid input ${parsed.error.message}`), { code: 'INVALID_INPUT', field }))
    }
    const handler = this.handlers[method] as ((input: MethodInput<M>) => MethodOutput<M> | Promise<MethodOutput<M>>) | undefined
    if (!handler) return Promise.reject(Object.assign(new Error(`${method} is not handled by this fake host`), { code: 'UNSUPPORTED' }))
    return Promise.resolve().then(() => handler(input))
  }

  on<P extends PushName>(push: P, listener: (payload: PushPayload<P>) => void): () => void {
    let set = this.listeners.get(push)
    if (!set) this.listeners.set(push, (set = new Set()))
    const entry = listener as (payload: unknown) => void
    set.add(entry)
    return () => set.delete(entry)
  }

  emit<P extends PushName>(push: P, payload: PushPayload<P>): void {
    for (const listener of [...(this.listeners.get(push) ?? [])]) listener(payload)
  }

  callsOf<M extends MethodName>(method: M): Array<MethodInput<M>> {
    return this.calls.filter((c) => c.method === method).map((c) => c.input as MethodInput<M>)
  }

  listenerCount(push: PushName): number {
    return this.listeners.get(push)?.size ?? 0
  }
}
