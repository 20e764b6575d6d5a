// The tool seams' types (spec/seams.md S9-S19). The registry lives in src-main/tools; plugins
// and bridges see only these types.
import type { z } from 'zod'
import type { Next } from '../kernel/types'
import type { SubagentIdentity } from './extensions'

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }

/** Stable codes of failed results (S16). Open union: plugins add codes by merging this map. */
export interface ToolErrorCodes {
  TOOL_THREW: true
  UNKNOWN_TOOL: true
  INVALID_ARGS: true
  DENIED: true
  TIMEOUT: true
  BLOCKED: true
  CANCELLED: true
  INVALID_RESULT: true
  LISTENER_THREW: true
  INVALID_IDENTITY: true
}
export type ToolErrorCode = keyof ToolErrorCodes

/** What a tool body returns. `structured` keeps Claude Code's result fields where it has them. */
export interface ToolOutput {
  content: string
  isError?: boolean
  structured?: unknown
}

/** The authoritative, JSON-safe result of a call, as the model, the log and observers see it. */
export interface ToolResult {
  content: string
  isError: boolean
  code?: ToolErrorCode
  structured?: JsonValue
}

/** Live output from a running tool (e.g. Bash's stdout), pushed to the UI, never to the model. */
export interface ToolProgress {
  stream: 'stdout' | 'stderr' | 'info'
  text: string
}

/** What a tool body gets besides its arguments. */
export interface ToolExec {
  readonly signal: AbortSignal
  readonly token: string
  readonly parent?: string
  /** The session's working directory. */
  readonly cwd: string
  readonly sessionId: string
  /** Extra environment for processes the tool spawns (e.g. exports from CLAUDE_ENV_FILE). */
  readonly env: Readonly<Record<string, string>>
  progress(update: ToolProgress): void
  /**
   * Moves the session's working directory for later calls (Bash after `cd`, as in Claude Code).
   * Returns the directory the session continues in: a directory outside the workspace is refused
   * and the session goes back to the workspace root. Absent where nothing keeps a session cwd.
   */
  moveCwd?(dir: string): string
}

export interface ToolDefinition<A = Record<string, unknown>> {
  readonly name: string
  readonly description: string
  readonly inputSchema: z.ZodType<A>
  /**
   * The JSON Schema the model sees, for tools that come with one of their own (an MCP server's
   * tools). Without it the model sees the JSON Schema of `inputSchema`; either way `inputSchema`
   * validates the arguments.
   */
  readonly modelInputSchema?: JsonObject
  execute(args: A, exec: ToolExec): ToolOutput | Promise<ToolOutput>
  /** Other names a call may use (a tool's old name, e.g. `Task` for `Agent`); only `name` is on the model's list. */
  readonly aliases?: readonly string[]
  /** Deadline enforced by the tool-timeout wrapper; a per-call `timeout` arg may override it where the tool says so. */
  readonly timeoutMs?: number
  /**
   * The tool ends its own run at its deadline (Bash moves the command to the background then): the
   * tool-timeout wrapper's deadline becomes a backstop some slack after it, so it does not race it.
   */
  readonly endsAtOwnDeadline?: boolean
  /** Whether calls may overlap with other calls of the same step (S19). */
  readonly concurrent?: boolean
  /** Changes the world (files, processes): the approval mode "ask before side effects" asks for it. */
  readonly sideEffects?: boolean
  /**
   * The absolute paths of the files a call with these arguments changes. Seam checkpoints each one
   * before the call runs, so the change can be reverted or rewound (Write and Edit declare it).
   */
  changedFiles?(args: A, cwd: string): string[]
}

/** A call as the model (or a nested caller) asked for it, before rewrite and sealing. */
export interface ToolCallRequest {
  name: string
  args: unknown
  /** The model's id for the call; echoed in the tool result message. */
  callId: string
  sessionId: string
  turnId?: string
  /** Token of the calling tool for nested calls (S9). */
  parent?: string
  /** The subagent whose loop makes this call (hook input's `agent_id`, `agent_type`). */
  agent?: SubagentIdentity
  signal?: AbortSignal
  cwd: string
  env?: Record<string, string>
  progress?: (update: ToolProgress) => void
  /** Handed to the tool as `exec.moveCwd` (see ToolExec). */
  moveCwd?: (dir: string) => string
}

/** Identity sealed before any policy runs (S9): frozen, JSON-only, never changes afterwards. */
export interface SealedCall {
  readonly name: string
  readonly args: Readonly<JsonObject>
  readonly token: string
  readonly parent?: string
  /** The subagent whose loop made the call; absent for the main agent's own calls. */
  readonly agent?: Readonly<SubagentIdentity>
  readonly callId: string
  readonly sessionId: string
  readonly turnId?: string
  readonly cwd: string
  /** Present when the input-rewrite stage changed the arguments (S18): what the model asked for. */
  readonly originalArgs?: Readonly<JsonObject>
  readonly rewrittenBy?: string
}

