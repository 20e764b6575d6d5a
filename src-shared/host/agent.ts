// The agent seams' types (spec/seams.md S4-S8, S20, S21). The loop lives in src-main/agent.
import type { Next } from '../kernel/types'
import type { SessionEvent, TurnEndReason } from '../session/events'
import type { ModelErrorKind, ReasoningEffort } from '../model'
import type { ToolExecutionResult } from './tools'
import type { SubagentIdentity } from './extensions'

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact'
export type PromptSource = 'user' | 'cli' | 'steering'

/** What a plugin can do with the running agent while handling its events. */
export interface AgentHandle {
  readonly sessionId: string
  /** The workspace folder (project root). */
  readonly workspace: string
  /** The session's current directory (starts at the workspace). */
  readonly cwd: string
  /** Path of the session's log, for hooks that want a transcript path. */
  readonly transcriptPath: string
  /** The session's log so far, in order (read-only; bridges derive other transcript formats from it). */
  readonly events: readonly SessionEvent[]
  readonly currentTurnId: string | undefined
  /**
   * Set on a subagent's handle: the child turn's agent id and type. The agent seams
   * (`agent/turn-continuation`, `agent/tool-batch`, `agent/turn-end`) fire for a child turn too;
   * a listener tells the two apart here (Claude Code runs SubagentStop, not Stop, for a child).
   * A child's handle has the parent's `sessionId`; its `events` and `transcriptPath` are the child's own log.
   */
  readonly subagent?: SubagentIdentity
  /** Aborted when the running turn is cancelled (absent outside a turn): processes a listener starts for the turn end with it. */
  readonly turnSignal?: AbortSignal
  /** Model-visible context, recorded as a context/message event before the next model request. */
  inject(text: string, source: string): void
  /**
   * Model-visible news from outside the running turn (a background agent ended): a context/message
   * at the top of the running turn's next step; when the session is idle it opens a turn of its
   * own (as Claude Code does with a finished background agent's notification). No prompt policy
   * runs for it (the user typed nothing). Dropped once the session is closing. On a subagent's
   * handle it is `inject`. With `channel` (SDK 0.34) it is a channel message: the model reads
   * `text` as it is, a message of the user side (not a system reminder), and the transcript shows
   * it as a message from `channel.server`.
   */
  deliver(text: string, source: string, channel?: ChannelOrigin): void
  /** S8: stop the current turn; monotonic (nothing later in the turn un-stops it). */
  stop(reason: string, by: string): void
  /** Set an environment variable for processes tools spawn later in this session (CLAUDE_ENV_FILE). */
  setEnv(name: string, value: string): void
  readonly env: Readonly<Record<string, string>>
  /** Append a durable event that is not model-visible (hook/*, notices). */
  record(event: SessionEventInput): void
  /**
   * Writes every event recorded so far and syncs it to the device: for a plugin about to change
   * the world after recording what it is about to do (a file checkpoint before a Write).
   */
  flushDurable(): Promise<void>
  /** A message shown to the user, never to the model (a hook's systemMessage, a warning). */
  notify(level: 'info' | 'warn' | 'error', text: string, source: string): void
  /**
   * For the rest of the running turn (its later requests and compactions), the model and/or the
   * effort named here (a skill's `model` and `effort`); the next turn is back on the session's.
   * `model` is an id or a Claude Code alias, resolved for the session's provider; one that does
   * not resolve leaves the model as it is, said in a notice. Ignored outside a turn.
   */
  useForTurn(options: TurnModelOptions): void
  /** The effort the running turn's requests ask for when a plugin set one (`useForTurn`); undefined otherwise (the provider's default). Hooks report it as `effort.level`. */
  readonly turnEffort?: ReasoningEffort
}

/** Where a delivered channel message came from: the server's name and the notification's `content` and `meta` (SDK 0.34). */
export interface ChannelOrigin {
  server: string
  content: string
  meta: Readonly<Record<string, string>>
}

/** What `AgentHandle.useForTurn` changes; an absent field keeps what the turn uses. */
export interface TurnModelOptions {
  model?: string
  effort?: ReasoningEffort
  /** Who asks, for the notice when `model` does not resolve (`A skill` when absent). */
  by?: string
}

