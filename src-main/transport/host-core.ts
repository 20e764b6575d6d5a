// What both transports need from the Host: the router that answers contract calls, the hub
// that carries pushes, and the tracker that counts connected UIs. The Host (src-main/app)
// builds one; Electron IPC and the WebSocket server only ever see this interface.
import type { SecretCipher } from '../app/secrets'
import type { ConnectionTracker } from './connections'
import type { PushHub } from './push-hub'
import type { Router } from './router'

export type TransportKind = 'electron' | 'web'

export interface HostCore {
  readonly router: Router
  readonly pushes: PushHub
  readonly mode: TransportKind
  /** Connected UIs (windows or WebSocket clients); both transports update it. */
  readonly connections: ConnectionTracker
  /**
   * Absolute path of an installed bundle's client file, or null when `name` has no such file.
   * Serves `/plugins/<name>/<file>` (web) and `seam-plugin://<name>/<file>` (Electron).
   */
  resolvePluginFile?(name: string, file: string): string | null
}

/** Native services only the desktop shell can offer; the Host works without them. */
export interface HostPlatform {
  chooseDirectory?(): Promise<string | null>
  cipher?: SecretCipher
}
