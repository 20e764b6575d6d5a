// The one typed contract between the UI and the Host: every request name maps to zod input and
// output schemas, every push to a payload schema. Both transports (Electron IPC, WebSocket)
// carry exactly this; the Host validates every request (the renderer is untrusted input).
import { z } from 'zod'
import { SessionEventSchema, GrantScopeShape, WorktreeShape } from '../session/events'
import { WorktreeMethods } from './worktrees'
import { ImageAttachmentsSchema } from '../session/attachments'
import { CheckpointMethods } from './checkpoints'
import { TaskMethods } from './tasks'
import { SubagentMethods, SubagentPushes } from './subagents'
import { ClaudePluginMethods } from './claude-plugins'
import { OutputStyleMethods } from './output-styles'
import { ThemeMethods } from './themes'
import { CompactionSettingsSchema, ModelInfoSchema, ModelTableViewSchema } from '../model-table'
import { ApprovalModeSchema, ProviderKindSchema } from './setting-kinds'
import { SESSION_PAGE } from './session-page'

// Also imported by the host's headless parts from their own small modules, so that the CLI does
// not build this contract's schemas (about 1,200 of the 4,800 it built at start) to read a setting.
export { ApprovalModeSchema, ProviderKindSchema, SESSION_PAGE }

const Empty = z.object({}).strict()
const Ok = z.object({ ok: z.literal(true) })
const SessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a session id')
const SessionPageLimit = z.number().int().min(1).max(SESSION_PAGE.maxEvents)
const NonEmpty = z.string().min(1)

/**
 * A provider as the UI sees it: never the key, only whether one is stored, and when a stored
 * key cannot be read (sealed by a keychain that is gone), why.
 */
export const ProviderPublicSchema = z.object({
  provider: ProviderKindSchema,
  baseUrl: z.string(),
  model: z.string(),
  hasKey: z.boolean(),
  keyProblem: z.string().optional()
})

export const ProviderInputSchema = z.object({
  provider: ProviderKindSchema,
  baseUrl: z.string().url(),
  model: NonEmpty,
  /** Omitted: keep the stored key. Empty string: remove it. */
  apiKey: z.string().optional()
})

export const AppStatusSchema = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'web']),
  seamHome: z.string(),
  workspace: z.string().nullable(),
  workspaceTrusted: z.boolean(),
  /** Items of the trusted workspace that are new or changed since approved (they do not run): the UI's badge. */
  trustChanges: z.number().int().nonnegative().optional(),
  /**
   * What the workspace declares that runs or applies only once it is trusted (hooks, Claude Code
   * settings, MCP servers, commands, its .seam/cordis.patch.yml). 0: nothing to trust, and the UI
   * shows no "untrusted" badge.
   */
  trustNeeded: z.number().int().nonnegative().optional(),
  provider: ProviderPublicSchema.nullable(),
  approvalMode: ApprovalModeSchema,
  /** Safety entries of the plugin tree that are switched off (src-shared/host/safety-entries.ts): the header's warning badge. */
  safetyOff: z.array(z.string()).optional()
})

export const AgentStateSchema = z.object({
  sessionId: z.string(),
  running: z.boolean(),
  turnId: z.string().optional(),
  queued: z.number().int().nonnegative(),
  steering: z.number().int().nonnegative()
})

export const SessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  workspace: z.string(),
  createdAt: z.number(),
  lastActivity: z.number(),
  eventCount: z.number().int().nonnegative(),
  worktree: WorktreeShape.optional()
})

/** A session found by sessions/search: its summary, whether the title matched, and where its content did. */
export const SessionSearchResultSchema = SessionSummarySchema.extend({
  titleMatch: z.boolean(),
  match: z
    .object({
      /** The event to scroll to when the session opens. */
      seq: z.number().int().positive(),
      kind: z.enum(['user', 'assistant', 'tool']),
      snippet: z.string(),
      /** Ranges of `snippet` holding a query word (UTF-16 offsets, end exclusive). */
      highlights: z.array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
    })
    .optional()
})