/** S18: a call before sealing, as the rewrite stage sees it. */
export interface UnsealedCall {
  readonly name: string
  readonly args: Readonly<JsonObject>
  readonly callId: string
  readonly sessionId: string
  readonly cwd: string
  /** The subagent whose loop makes the call (as `SealedCall.agent`). */
  readonly agent?: Readonly<SubagentIdentity>
}

/**
 * S18. `invalidText`, when given, is how the model's text begins when the rewritten args fail the
 * tool's schema (`<invalidText>: <field>: <problem>`), so bridges keep upstream wording.
 */
export type RewriteDecision = { action: 'keep' } | { action: 'rewrite'; args: JsonObject; by: string; reason?: string; invalidText?: string }

/**
 * S10. `modelText`, when given, is the exact text the model reads for a deny (bridges keep upstream
 * wording). `answersAsk` marks an allow that answers the permission policy's default ask (its
 * approval mode), as a Claude Code PreToolUse `allow` skips the permission prompt; explicit deny
 * and ask rules still win over it (claude-code-hooks.md §5.1).
 */
export type PreToolDecision =
  | { action: 'allow'; reason?: string; by?: string; answersAsk?: boolean }
  | { action: 'deny'; reason: string; by?: string; modelText?: string }
  | { action: 'ask'; reason: string; by?: string }

/** S14. `content` replaces the result the model sees; `feedback` on block is appended for the model. */
export type PostToolDecision =
  | { action: 'accept'; content?: string; additionalContext?: string[] }
  | { action: 'block'; feedback: string; content?: string; additionalContext?: string[] }

/** How the pre-execute, approval and guard stages decided a call. */
export interface CallVerdict {
  outcome: 'allowed' | 'denied'
  /** Which stage decided: pre-execute policy, approval dialog, a guard, or the rewrite validation. */
  stage: 'pre-execute' | 'approval' | 'guard' | 'rewrite' | 'seal'
  reason?: string
  by?: string
  approval?: ApprovalOutcome
}

/** S13: a wrapper may add, replace or remove the signal before `next()`, nothing else. */
export interface ExecControl {
  signal: AbortSignal
}

/** What ToolRegistry.execute() resolves to (never rejects, S16). */
export interface ToolExecutionResult {
  call: SealedCall
  result: ToolResult
  verdict: CallVerdict
  /** S17: buffered by the loop and appended after all of the step's results. */
  additionalContext: string[]
  durationMs: number
}

// ---- approval (S11) ------------------------------------------------------------------------

/**
 * `allowed-session`: the call runs and its rules are kept for the session; `allowed-always`: they
 * are also saved to a settings file (the workspace's `.claude/settings.local.json`, or the user's).
 */
export type ApprovalOutcome = 'allowed-once' | 'allowed-session' | 'allowed-always' | 'denied' | 'cancelled' | 'unavailable'

/**
 * What "Allow for this session" and "Always allow" grant, as the dialog shows it: Claude Code
 * permission rules generalised from the call (`Bash(npm test:*)`, `Edit(/src/**)`), or, for a
 * scope without rules, the tool and an argument pattern.
 */
export interface GrantScope {
  tool: string
  /** Argument name -> exact value or a trailing-`*` prefix pattern, e.g. { command: 'git status' }. */
  pattern: Record<string, string>
  /** The scope in words, as the dialog shows it. */
  description: string
  /** Claude Code permission rules; when present, a later call is covered when one of them matches it. */
  rules?: string[]
  /** The workspace root `/x` rules are relative to. */
  projectDir?: string
}

/** Where saved rules go, in Claude Code's names: the session only, or a settings file. */
export type RuleDestination = 'session' | 'localSettings' | 'projectSettings' | 'userSettings'

/**
 * Rules to add (Claude Code's `addRules` permission update: the default when `type` is absent),
 * to remove (`removeRules`), or to put in place of every rule of that behavior at the destination
 * (`replaceRules`).
 */
export interface PermissionRuleUpdate {
  type?: 'addRules' | 'removeRules' | 'replaceRules'
  behavior: 'allow' | 'deny' | 'ask'
  /** Claude Code rule texts (`Bash(npm test:*)`), already checked by whoever made the update. */
  rules: string[]
  destination: RuleDestination
}

/** Claude Code's permission modes, as settings files and hooks name them. */
export type ClaudeCodePermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions' | 'dontAsk'

/** Claude Code's `setMode` permission update: the session's mode, or a settings file's `defaultMode`. */
export interface PermissionModeUpdate {
  type: 'setMode'
  mode: ClaudeCodePermissionMode
  destination: RuleDestination
}

