// HostApi over the Electron preload bridge. The connection is the window's own: always connected.
import type { MethodInput, MethodName, MethodOutput, PushName, PushPayload } from '../../src-shared/contract/ipc'
import type { SeamBridge } from './bridge'
import { createConnectionStore } from './connection'
import { unwrapReply } from './errors'
import type { ConnectedHost } from './types'

export function createIpcHost(bridge: SeamBridge): ConnectedHost {
  const connection = createConnectionStore('connected')
  return {
    transport: 'electron',
    connection,
    async invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      return unwrapReply(method, await bridge.invoke(method, input)) as MethodOutput<M>
    },
    on<P extends PushName>(push: P, listener: (payload: PushPayload<P>) => void): () => void {
      return bridge.on(push, (payload) => listener(payload as PushPayload<P>))
    },
    close() {
      connection.set('closed')
    }
  }
}