export const ApprovalRequestPublicSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  token: z.string(),
  reason: z.string(),
  scope: GrantScopeShape,
  /** The folder the call runs in. */
  cwd: z.string().optional(),
  /** The plugin whose rule or hook asked. */
  askedBy: z.string().optional(),
  /** Asked from inside a subagent: which one (its type and task). */
  agent: z.object({ agentId: z.string(), agentType: z.string(), description: z.string().optional() }).optional(),
  /** For a file-changing call: the target's absolute path and its content now (null: no such file). */
  file: z.object({ path: z.string(), before: z.string().nullable(), truncated: z.boolean() }).optional(),
  /** Why the call is dangerous (src-shared/host/call-risks.ts): the dialog marks it and defaults to Deny. */
  risks: z.array(z.object({ kind: z.string(), text: z.string() })).optional()
})

export const GrantSchema = GrantScopeShape.extend({ id: z.string(), sessionId: z.string(), createdAt: z.number() })

export const SettingsSchema = z.object({
  approvalMode: ApprovalModeSchema,
  maxParallelToolCalls: z.number().int().min(1).max(64),
  maxSteps: z.number().int().min(1).max(1000),
  hookConcurrency: z.number().int().min(1).max(64),
  /** Desktop notifications when Seam needs the user and its window is not focused. */
  desktopNotifications: z.boolean(),
  /** Seconds after a turn ends without an answer before Claude Code's Notification hook fires with `idle_prompt`. */
  idlePromptSeconds: z.number().positive().max(86_400),
  /** The channels whose messages reach sessions: Claude Code's `--channels` entries (plugins/channels). */
  channels: z
    .array(z.string().regex(/^(plugin:[a-z0-9][a-z0-9._-]*(@[A-Za-z0-9][A-Za-z0-9._-]*)?|server:\S+)$/, 'a channel is plugin:<name>@<marketplace> or server:<name>'))
    .max(100)
})

/** A model as the picker shows it. */
export const ModelOptionSchema = z.object({ model: z.string(), vision: z.boolean() })

/** The model in use (of a session, or the Host's) and what one can switch to. */
export const ModelOptionsSchema = z.object({
  current: z.object({ provider: ProviderKindSchema, model: z.string(), vision: z.boolean() }).nullable(),
  providers: z.array(
    z.object({
      id: ProviderKindSchema,
      label: z.string(),
      /** False when Seam cannot reach it as things stand (no address, no key); `reason` says why. */
      available: z.boolean(),
      reason: z.string().optional(),
      models: z.array(ModelOptionSchema)
    })
  )
})

export const PluginInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string().optional(),
  source: z.string(),
  kind: z.enum(['builtin', 'bundle']),
  state: z.enum(['active', 'waiting', 'failed', 'disabled', 'disposed']),
  error: z.string().optional(),
  missing: z.array(z.string()),
  parts: z.object({ host: z.boolean(), client: z.boolean() }),
  /** Loaded from its folder by `seam plugin dev` (over an installed bundle of the same name, if any). */
  dev: z.boolean().optional()
})

/** One entry of the composed plugin tree (settings page): its state, the layer that decided it, and the tools it registered. */
export const PluginTreeEntrySchema = z.object({
  id: z.string(),
  /** The catalog key (`builtin:tools`, `bundle:<name>`). */
  plugin: z.string(),
  kind: z.enum(['builtin', 'bundle']),
  state: z.enum(['active', 'waiting', 'failed', 'disabled']),
  error: z.string().optional(),
  /** Services it waits for. */
  missing: z.array(z.string()),
  /** Where it was last defined or changed: `base profile entry N`, `<file>:<line>`, or the bundle lock. */
  origin: z.string(),
  /** base: the built-in profile; bundle: an installed bundle; user: <Seam home>/cordis.patch.yml; workspace: .seam/cordis.patch.yml; file: --patch. */
  layer: z.enum(['base', 'bundle', 'user', 'workspace', 'file']),
  tools: z.array(z.string()),
  /** Its config as YAML, when it has one. */
  config: z.string().optional()
})