/** Claude Code's `addDirectories` / `removeDirectories`: folders the tools may work in beyond the workspace. */
export interface PermissionDirectoriesUpdate {
  type: 'addDirectories' | 'removeDirectories'
  /** Absolute paths, or relative to the session's working directory. */
  directories: string[]
  destination: RuleDestination
}

/** One of Claude Code's permission updates (a PermissionRequest hook's `updatedPermissions`). */
export type PermissionUpdate = PermissionRuleUpdate | PermissionModeUpdate | PermissionDirectoriesUpdate

export interface ApprovalRequest {
  id: string
  sessionId: string
  tool: string
  args: Readonly<JsonObject>
  token: string
  reason: string
  /** The grant "Allow for this session" would create. */
  scope: GrantScope
  signal: AbortSignal
  /** The folder the call runs in (relative paths resolve against it). */
  cwd?: string
  /** Who asked: the rule's or hook's plugin (e.g. `permission-policy`, a hook bridge). */
  askedBy?: string
  /** The subagent whose call this is (absent: the session's own agent): every answerer names it. */
  agent?: SubagentIdentity
}

export interface ApprovalAnswer {
  outcome: ApprovalOutcome
  /** Optional note from the user; it reaches the model with a deny. */
  note?: string
  /** Who answered (desktop dialog, cli, acp...). */
  by?: string
  /** For `allowed-always`: the workspace's local settings (default) or the user's settings. */
  saveTo?: 'workspace' | 'user'
}

/** A call the permission policy asks about, before the user is asked (Claude Code's PermissionRequest). */
export interface PermissionAsk {
  call: SealedCall
  /** Why it asks. */
  reason: string
  askedBy?: string
  /** The rules "always allow" would save (Claude Code's `permission_suggestions`). */
  suggestions: readonly string[]
}

/**
 * `ask`: nobody decided, the user is asked. `allow`: the call runs (with `updatedArgs` in place of
 * its arguments, validated against the tool's schema; `invalidText` heads the error when they do
 * not validate) and `updatedPermissions` are saved. `deny`: refused with `reason`.
 */
export type PermissionRequestDecision =
  | { action: 'ask' }
  | { action: 'allow'; by: string; reason?: string; updatedArgs?: Readonly<JsonObject>; invalidText?: string; updatedPermissions?: PermissionUpdate[] }
  | { action: 'deny'; by: string; reason: string }

export interface SessionGrant extends GrantScope {
  id: string
  sessionId: string
  createdAt: number
}

declare module '../kernel/types' {
  interface Events {
    /** S18: before sealing; the first listener that rewrites wins unless an outer one overrides. */
    'tools/input-rewrite': (call: UnsealedCall, next: Next<Promise<RewriteDecision>>) => Promise<RewriteDecision>
    /** S10 */
    'tools/pre-execute': (call: SealedCall, next: Next<Promise<PreToolDecision>>) => Promise<PreToolDecision>
    /** S13: innermost is the core dispatch. */
    'tools/execute': (call: SealedCall, control: ExecControl, next: Next<Promise<ToolResult>>) => Promise<ToolResult>
    /** S14: sees a frozen snapshot of the result and how the call was decided. */
    'tools/post-execute': (
      call: SealedCall,
      result: Readonly<ToolResult>,
      verdict: Readonly<CallVerdict>,
      next: Next<Promise<PostToolDecision>>
    ) => Promise<PostToolDecision>
    /** S15: synchronous sealed notification; cannot change what execute() returns. */
    'tools/result': (call: SealedCall, result: Readonly<ToolResult>, verdict: Readonly<CallVerdict>) => void
    /**
     * Before the user is asked (S11): a waterfall that may answer the ask itself (Claude Code's
     * PermissionRequest hooks). Fired only for calls an agent turn stands behind, after the
     * session's grants, and only when the pre-execute answer was `ask`.
     */
    'tools/permission-request': (ask: PermissionAsk, next: Next<Promise<PermissionRequestDecision>>) => Promise<PermissionRequestDecision>
    /** Answerers of the approval seam (S11): the first defined answer wins. */
    'approval/request': (request: ApprovalRequest) => Promise<ApprovalAnswer | undefined>
    /** A pending request was settled (answered elsewhere, cancelled, aborted): answerers close their UI. */
    'approval/settled': (requestId: string, answer: ApprovalAnswer) => void
  }
  interface Guards {
    /** S12: deny-only, synchronous, after the whole pre-execute waterfall. */
    tools: [call: SealedCall]
    /**
     * Deny-only, synchronous: a reason takes the tool off the model's tool list, and a call to it
     * is refused as unavailable before any other stage (a Claude Code bare `permissions.deny`
     * rule such as `Bash` disables the tool: claude-code-hooks.md §6 PreToolUse). `sessionId`
     * names the session whose model request is being built (or whose call is sealed), so what
     * is offered can follow each session (its provider, say); without it, a session on the
     * host's defaults is meant.
     */
    'tools/offer': [toolName: string, sessionId?: string]
  }
}
