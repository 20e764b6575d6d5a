// Host services plugins inject (`inject: ['tools']`, then `ctx.get('tools')`), plus the scoped
// accessors `ctx.tools` and `ctx.approval` (defined in src-main with defineContextProperty).
import type { ModelToolSpec } from '../model'
import type { Disposable } from '../kernel/types'
import type { SessionEvent } from '../session/events'
import type { SessionEventInput } from './agent'
import type {
  ApprovalAnswer,
  ApprovalRequest,
  GrantScope,
  JsonObject,
  PermissionUpdate,
  SealedCall,
  SessionGrant,
  ToolCallRequest,
  ToolDefinition,
  ToolExecutionResult
} from './tools'

export interface ExecuteOptions {
  /** Called once the identity is sealed, before any policy: the loop appends tool/call here (S9, S18). */
  onSealed?(call: SealedCall): void | Promise<void>
  /** Appends durable events (approval/asked, approval/decided, grant/added) to the call's session. */
  record?(event: SessionEventInput): void
}

/** How a tool is registered. */
export interface ToolRegisterOptions {
  /**
   * A tool of one running subagent only (its agent file's own MCP servers): offered to that
   * subagent's requests and callable by its calls alone; for it, it hides a shared tool of the same
   * name. Other agents' tools of the same name do not clash.
   */
  agentId?: string
}

export interface ToolRegistry {
  /** Registers a tool; the returned disposer (and the registering plugin's disposal) removes it. */
  register<A>(tool: ToolDefinition<A>, options?: ToolRegisterOptions): Disposable
  /** The shared tool named `name`, or with `agentId` the one that subagent sees (its own first). */
  get(name: string, agentId?: string): ToolDefinition<unknown> | undefined
  list(): ToolDefinition<unknown>[]
  /**
   * The tools as the model sees them (JSON Schema from each zod schema), as offered to `sessionId`'s
   * requests (the `tools/offer` guards); with `agentId`, that subagent's own tools too.
   */
  specs(sessionId?: string, agentId?: string): ModelToolSpec[]
  /** Runs the whole pipeline (S9-S18). Never rejects: every failure is an isError result (S16). */
  execute(request: ToolCallRequest, options?: ExecuteOptions): Promise<ToolExecutionResult>
  /** S12: a deny-only guard, removed with the registering plugin. */
  guard(guard: (call: SealedCall) => string | undefined | void): Disposable
}

export interface ApprovalService {
  /** S11: ask the user; resolves, never rejects. No answerer, a throwing one or an abort become a deny. */
  request(
    request: Omit<ApprovalRequest, 'id' | 'scope'> & { scope?: GrantScope },
    record?: (event: SessionEventInput) => void
  ): Promise<ApprovalAnswer>
  /** The grant covering this call (run in `cwd`), if the user allowed it for the session. */
  matchGrant(sessionId: string, tool: string, args: Readonly<JsonObject>, cwd?: string): SessionGrant | undefined
  grants(sessionId: string): SessionGrant[]
  revoke(sessionId: string, grantId: string, record?: (event: SessionEventInput) => void): boolean
  /** Requests waiting for an answer (for a UI that connects late). */
  pending(): ApprovalRequest[]
  /** Settle a pending request from outside the answerer chain (a dialog answer arriving over IPC). */
  settle(requestId: string, answer: ApprovalAnswer): boolean
  /** An exact scope for a call (its command, file or arguments), for callers that grant exactly. */
  scopeFor(tool: string, args: Readonly<JsonObject>): GrantScope
  /** The Claude Code rules "allow for this session" and "always allow" grant for a call, as the dialog shows them. */
  ruleScope(tool: string, args: Readonly<JsonObject>, cwd: string | undefined): Promise<GrantScope>
  /** Applies permission updates (a hook's `updatedPermissions`): to the session (grants, its mode, its directories) and to settings files; problems become notices. */
  applyRuleUpdates(sessionId: string, updates: readonly PermissionUpdate[], record?: (event: SessionEventInput) => void): void
  /** Puts back the grants recorded in a session's log (a resumed session). */
  restoreGrants(sessionId: string, events: readonly SessionEvent[]): void
}

/**
 * Environment variables from settings (Claude Code's `env`) for every tool and hook process of a
 * session. The agent handle's `env` merges them under the session's own variables, so every place
 * that builds a child process's environment from `agent.env` / `exec.env` gets them.
 */
export interface SettingsEnvService {
  vars(): Readonly<Record<string, string>>
}

/**
 * Claude Code permission rules a slash command's `allowed-tools` grants to the turn it opens:
 * calls they match run without asking during that turn (deny and ask rules still win). The host
 * provides it; the agent grants at the command's turn and revokes at its end.
 */
export interface TurnPermissionsService {
  /** The rules granted to this session's turn, and the command that granted them. */
  allowedFor(sessionId: string, turnId: string | undefined): { command: string; rules: readonly string[] } | undefined
  /** Grants `rules` to the turn; the returned function revokes them. */
  grant(sessionId: string, turnId: string, command: string, rules: readonly string[]): () => void
}

/** The in-memory TurnPermissionsService (one per kernel). */
export function createTurnPermissions(): TurnPermissionsService {
  const granted = new Map<string, { command: string; rules: readonly string[] }>()
  const key = (sessionId: string, turnId: string) => `${sessionId}\u0000${turnId}`
  return {
    allowedFor: (sessionId, turnId) => (turnId === undefined ? undefined : granted.get(key(sessionId, turnId))),
    grant(sessionId, turnId, command, rules) {
      const k = key(sessionId, turnId)
      const entry = { command, rules: [...rules] }
      granted.set(k, entry)
      return () => {
        if (granted.get(k) === entry) granted.delete(k)
      }
    }
  }
}

declare module '../kernel/types' {
  interface Services {
    tools: ToolRegistry
    approval: ApprovalService
    settingsEnv: SettingsEnvService
    turnPermissions: TurnPermissionsService
  }
}