export const BundleDeclarationSchema = z.object({
  name: z.string(),
  version: z.string(),
  host: z.string().optional(),
  client: z.string().optional(),
  engines: z.string(),
  /** What the install dialog must say: host entries run as trusted code in the main process. */
  warning: z.string()
})

export const ClientEntrySchema = z.object({ name: z.string(), url: z.string() })

/** `name`, `@scope/name`, either with `@range`, `@version` or `@tag`: a bundle in the npm registry. */
export const RegistrySpecSchema = z
  .string()
  .trim()
  .min(1, 'enter a package name')
  .max(300)
  .regex(/^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*(@[^\s@]+)?$/, 'expected a package NAME or NAME@RANGE (lower-case npm name, optionally @scope/)')

export const RegistryResolutionSchema = z.object({
  name: z.string(),
  version: z.string(),
  range: z.string(),
  registry: z.string(),
  engines: z.string(),
  description: z.string().optional()
})

export const RegistrySearchHitSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  version: z.string(),
  engines: z.string().optional(),
  fits: z.boolean(),
  fitVersion: z.string().optional(),
  problem: z.string().optional()
})

export const RegistryUpdateReportSchema = z.object({
  name: z.string(),
  from: z.string(),
  to: z.string().optional(),
  status: z.enum(['updated', 'current', 'failed']),
  message: z.string(),
  notes: z.array(z.string())
})

export const TrustItemSchema = z.object({
  source: z.string(),
  file: z.string(),
  event: z.string(),
  matcher: z.string().optional(),
  command: z.string(),
  /** sha256 of the item's content: what approving it pins. */
  hash: z.string(),
  /** approved: runs while the workspace is trusted; new / changed: does not run until approved. */
  status: z.enum(['approved', 'new', 'changed']),
  /** For a changed item: the text approved before. */
  previous: z.string().optional()
})

/** One permission rule the policy applies, and where it came from (Seam's config or a Claude Code settings file). */
export const PermissionRuleInForceSchema = z.object({
  behavior: z.enum(['allow', 'ask', 'deny']),
  rule: z.string(),
  /** `seam`, or the Claude Code settings file's kind: `user`, `project`, `local`. */
  source: z.string(),
  file: z.string(),
  index: z.number().int().nonnegative()
})

export const PermissionsInForceSchema = z.object({
  /** False when the permission-policy entry is not running (disabled, failed): nothing below applies. */
  running: z.boolean(),
  mode: z.object({ mode: z.string(), source: z.string(), file: z.string().optional(), claudeMode: z.string().optional() }).nullable(),
  /** Precedence is deny > ask > allow whatever the source. */
  rules: z.array(PermissionRuleInForceSchema),
  additionalDirectories: z.array(z.object({ path: z.string(), resolved: z.string(), source: z.string(), file: z.string(), index: z.number().int().nonnegative() })),
  /** Rules and settings that were ignored, naming the file and index. */
  warnings: z.array(z.string())
})

export const LogRecordSchema = z.object({
  level: z.enum(['debug', 'info', 'warn', 'error']),
  plugin: z.string(),
  message: z.string(),
  time: z.number(),
  detail: z.string().optional()
})

export const McpServerStatusSchema = z.object({
  name: z.string(),
  /** `agent`: a running subagent's own server (its agent file's inline mcpServers). */
  source: z.enum(['session', 'project', 'codex-project', 'seam', 'codex-user', 'plugin', 'agent']),
  file: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  /** The exact command line or URL. */
  target: z.string(),
  state: z.enum(['stopped', 'starting', 'connected', 'failed', 'disabled', 'untrusted']),
  reason: z.string().optional(),
  enabled: z.boolean(),
  tools: z.array(z.object({ name: z.string(), serverName: z.string(), description: z.string() })),
  problems: z.array(z.string()),
  stderr: z.array(z.string()),
  sessionId: z.string().optional(),
  agentId: z.string().optional()
})
const McpServerName = z.object({ name: NonEmpty.max(200) })

