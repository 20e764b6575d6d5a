// What the transcript shows, derived from session events (buildTranscript) plus live deltas.
import type { PushPayload } from '../../src-shared/contract/ipc'
import type { SessionEventOf, TurnEndReason } from '../../src-shared/session/events'
import type { ImageAttachment } from '../../src-shared/session/attachments'
import type { MentionedFile } from '../../src-shared/session/mention-events'

type Verdict = SessionEventOf<'tool/result'>['verdict']
type GrantScope = SessionEventOf<'approval/asked'>['scope']
type ApprovalOutcome = SessionEventOf<'approval/decided'>['outcome']
type JsonObject = Record<string, unknown>

/**
 * pending: the model asked, nothing sealed yet; approval: an ask without an answer;
 * running: sealed and allowed, no result; interrupted: the turn ended without a result.
 */
export type ToolStatus = 'pending' | 'approval' | 'running' | 'done' | 'error' | 'denied' | 'timeout' | 'cancelled' | 'interrupted'

export interface ToolResultView {
  content: string
  isError: boolean
  code?: string
  structured?: unknown
  durationMs: number
  verdict: Verdict
}

export interface ToolApprovalView {
  requestId: string
  reason: string
  scope: GrantScope
  outcome?: ApprovalOutcome
  note?: string
  by?: string
}

export interface ToolCardItem {
  kind: 'tool'
  key: string
  seq: number
  turnId: string
  callId: string
  token?: string
  name: string
  /** Sealed arguments once tool/call arrived; the model's arguments before that. */
  args: JsonObject
  originalArgs?: JsonObject
  rewrittenBy?: string
  argsError?: string
  parent?: string
  /** When the sealed call started (tool/call ts). */
  startedAt?: number
  status: ToolStatus
  approval?: ToolApprovalView
  /** Why the call was denied, cancelled or interrupted, in words. */
  statusReason?: string
  result?: ToolResultView
  /** An Agent call's subagent, once its child turn started (`subagent/start`, `subagent/end`). */
  subagent?: SubagentView
}

/** A subagent as its card shows it: who it is, where its own log is, and how it ended. */
export interface SubagentView {
  agentId: string
  agentType: string
  description: string
  background?: boolean
  end?: {
    reason: SessionEventOf<'subagent/end'>['reason']
    error?: string
    toolUseCount: number
    durationMs: number
    usage: SessionEventOf<'subagent/end'>['usage']
    costUsd?: number
    model: string
  }
}

export interface UserItem {
  kind: 'user'
  key: string
  seq: number
  content: string
  originalContent?: string
  /** A custom slash command: `originalContent` is the text as typed, `content` its expansion. */
  slashCommand?: { name: string; source: 'user' | 'project' | 'codex' | 'plugin' }
  source: 'user' | 'cli' | 'steering'
  /** Images sent with the prompt (base64, shown as thumbnails). */
  images?: ImageAttachment[]
  /** Files the message mentioned with `@path` (mentions/attached): attached, or why not. */
  mentions?: readonly MentionedFile[]
}

export interface AssistantItem {
  kind: 'assistant'
  key: string
  seq: number
  turnId: string
  step: number
  text: string
  thinking?: string
  partial?: boolean
}

export interface SteeringItem {
  kind: 'steering'
  key: string
  seq: number
  text: string
  source: 'user' | 'continuation'
  by?: string
  mentions?: readonly MentionedFile[]
  images?: readonly ImageAttachment[]
}
export interface ContextItem {
  kind: 'context'
  key: string
  seq: number
  text: string
  source: string
  /** A channel message (plugins/channels): shown as a message from its channel, not as collapsed context. */
  channel?: { server: string; content: string; meta: Readonly<Record<string, string>> }
}
export interface BlockedItem { kind: 'blocked'; key: string; seq: number; prompt: string; reason: string; by?: string }
export interface NoticeItem { kind: 'notice'; key: string; seq: number; level: 'info' | 'warn' | 'error'; text: string; source: string }

export interface HookItem {
  kind: 'hook'
  key: string
  seq: number
  invocationId: string
  source: 'claude' | 'codex'
  event: string
  command?: string
  matcher?: string
  toolCallToken?: string
  /** The handler's statusMessage, shown while the hook runs. */
  statusMessage?: string
  result?: {
    outcomeKind: 'ok' | 'block' | 'error'
    decision?: 'allow' | 'deny' | 'ask' | 'defer'
    durationMs: number
    exitCode: number | null
    failureKind?: string
    errorMessage?: string
  }
}

/** Instructions files (CLAUDE.md, AGENTS.md, ...) delivered to the model, with their text. */
export interface InstructionsItem {
  kind: 'instructions'
  key: string
  seq: number
  files: ReadonlyArray<{ path: string; memoryType: string; loadReason: string; content: string; parent?: string }>
  removed: readonly string[]
}

/** The marker where the model's history was compacted: what comes before is still shown, the model has the summary. */
export interface CompactionItem {
  kind: 'compaction'
  key: string
  seq: number
  trigger: 'manual' | 'auto'
  summary: string
  instructions?: string
  replacedMessages: number
  tokensBefore?: number
  tokensAfter?: number
}

/** After a turn that changed files: the files, whose diffs and revert buttons the card fetches. */
export interface ChangesItem {
  kind: 'changes'
  key: string
  seq: number
  turnId: string
  paths: readonly string[]
  /** Seq of the latest revert or rewind logged: the card asks again for the files' state after one. */
  revision: number
}

/** A revert of a file or a turn, as logged. */
export interface RevertItem { kind: 'revert'; key: string; seq: number; scope: 'file' | 'turn'; turnId: string; paths: readonly string[] }

/** The marker where the conversation was rewound: the rows from `toSeq` up to here are out of the model's history. */
export interface RewindItem { kind: 'rewind'; key: string; seq: number; toSeq: number; prompt: string; paths: readonly string[] }

export interface TurnEndItem {
  kind: 'turn-end'
  key: string
  seq: number
  turnId: string
  reason: Exclude<TurnEndReason, 'completed'>
  error?: string
}

/** Streaming text of the step the model is producing now (agent/delta), until its message lands. */
export interface LiveItem {
  kind: 'live'
  /** The key the step's assistant row gets once recorded (stepKey), so the row is kept, not remounted. */
  key: string
  turnId: string
  step: number
  text: string
  thinking: string
}

export type TranscriptItem =
  | UserItem
  | AssistantItem
  | ToolCardItem
  | SteeringItem
  | ContextItem
  | BlockedItem
  | NoticeItem
  | HookItem
  | TurnEndItem
  | InstructionsItem
  | CompactionItem
  | ChangesItem
  | RevertItem
  | RewindItem

export interface Transcript {
  readonly items: readonly TranscriptItem[]
  /** `tool:<turnId>:<callId>`, `token:<token>`, `hook:<invocationId>` -> index in items. */
  readonly index: ReadonlyMap<string, number>
  /** Indices of tool cards with no result yet. */
  readonly openTools: readonly number[]
  readonly lastSeq: number
  readonly live: LiveItem | null
  /** Seq spans [from, to) a rewind took out of the model's history: their rows are greyed out. */
  readonly rewound: ReadonlyArray<{ from: number; to: number }>
  /** Paths each turn changed (file/checkpoint), for its changes card when it ends. */
  readonly turnFiles: ReadonlyMap<string, readonly string[]>
}

export type AgentDelta = Pick<PushPayload<'agent/delta'>, 'turnId' | 'step' | 'kind' | 'text'>
