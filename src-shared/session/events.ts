// Durable session events: the append-only log a session is (DESIGN.md "Sessions"). Everything a
// model request contains is derived from these events; anything the model sees is one of them.
// Every event carries `seq` (1-based position in the log) and `ts` (epoch ms).
import { z } from 'zod'
import { CompactionEvent, InstructionsLoadedEvent, SkillLoadedEvent, UsageStepEvent } from './context-events'
import { HookInvokedEvent, HookResultEvent } from './hook-events'
import { ImageAttachmentShape } from './attachments'
import { FileChangedEvent, FileCheckpointEvent, RestoreJournalEvent, RevertEvent, RewindEvent } from './checkpoint-events'
import { MentionsAttachedEvent } from './mention-events'
import { TaskEndedEvent, TaskStartedEvent } from './task-events'
import { SubagentEndEvent, SubagentStartEvent } from './subagent-events'

const base = { seq: z.number().int().positive(), ts: z.number() }
const Json: z.ZodType<unknown> = z.unknown()
const JsonObject = z.record(z.string(), Json)

export const TurnEndReasonSchema = z.enum(['completed', 'rejected', 'cancelled', 'error', 'max_steps'])
export type TurnEndReason = z.infer<typeof TurnEndReasonSchema>

export const ToolCallShape = z.object({ id: z.string(), name: z.string(), args: JsonObject, argsError: z.string().optional() })

export const VerdictShape = z.object({
  outcome: z.enum(['allowed', 'denied']),
  stage: z.enum(['pre-execute', 'approval', 'guard', 'rewrite', 'seal']),
  reason: z.string().optional(),
  by: z.string().optional(),
  approval: z.enum(['allowed-once', 'allowed-session', 'allowed-always', 'denied', 'cancelled', 'unavailable']).optional()
})

/** The git worktree a worktree session runs in (src-shared/host/worktrees.ts `WorktreeRecord`). */
export const WorktreeShape = z.object({
  name: z.string(),
  repo: z.string(),
  path: z.string(),
  branch: z.string(),
  base: z.string(),
  baseCommit: z.string(),
  createdBy: z.enum(['git', 'hook'])
})

export const SessionHeaderEvent = z.object({
  type: z.literal('session/header'),
  ...base,
  sessionId: z.string(),
  version: z.literal(1),
  workspace: z.string(),
  createdAt: z.number(),
  title: z.string().optional(),
  /** The provider and model the session was created with (and the provider's address, never its key): a flag-less `seam resume` uses them. */
  model: z.object({ provider: z.string(), model: z.string(), baseUrl: z.string().optional() }).optional(),
  /** A worktree session: `workspace` is the worktree's folder, made from `worktree.repo`. */
  worktree: WorktreeShape.optional()
})

export const SessionRenamedEvent = z.object({ type: z.literal('session/renamed'), ...base, title: z.string() })

export const TurnStartEvent = z.object({ type: z.literal('turn/start'), ...base, turnId: z.string() })

export const TurnEndEvent = z.object({
  type: z.literal('turn/end'),
  ...base,
  turnId: z.string(),
  reason: TurnEndReasonSchema,
  error: z.string().optional(),
  steps: z.number().int().nonnegative().optional()
})

/** Where a typed slash command came from: Claude Code's user or project files, Codex prompts, an installed plugin (its skills). */
export const CommandSourceSchema = z.enum(['user', 'project', 'codex', 'plugin'])

export const UserMessageEvent = z.object({
  type: z.literal('user/message'),
  ...base,
  turnId: z.string(),
  content: z.string(),
  /** The prompt as typed, when prompt policy rewrote it or a slash command was expanded. */
  originalContent: z.string().optional(),
  /** Present when the message was a custom slash command: `content` is its expansion, `originalContent` the text as typed. */
  command: z.object({ name: z.string(), args: z.string(), source: CommandSourceSchema }).optional(),
  source: z.enum(['user', 'cli', 'steering']),
  /** Images sent with the prompt (attachments.ts: base64 in the log, so a request is rebuilt from it alone). */
  images: z.array(ImageAttachmentShape).optional()
})

export const AssistantMessageEvent = z.object({
  type: z.literal('assistant/message'),
  ...base,
  turnId: z.string(),
  step: z.number().int().nonnegative(),
  text: z.string(),
  thinking: z.string().optional(),
  toolCalls: z.array(ToolCallShape),
  /** True when the stream was cancelled or failed: the log keeps what had arrived. */
  partial: z.boolean().optional(),
  stopReason: z.string().optional()
})

export const ToolCallEvent = z.object({
  type: z.literal('tool/call'),
  ...base,
  turnId: z.string(),
  callId: z.string(),
  token: z.string(),
  name: z.string(),
  /** Sealed arguments (after rewrite, S9/S18). */
  args: JsonObject,
  originalArgs: JsonObject.optional(),
  rewrittenBy: z.string().optional(),
  parent: z.string().optional()
})

export const ToolResultEvent = z.object({
  type: z.literal('tool/result'),
  ...base,
  turnId: z.string(),
  callId: z.string(),
  token: z.string(),
  name: z.string(),
  content: z.string(),
  isError: z.boolean(),
  code: z.string().optional(),
  structured: Json.optional(),
  verdict: VerdictShape,
  durationMs: z.number().nonnegative()
})

