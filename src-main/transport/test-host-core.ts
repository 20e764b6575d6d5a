// A HostCore with a tiny handler set, for transport tests: the real router, push hub and
// connection tracker, with handlers that echo instead of a full Host behind them.
import { Methods, type MethodName } from '../../src-shared/contract/ipc'
import { ConnectionTracker } from './connections'
import type { HostCore, TransportKind } from './host-core'
import { createRouter, PushHub, type CallerInfo, type Handlers } from './router'

export interface TestHostCore extends HostCore {
  readonly pushes: PushHub
  readonly connections: ConnectionTracker
  /** Every call the handlers saw, in order. */
  readonly calls: Array<{ method: MethodName; input: unknown; caller: CallerInfo }>
}

export function createTestHostCore(mode: TransportKind = 'web', overrides: Partial<Handlers> = {}): TestHostCore {
  const calls: TestHostCore['calls'] = []
  const handlers: Record<string, (input: unknown, caller: CallerInfo) => Promise<unknown>> = {}
  for (const method of Object.keys(Methods) as MethodName[]) {
    handlers[method] = async (input, caller) => {
      calls.push({ method, input, caller })
      throw Object.assign(new Error(`${method} is not part of the test host`), { code: 'UNSUPPORTED' })
    }
  }
  const echo: Partial<Handlers> = {
    'workspace/set': async (input, caller) => {
      calls.push({ method: 'workspace/set', input, caller })
      return { path: input.path }
    },
    'sessions/rename': async (input, caller) => {
      calls.push({ method: 'sessions/rename', input, caller })
      // Holds the reply when the title asks for it, so tests can race replies.
      const delay = /^slow:(\d+)$/.exec(input.title)
      if (delay) await new Promise((resolve) => setTimeout(resolve, Number(delay[1])))
      return { ok: true as const }
    }
  }
  const all = { ...(handlers as unknown as Handlers), ...echo, ...overrides }
  return {
    router: createRouter(all, { log: () => {} }),
    pushes: new PushHub(() => {}),
    connections: new ConnectionTracker(),
    mode,
    calls
  }
}
