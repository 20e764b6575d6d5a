// The `workspace` and `rpc` services the Host provides to plugins (src-main/app/plugin-host.ts
// implements them). Declared here, beside the other services, so the plugin SDK exports the
// host's own definition.
import type { Context } from '../kernel/context'
import type { Disposable } from '../kernel/types'

/** One thing the trust dialog lists, e.g. a hook command a workspace file declares. */
export interface TrustItem {
  source: string
  file: string
  event: string
  command: string
}

/** What plugins learn about the workspace. Replaced (so dependents restart) when trust changes. */
export interface WorkspaceService {
  readonly root: string | null
  readonly trusted: boolean
  readonly seamHome: string
  /** Items the trust dialog lists (e.g. hook commands declared in the workspace). */
  contributeTrustItems(ctx: Context, items: (workspace: string) => TrustItem[]): Disposable
}

/** RPC from a client plugin to its own host part: methods are namespaced by plugin name. */
export interface RpcService {
  register(ctx: Context, method: string, handler: (input: unknown) => unknown): Disposable
}

declare module '../kernel/types' {
  interface Services {
    workspace: WorkspaceService
    rpc: RpcService
  }
}
