// What discovery produces: handlers in Codex's display order, what was skipped and why, and the
// warnings Seam shows where Codex would stay silent.
import type { CodexHookEvent } from '../hook-protocol'

export type LayerScope = 'user' | 'project'

export interface CodexHandler {
  event: CodexHookEvent
  /** As configured; `undefined` matches everything. */
  matcher?: string
  command: string
  timeoutSec: number
  /** Fire-and-forget: the decision is ignored, additionalContext arrives later (spec §6). */
  async: boolean
  statusMessage?: string
  /** Absolute path of the hooks.json or config.toml that declared it. */
  sourceFile: string
  scope: LayerScope
  /** Codex's per-handler key: `<file>:<event_snake_case>:<group index>:<handler index>`. */
  key: string
  /** Position among every handler discovered for the working directory (Codex's displayOrder). */
  order: number
}

export interface SkippedHandler {
  handler: CodexHandler
  /** untrusted: the workspace is not trusted; unapproved: new or changed since the user approved its hooks. */
  why: 'untrusted' | 'unapproved' | 'disabled'
}

export interface LoadedHooks {
  /** Handlers that run, in display order. */
  handlers: CodexHandler[]
  skipped: SkippedHandler[]
  /** Problems in the files, each naming the file (shown to the user). */
  warnings: string[]
  /** Hooks on events Seam does not fire (loaded, never run). */
  unmapped: Array<{ event: string; files: string[] }>
  /** Set when `features.hooks = false` turned every hook off: the file that did it. */
  disabledBy?: string
  /** Every file looked at, existing or not (watched for edits). */
  files: string[]
}