export const CommandInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  argumentHint: z.string().optional(),
  source: z.enum(['builtin', 'user', 'project', 'codex', 'plugin']),
  /** Enter runs it at once (a built-in that takes nothing) instead of inserting it. */
  runsWithoutArguments: z.boolean(),
  file: z.string().optional(),
  /** A plugin's command (source `plugin`): what it is (`skill`) and where it was found (`project .claude/skills`). */
  kind: z.string().optional(),
  origin: z.string().optional(),
  /** False: only the model may run it (not offered in the menu); `modelInvocable` false: only the user. */
  userInvocable: z.boolean().optional(),
  modelInvocable: z.boolean().optional()
})
export const CommandListSchema = z.object({
  commands: z.array(CommandInfoSchema),
  /** Command files that could not be read or whose front matter is invalid (path and field). */
  problems: z.array(z.object({ name: z.string(), file: z.string(), field: z.string().optional(), message: z.string(), source: z.enum(['user', 'project', 'codex', 'plugin']).optional() })),
  notices: z.array(z.string())
})
export type CommandInfo = z.output<typeof CommandInfoSchema>
export type CommandList = z.output<typeof CommandListSchema>

/** One folder in the web folder browser: unreadable ones, and links leading out of the home, are listed but cannot be opened. */
export const FolderEntrySchema = z.object({
  name: z.string(),
  /** Absolute path on the host. */
  path: z.string(),
  hidden: z.boolean(),
  /** Why it cannot be opened (`unreadable`, `outside your home folder`), when it cannot. */
  disabled: z.string().optional()
})
export const FolderListingSchema = z.object({
  /** The folder listed, absolute and with links resolved. */
  path: z.string(),
  /** The same as the user types it: `~` or `~/a/b`. */
  display: z.string(),
  /** The folder above, or null at the home folder (nothing above it is listed). */
  parent: z.string().nullable(),
  home: z.string(),
  entries: z.array(FolderEntrySchema),
  /** More folders than the listing holds (the first ones by name are listed). */
  truncated: z.boolean()
})
export type FolderListing = z.output<typeof FolderListingSchema>

