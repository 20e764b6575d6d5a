// The normalized answer of one hook handler, whatever protocol it spoke. Parsers fill only the
// fields that take effect under their protocol's rules, so a consumer never re-checks the rules:
// a field present here is a field the upstream CLI would have acted on.
import type { HookFailureKind, HookOutcomeKind, HookPermissionDecision } from '@seam/sdk'
import type { CommandHookResult } from './runner'
import type { HttpHookResult } from './http-runner'
import type { RuleUpdate } from './permission-updates'

export type { HookFailureKind, HookOutcomeKind, HookPermissionDecision }

/** What a parser receives: the raw result of a command or http handler. */
export type HookExecution = CommandHookResult | HttpHookResult

export interface HookOutcome {
  /**
   * `ok`: the hook answered (possibly with nothing). `block`: the event's blocking path was taken
   * (exit 2, `decision: "block"`, a permission `deny`). `error`: non-blocking failure; Claude
   * still honours JSON on stdout of a non-zero exit, so an `error` may carry effect fields.
   */
  kind: HookOutcomeKind
  /** Permission events only (PreToolUse, PermissionRequest): a block there is always `deny`. */
  decision?: HookPermissionDecision
  /** Text of a block or deny (exit-2 stderr, `reason`, `permissionDecisionReason`, `message`); for ask/allow their reason. */
  reason?: string
  /** PreToolUse/PermissionRequest: replaces the whole tool input. */
  updatedInput?: Record<string, unknown>
  /** JSON `additionalContext`: model-visible context. */
  additionalContext?: string
  /** Plain (non-JSON) stdout used as context: Claude and Codex UserPromptSubmit and SessionStart. */
  plainStdoutContext?: string
  /** Shown to the user only, never to the model. */
  systemMessage?: string
  /** `false` when the hook asked to stop (`continue: false`). Absent means no opinion. */
  continue?: boolean
  stopReason?: string
  suppressOutput?: boolean
  /** Claude PostToolUse `updatedMCPToolOutput`: replaces an MCP tool's output. */
  updatedToolOutput?: unknown
  /** Claude PermissionRequest deny with `interrupt: true`. */
  interrupt?: boolean
  /** Claude PermissionRequest allow: its `updatedPermissions`, every entry and rule checked. */
  updatedPermissions?: RuleUpdate[]
  /** Claude: the validated `hookSpecificOutput` object, for event-specific fields not normalized above (sessionTitle, watchPaths, ...). */
  hookSpecificOutput?: Record<string, unknown>
  /** Set for `error` outcomes, and for an `error` turned into a block by a failure policy. */
  failureKind?: HookFailureKind
  /** Human-readable detail for `failureKind`; names the offending field for invalid output. */
  errorMessage?: string
}

/** What the handler's `onFailure` asks for: Claude's `continue` (default) or `block`. */
export type HookFailurePolicy = 'continue' | 'block'

/**
 * `onFailure: "block"`: an `error` outcome becomes a block (a deny on permission events), with
 * Claude's wording (`failed; blocking because onFailure is "block"` + stderr, or `timed out; …`).
 * Other outcomes pass through unchanged.
 */
export function applyFailurePolicy(outcome: HookOutcome, policy: HookFailurePolicy, isPermissionEvent: boolean, stderr = ''): HookOutcome {
  if (policy !== 'block' || outcome.kind !== 'error') return outcome
  const what = outcome.failureKind === 'timeout' ? 'timed out' : 'failed'
  const detail = stderr.trim()
  const reason = `${what}; blocking because onFailure is "block"${detail ? `\n${detail}` : ''}`
  const blocked: HookOutcome = { kind: 'block', reason, failureKind: outcome.failureKind, errorMessage: outcome.errorMessage }
  if (isPermissionEvent) blocked.decision = 'deny'
  return blocked
}

/** An error outcome with no effect fields. */
export function failed(failureKind: HookFailureKind, errorMessage: string): HookOutcome {
  return { kind: 'error', failureKind, errorMessage }
}