/** What a channel message came as (Claude Code's `notifications/claude/channel`): the server and the notification's own fields. */
export const ChannelOriginShape = z.object({
  /** The server's configured name, the `source` of its `<channel>` tag. */
  server: z.string(),
  content: z.string(),
  meta: z.record(z.string(), z.string())
})

export const ContextMessageEvent = z.object({
  type: z.literal('context/message'),
  ...base,
  turnId: z.string().optional(),
  text: z.string(),
  /** Who added it: a plugin name, `hook:SessionStart`, ... */
  source: z.string(),
  /**
   * Set for a channel message: the model reads `text` (the `<channel>` tag) as a message of the
   * user side, not wrapped as a system reminder, and the transcript shows it as a message from
   * `channel.server`.
   */
  channel: ChannelOriginShape.optional()
})

export const PromptBlockedEvent = z.object({
  type: z.literal('prompt/blocked'),
  ...base,
  turnId: z.string(),
  prompt: z.string(),
  reason: z.string(),
  by: z.string().optional()
})

export const SteeringMessageEvent = z.object({
  type: z.literal('steering/message'),
  ...base,
  turnId: z.string(),
  text: z.string(),
  /** `user`: typed while the turn ran; `continuation`: a continue reason (S7). */
  source: z.enum(['user', 'continuation']),
  by: z.string().optional(),
  /** Images sent with a message typed while the turn ran (base64 in the log, as a prompt's). */
  images: z.array(ImageAttachmentShape).optional()
})

export const GrantScopeShape = z.object({
  tool: z.string(),
  pattern: z.record(z.string(), z.string()),
  description: z.string(),
  rules: z.array(z.string()).optional(),
  projectDir: z.string().optional()
})

export const SubagentAskingShape = z.object({ agentId: z.string(), agentType: z.string(), description: z.string().optional() })

export const ApprovalAskedEvent = z.object({
  type: z.literal('approval/asked'),
  ...base,
  turnId: z.string().optional(),
  requestId: z.string(),
  token: z.string(),
  tool: z.string(),
  args: JsonObject,
  reason: z.string(),
  scope: GrantScopeShape,
  /** Asked from inside a subagent: which one (its id, type and task). */
  agent: SubagentAskingShape.optional()
})

export const ApprovalDecidedEvent = z.object({
  type: z.literal('approval/decided'),
  ...base,
  requestId: z.string(),
  token: z.string(),
  outcome: z.enum(['allowed-once', 'allowed-session', 'allowed-always', 'denied', 'cancelled', 'unavailable']),
  note: z.string().optional(),
  by: z.string().optional(),
  reason: z.string().optional()
})

export const GrantAddedEvent = z.object({ type: z.literal('grant/added'), ...base, grantId: z.string(), scope: GrantScopeShape })
export const GrantRevokedEvent = z.object({ type: z.literal('grant/revoked'), ...base, grantId: z.string() })

/**
 * The system prompt and tool list the model is given, logged whenever they change so that a
 * request is rebuilt from the log alone (prompt sections and tools come from plugins, which may
 * differ when the session is reopened).
 */
export const ModelContextEvent = z.object({
  type: z.literal('model/context'),
  ...base,
  system: z.string(),
  tools: z.array(z.object({ name: z.string(), description: z.string(), inputSchema: JsonObject }))
})

/** The session's model was switched (the model picker): later requests go to `provider`/`model`; resume keeps it. */
export const ModelSwitchedEvent = z.object({
  type: z.literal('model/switched'),
  ...base,
  provider: z.string(),
  model: z.string(),
  /** What it was before. */
  from: z.object({ provider: z.string(), model: z.string() }).optional()
})

/** Shown to the user, never to the model: a hook's systemMessage, a visible hook failure, a warning. */
export const NoticeEvent = z.object({
  type: z.literal('notice'),
  ...base,
  turnId: z.string().optional(),
  level: z.enum(['info', 'warn', 'error']),
  text: z.string(),
  source: z.string()
})

export const SessionEventSchema = z.discriminatedUnion('type', [
  SessionHeaderEvent,
  SessionRenamedEvent,
  TurnStartEvent,
  TurnEndEvent,
  UserMessageEvent,
  AssistantMessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  ContextMessageEvent,
  PromptBlockedEvent,
  SteeringMessageEvent,
  ApprovalAskedEvent,
  ApprovalDecidedEvent,
  GrantAddedEvent,
  GrantRevokedEvent,
  NoticeEvent,
  ModelContextEvent,
  ModelSwitchedEvent,
  HookInvokedEvent,
  HookResultEvent,
  InstructionsLoadedEvent,
  UsageStepEvent,
  CompactionEvent,
  SkillLoadedEvent,
  FileCheckpointEvent,
  FileChangedEvent,
  RevertEvent,
  RewindEvent,
  RestoreJournalEvent,
  MentionsAttachedEvent,
  TaskStartedEvent,
  TaskEndedEvent,
  SubagentStartEvent,
  SubagentEndEvent
])

export type SessionEvent = z.infer<typeof SessionEventSchema>
export type SessionEventType = SessionEvent['type']
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>

export const SESSION_EVENT_TYPES: readonly string[] = SessionEventSchema.options.map((o) => o.shape.type.value)