/** An event before the store assigns `seq` and `ts`. */
export type SessionEventInput = SessionEvent extends infer E ? (E extends unknown ? Omit<E, 'seq' | 'ts'> : never) : never

/** S5 */
export type PromptDecision =
  | { action: 'allow'; content?: string; additionalContext?: string[] }
  | { action: 'block'; reason: string; by?: string }

/**
 * A custom slash command being expanded (Claude Code's UserPromptExpansion): seen after
 * agent/prompt-submit allowed the typed text. A `block` keeps the prompt out of the model's
 * history (prompt/blocked); `content` replaces the expanded text; `additionalContext` follows it.
 */
export interface PromptExpansionInfo {
  expansionType: 'slash_command'
  /** Without the slash (`review`, `frontend:component`, `prompts:draft`). */
  commandName: string
  commandArgs: string
  /** `plugin`: a command (a skill) of an installed plugin. */
  commandSource: 'user' | 'project' | 'codex' | 'plugin'
  /** The text as typed (unexpanded). */
  prompt: string
  /** What the model gets unless a listener changes it. */
  expanded: string
}

/** S7 */
/** `additionalContext` reaches the model right after `reason` (Claude Code's order for a Stop block's system text). */
export type ContinuationDecision = { action: 'stop' } | { action: 'continue'; reason?: string; by?: string; additionalContext?: string[] }

/** After all of a step's tool results are appended (Claude Code's PostToolBatch). */
export type ToolBatchDecision = { action: 'continue'; additionalContext?: string[] } | { action: 'stop'; reason: string; by?: string }

export interface TurnInfo {
  turnId: string
  /** Steps run so far in this turn. */
  steps: number
  /** Consecutive `continue` decisions since the model last stopped on its own. */
  continuations: number
  /** The assistant's last text in this turn. */
  lastAssistantText: string
}

/** A turn that ends on a model or provider error (the request failed: rate limit, auth, server…), for `agent/turn-failure`. */
export interface TurnFailure {
  turnId: string
  /** The provider error's stable kind (`ModelError.kind`). */
  kind: ModelErrorKind
  /** The provider's own words. */
  message: string
  /** The HTTP status, when the provider answered with one. */
  status?: number
  /** The assistant's last text in this turn ('' when none). */
  lastAssistantText: string
}

declare module '../kernel/types' {
  interface Events {
    /** S4: awaited (parallel) before turn 1; cannot block the start. */
    'agent/session-start': (agent: AgentHandle, source: SessionStartSource) => void | Promise<void>
    /** S5 */
    'agent/prompt-submit': (agent: AgentHandle, content: string, source: PromptSource, next: Next<Promise<PromptDecision>>) => Promise<PromptDecision>
    /** After agent/prompt-submit, for a custom slash command: see PromptExpansionInfo. */
    'agent/prompt-expansion': (agent: AgentHandle, info: PromptExpansionInfo, next: Next<Promise<PromptDecision>>) => Promise<PromptDecision>
    /** S7: asked when the model stops asking for tools. */
    'agent/turn-continuation': (agent: AgentHandle, turn: TurnInfo, next: Next<Promise<ContinuationDecision>>) => Promise<ContinuationDecision>
    /** S8: a stop was decided for the turn (notification). */
    'agent/turn-stop': (agent: AgentHandle, turnId: string, reason: string, by: string) => void
    /** After a step's tool results (and their buffered context) are appended. */
    'agent/tool-batch': (agent: AgentHandle, results: readonly ToolExecutionResult[], next: Next<Promise<ToolBatchDecision>>) => Promise<ToolBatchDecision>
    /** Awaited (parallel) before `turn/end` when the turn ends on a model/provider error (Claude Code's StopFailure); cannot change the end. */
    'agent/turn-failure': (agent: AgentHandle, failure: TurnFailure) => void | Promise<void>
    /** Notification: a turn closed (S21). */
    'agent/turn-end': (agent: AgentHandle, turnId: string, reason: TurnEndReason) => void
    /** Awaited (parallel) when a session closes. */
    'agent/session-end': (agent: AgentHandle, reason: 'closed' | 'deleted' | 'shutdown' | 'clear') => void | Promise<void>
    /** Every durable event appended to any session, after it is written. */
    'session/appended': (sessionId: string, event: SessionEvent) => void
  }
}
