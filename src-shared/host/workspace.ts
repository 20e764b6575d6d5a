// The `workspace` and `rpc` services the Host provides to plugins, and the trust items plugins
// contribute (src-main/app/plugin-host.ts and src-main/security/trust-pins.ts implement them).
// Declared here, beside the other services, so the plugin SDK exports the host's own definition.
import type { Context } from '../kernel/context'
import type { Disposable } from '../kernel/types'

/** One thing a workspace declares that runs with the user's rights once trusted. */
export interface TrustItem {
  /** Who declares such items, as the dialog names them ("Claude Code hooks", "Codex hooks", ...). */
  source: string
  /** The file that declares it (absolute). */
  file: string
  /** Where it hooks in (an event name, "MCP server", "command"). */
  event: string
  /** The text that runs: what the hash covers and the dialog shows. */
  command: string
  /** Narrows where it runs (a hook matcher); part of the hash. */
  matcher?: string
  /** The whole definition when it says more than `command` (timeout, async, conditions); hashed, not shown. */
  content?: string
}

/**
 * What plugins learn about the workspace. Replaced (so dependents restart) when trust or the
 * set of approved items changes.
 */
export interface WorkspaceService {
  readonly root: string | null
  readonly trusted: boolean
  readonly seamHome: string
  /** Items the trust dialog lists (e.g. hook commands declared in the workspace); any plugin may register its kind. */
  contributeTrustItems(ctx: Context, items: (workspace: string) => TrustItem[]): Disposable
  /**
   * Whether `item`, declared in the workspace, may run: the workspace is trusted and this exact
   * content was approved (a new or changed item is not, until the user approves it).
   */
  isApproved(item: TrustItem): boolean
  /** A plugin re-read its files: the host re-counts unapproved items for the UI's badge. */
  itemsChanged(): void
  /**
   * Approves items Seam itself is about to write on the user's explicit word (an "Always allow"
   * rule saved to `.claude/settings.local.json`), so trust pinning does not treat them as an
   * unreviewed change. Only in a trusted workspace; they apply as soon as the file is re-read.
   */
  approveItems(items: readonly TrustItem[]): void
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