/** Request name -> { input, output }. */
export const Methods = {
  'app/status': { input: Empty, output: AppStatusSchema },
  'workspace/choose': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'workspace/set': { input: z.object({ path: NonEmpty }), output: z.object({ path: z.string() }) },
  /** Web mode's folder browser: the folders in `path` (`~`, `~/x` or absolute, under the user's home only). */
  'folders/list': {
    input: z.object({ path: z.string().min(1).max(4096).refine((p) => !p.includes('\0'), 'no NUL characters').default('~'), hidden: z.boolean().default(false) }).strict(),
    output: FolderListingSchema
  },
  'workspace/trust-preview': { input: Empty, output: z.object({ workspace: z.string().nullable(), trusted: z.boolean(), items: z.array(TrustItemSchema) }) },
  'workspace/trust': {
    /** approve: the hashes of the items the dialog showed (trust is pinned to them); omitted: every current item. */
    input: z.object({ trusted: z.boolean(), approve: z.array(z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest')).max(10_000).optional() }),
    output: Ok
  },
  'provider/presets': {
    input: Empty,
    output: z.array(z.object({ id: ProviderKindSchema, label: z.string(), baseUrl: z.string(), model: z.string(), needsKey: z.boolean() }))
  },
  'provider/get': { input: Empty, output: ProviderPublicSchema.nullable() },
  'provider/set': { input: ProviderInputSchema, output: ProviderPublicSchema },
  'provider/test': {
    input: ProviderInputSchema,
    output: z.object({ ok: z.boolean(), message: z.string(), kind: z.string().optional() })
  },
  'sessions/list': { input: Empty, output: z.array(SessionSummarySchema) },
  /** Title and content (prompts, replies, tool names), every word case-insensitive; most recent first. */
  'sessions/search': {
    input: z.object({ query: z.string().trim().min(1).max(200), workspace: NonEmpty.optional(), limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: z.array(SessionSearchResultSchema)
  },
  'sessions/create': { input: z.object({ title: z.string().max(200).optional() }).strict(), output: z.object({ id: z.string() }) },
  /**
   * Opens a session and answers with the first page of its log (see SESSION_PAGE): `total` events
   * were in the log, `nextSeq` is where `sessions/events` carries on (null: this page reached the end).
   * A reply of all 10k events of a long session is one message that blocks the window while it arrives.
   */
  'sessions/open': {
    input: z.object({ id: SessionId, limit: SessionPageLimit.optional() }),
    output: z.object({
      id: z.string(),
      events: z.array(SessionEventSchema),
      total: z.number().int().nonnegative(),
      nextSeq: z.number().int().positive().nullable(),
      state: AgentStateSchema,
      warnings: z.array(z.string())
    })
  },
  /** The next page of an open session's log: events from seq `fromSeq` on, at most `limit` of them and about SESSION_PAGE.maxBytes. */
  'sessions/events': {
    input: z.object({ id: SessionId, fromSeq: z.number().int().positive(), limit: SessionPageLimit.optional() }).strict(),
    output: z.object({ events: z.array(SessionEventSchema), nextSeq: z.number().int().positive().nullable() })
  },
  'sessions/rename': { input: z.object({ id: SessionId, title: z.string().min(1).max(200) }), output: Ok },
  'sessions/delete': { input: z.object({ id: SessionId }), output: Ok },
  /** A slash command runs on the host (see src-main/commands): `command` says which built-in ran, and `sessionId` is the session `/clear` opened. */
  'chat/send': {
    input: z
      .object({ sessionId: SessionId, content: z.string().max(1_000_000), images: ImageAttachmentsSchema.optional() })
      .refine((input) => input.content.trim() !== '' || (input.images?.length ?? 0) > 0, { path: ['content'], message: 'must not be empty' }),
    output: z.object({
      queued: z.enum(['turn', 'steering']),
      command: z.object({ name: z.string(), ok: z.boolean(), message: z.string(), sessionId: z.string().optional() }).optional()
    })
  },
  /** The slash commands of a session's workspace (the window's without a session), read from disk now. */
  'commands/list': { input: z.object({ sessionId: SessionId.optional() }).strict(), output: CommandListSchema },
  /** The model in use and the providers' models; with a session id, that session's. */
  'model/options': { input: z.object({ sessionId: SessionId.optional() }).strict(), output: ModelOptionsSchema },
  /** Switches the session's model (logged as model/switched); without a session, the provider in use for new sessions. */
  'model/select': { input: z.object({ sessionId: SessionId.optional(), provider: ProviderKindSchema, model: NonEmpty.max(200) }).strict(), output: ModelOptionsSchema },
  'chat/cancel': { input: z.object({ sessionId: SessionId }), output: Ok },
  /**
   * Fuzzy file search for the composer's `@` picker: files of the session's workspace (the
   * window's when no session is given) that the ignore rules keep, ranked against `query`.
   */
  'files/search': {
    input: z.object({ sessionId: SessionId.optional(), query: z.string().max(1000), limit: z.number().int().min(1).max(200).default(50) }).strict(),
    output: z.object({
      workspace: z.string(),
      files: z.array(z.object({ path: z.string(), indexes: z.array(z.number().int().nonnegative()) })),
      /** The workspace has more files than are searched. */
      truncated: z.boolean()
    })
  },
  'approval/pending': { input: Empty, output: z.array(ApprovalRequestPublicSchema) },
  'approval/answer': {
    input: z.object({
      requestId: NonEmpty,
      outcome: z.enum(['allowed-once', 'allowed-session', 'allowed-always', 'denied']),
      note: z.string().max(4000).optional(),
      saveTo: z.enum(['workspace', 'user']).optional()
    }),
    output: z.object({ ok: z.boolean() })
  },
  'grants/list': { input: z.object({ sessionId: SessionId }), output: z.array(GrantSchema) },
  'grants/revoke': { input: z.object({ sessionId: SessionId, grantId: NonEmpty }), output: z.object({ ok: z.boolean() }) },
  'settings/get': { input: Empty, output: SettingsSchema },
  'permissions/list': { input: Empty, output: PermissionsInForceSchema },
  'settings/set': { input: SettingsSchema.partial().strict(), output: SettingsSchema },
  'plugins/list': { input: Empty, output: z.array(PluginInfoSchema) },
  /** The composed tree entry by entry; plugins/enable and plugins/disable (by id) toggle an entry. */
  'plugins/tree': { input: Empty, output: z.object({ entries: z.array(PluginTreeEntrySchema), error: z.string().optional(), userLayer: z.string() }) },
  'plugins/inspect': { input: z.object({ path: NonEmpty }), output: BundleDeclarationSchema },
  'plugins/install': {
    /** force: replace an installed copy of the same name and version whose content differs (the UI asks first). */
    input: z.object({ path: NonEmpty, force: z.boolean().optional() }),
    output: BundleDeclarationSchema.extend({ status: z.enum(['installed', 'upgraded', 'replaced', 'unchanged']), message: z.string() })
  },
  /** What NAME[@RANGE] resolves to (engines.seam checked), without downloading it. */
  'plugins/registry-resolve': { input: z.object({ spec: RegistrySpecSchema }).strict(), output: RegistryResolutionSchema },
  'plugins/registry-install': {
    input: z.object({ spec: RegistrySpecSchema, force: z.boolean().optional() }).strict(),
    output: BundleDeclarationSchema.extend({
      status: z.enum(['installed', 'upgraded', 'replaced', 'unchanged']),
      message: z.string(),
      registry: z.string(),
      range: z.string(),
      notes: z.array(z.string())
    })
  },
  /** Without a name: every bundle installed from a registry. */
  'plugins/registry-update': { input: z.object({ name: NonEmpty.optional() }).strict(), output: z.array(RegistryUpdateReportSchema) },
  /** Bundles with the `seam-plugin` keyword, and whether each fits this Seam. */
  'plugins/registry-search': { input: z.object({ query: z.string().max(200) }).strict(), output: z.object({ registry: z.string(), hits: z.array(RegistrySearchHitSchema) }) },
  'plugins/enable': { input: z.object({ name: NonEmpty }), output: Ok },
  'plugins/disable': { input: z.object({ name: NonEmpty }), output: Ok },
  'plugins/remove': { input: z.object({ name: NonEmpty }), output: Ok },
  'plugins/client-entries': { input: Empty, output: z.array(ClientEntrySchema) },
  /** RPC from a client plugin to its own host part; the Host refuses calls into another plugin's methods. */
  'plugins/call': { input: z.object({ plugin: NonEmpty, method: NonEmpty, input: z.unknown().optional() }), output: z.unknown() },
  'mcp/list': { input: Empty, output: z.object({ servers: z.array(McpServerStatusSchema), warnings: z.array(z.string()) }) },
  'mcp/set-enabled': { input: McpServerName.extend({ enabled: z.boolean() }), output: McpServerStatusSchema },
  /** Restarts a server (starts it when it is stopped). */
  'mcp/restart': { input: McpServerName, output: McpServerStatusSchema },
  /** The model table: context windows and prices per model (defaults, the user's entries), and compaction. */
  'models/table': { input: Empty, output: ModelTableViewSchema },
  /** Sets the user's entry for one model (null: back to Seam's defaults). */
  'models/set': { input: z.object({ model: z.string().trim().min(1).max(200), info: ModelInfoSchema.nullable() }).strict(), output: ModelTableViewSchema },
  'compaction/set': { input: CompactionSettingsSchema, output: ModelTableViewSchema },
  'config/dump': { input: Empty, output: z.object({ text: z.string(), error: z.string().optional() }) },
  'logs/recent': { input: Empty, output: z.array(LogRecordSchema) },
  ...CheckpointMethods,
  ...WorktreeMethods,
  ...TaskMethods,
  ...SubagentMethods,
  ...ClaudePluginMethods,
  ...OutputStyleMethods,
  ...ThemeMethods
} as const

/** Push name -> payload. */
export const Pushes = {
  'app/status': AppStatusSchema,
  'session/appended': z.object({ sessionId: z.string(), event: SessionEventSchema }),
  'sessions/changed': z.object({}),
  'agent/delta': z.object({ sessionId: z.string(), turnId: z.string(), step: z.number(), kind: z.enum(['text', 'thinking']), text: z.string() }),
  'agent/state': AgentStateSchema,
  /** Live output of a running tool call (matched to its card by callId). */
  'tool/progress': z.object({ sessionId: z.string(), turnId: z.string(), callId: z.string(), stream: z.enum(['stdout', 'stderr', 'info']), text: z.string() }),
  'approval/requested': ApprovalRequestPublicSchema,
  'approval/settled': z.object({ requestId: z.string(), outcome: z.string() }),
  'plugins/changed': z.object({}),
  /** A theme file changed, or plugins with themes came or went: fetch themes/list again. */
  'themes/changed': z.object({}),
  /** An MCP server's state, tools or stderr changed: fetch mcp/list again. */
  'mcp/changed': z.object({}),
  /** A desktop notification was clicked: show this session. */
  'app/focus-session': z.object({ sessionId: z.string() }),
  log: LogRecordSchema,
  ...SubagentPushes
} as const

export type MethodName = keyof typeof Methods
export type PushName = keyof typeof Pushes
export type MethodInput<M extends MethodName> = z.input<(typeof Methods)[M]['input']>
export type MethodOutput<M extends MethodName> = z.output<(typeof Methods)[M]['output']>
export type PushPayload<P extends PushName> = z.output<(typeof Pushes)[P]>

export type AppStatus = z.output<typeof AppStatusSchema>
export type AgentStatePublic = z.output<typeof AgentStateSchema>
export type ProviderPublic = z.output<typeof ProviderPublicSchema>
export type ProviderInput = z.output<typeof ProviderInputSchema>
export type Settings = z.output<typeof SettingsSchema>
export type ModelOptions = z.output<typeof ModelOptionsSchema>
export type PluginInfo = z.output<typeof PluginInfoSchema>
export type PluginTreeEntry = z.output<typeof PluginTreeEntrySchema>
export type SessionSearchResult = z.output<typeof SessionSearchResultSchema>
export type ApprovalRequestPublic = z.output<typeof ApprovalRequestPublicSchema>
export type McpServerStatusPublic = z.output<typeof McpServerStatusSchema>
export type PermissionsInForce = z.output<typeof PermissionsInForceSchema>

/** What the renderer holds: one interface whichever transport carries it. */
export interface HostApi {
  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>
  on<P extends PushName>(push: P, listener: (payload: PushPayload<P>) => void): () => void
  /** 'electron' or 'web': shown in the status line, never branched on by components. */
  readonly transport: 'electron' | 'web'
}

/** Wire shapes shared by both transports. */
export type WireReply = { ok: true; output: unknown } | { ok: false; error: { message: string; field?: string; code: string } }
export const WireRequestSchema = z.object({ id: z.number().int().nonnegative().optional(), method: z.string().max(100), input: z.unknown() })

export { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL } from './channels'
