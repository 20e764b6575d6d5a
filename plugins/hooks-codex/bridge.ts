// What the stage listeners share: the loaded hooks (per working directory, kept current), the
// runner with its concurrency cap, the session registry, and Seam's workspace trust.
import path from 'node:path'
import { claudePermissionMode, sharedHookLimiter, type ClaudePermissionMode } from '../hook-protocol'
import type {} from '../permission-policy/index'
import type { Context } from '@seam/sdk'
import type { TrustItem, WorkspaceService } from '@seam/sdk'
import { defaultKeyGuard } from '@seam/sdk/node'
import { HookCatalog } from './catalog'
import type { CodexHooksConfig } from './config'
import { defaultCodexHome, isWithin, projectCommands, TRUST_SOURCE } from './discovery'
import { noticesFor } from './notices'
import { CodexHookRunner } from './run'
import { sessionRegistry, type SessionRegistry, type SessionState } from './sessions'
import type { LoadedHooks } from './types'

export { TRUST_SOURCE }

export class CodexBridge {
  readonly codexHome: string
  readonly runner: CodexHookRunner
  readonly sessions: SessionRegistry
  private readonly catalog: HookCatalog
  private readonly disposal = new AbortController()

  constructor(
    readonly ctx: Context,
    readonly config: CodexHooksConfig,
    private readonly workspace: WorkspaceService
  ) {
    this.codexHome = defaultCodexHome(config.codexHome)
    this.catalog = new HookCatalog(ctx.logger, { watch: true })
    this.runner = new CodexHookRunner(sharedHookLimiter(ctx.kernel, config.concurrency), ctx.logger, this.disposal.signal, () => ctx.maybe('keys') ?? defaultKeyGuard)
    this.sessions = sessionRegistry(ctx.kernel)
  }

  /** The approval mode in force (for the session, when it has its own), in Codex's `permission_mode` values, read per event. */
  permissionMode(sessionId?: string): ClaudePermissionMode {
    const policy = this.ctx.maybe('permissionPolicy')
    return policy ? claudePermissionMode(policy.inForce(sessionId).mode.mode) : this.config.permissionMode
  }

  /** Project hooks run only in a workspace the user trusts (Seam's trust, not Codex's hashes). */
  isTrusted(dir: string): boolean {
    const root = this.workspace.root
    return this.workspace.trusted && root !== null && isWithin(path.resolve(dir), path.resolve(root))
  }

  /** The hooks for a session's working directory; new notices about them go to the session once. */
  hooksFor(state: SessionState | undefined, cwd: string): LoadedHooks {
    const workspaceDir = state?.agent.workspace ?? this.workspace.root ?? cwd
    const loaded = this.catalog.get({
      codexHome: this.codexHome,
      workspace: workspaceDir,
      cwd,
      trusted: this.isTrusted(workspaceDir),
      approved: (item) => this.workspace.isApproved(item),
      defaultTimeoutSec: this.config.defaultTimeoutSec
    })
    if (state) {
      for (const notice of noticesFor(loaded)) {
        if (state.shown.has(notice.text)) continue
        state.shown.add(notice.text)
        this.runner.notify({ state, cwd }, notice.level, notice.text)
      }
    }
    return loaded
  }

  /** For the trust dialog: every command the workspace's `.codex/` folders declare. */
  trustItems(workspaceDir: string): TrustItem[] {
    return projectCommands(this.codexHome, workspaceDir, this.config.defaultTimeoutSec)
  }

  dispose(): void {
    this.disposal.abort(new Error('the Codex hooks bridge was disposed'))
    this.catalog.dispose()
  }
}
