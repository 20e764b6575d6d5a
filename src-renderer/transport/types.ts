import type { HostApi } from '../../src-shared/contract/ipc'
import type { ConnectionStatus } from './connection'

/** HostApi plus what the shell shows about the link itself; components use only HostApi. */
export interface ConnectedHost extends HostApi {
  readonly connection: ConnectionStatus
  /** Stops the transport (tests, page unload); pending calls reject with CLOSED. */
  close(): void
}
