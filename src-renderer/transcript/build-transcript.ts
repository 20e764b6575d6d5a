// The pure reducer from session events (and live deltas) to transcript items. One pass over the
// log: a 10k-event session builds in linear time. Updates copy the item array once per batch and
// keep the identity of untouched items, so memoised rows do not re-render.
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'
import type { AgentDelta, LiveItem, ToolApprovalView, ToolCardItem, ToolStatus, Transcript, TranscriptItem } from './transcript-types'

interface Draft {
  items: TranscriptItem[]
  index: Map<string, number>
  openTools: number[]
  lastSeq: number
  live: LiveItem | null
  rewound: Array<{ from: number; to: number }>
  turnFiles: Map<string, readonly string[]>
}

export const emptyTranscript: Transcript = { items: [], index: new Map(), openTools: [], lastSeq: -1, live: null, rewound: [], turnFiles: new Map() }

export function buildTranscript(events: readonly SessionEvent[]): Transcript {
  const draft: Draft = { items: [], index: new Map(), openTools: [], lastSeq: -1, live: null, rewound: [], turnFiles: new Map() }
  for (const event of events) reduce(draft, event)
  return draft
}

/** Applies events newer than the transcript's last seq (older or repeated ones are ignored). */
export function appendEvents(transcript: Transcript, events: readonly SessionEvent[]): Transcript {
  const fresh = events.filter((event) => event.seq > transcript.lastSeq)
  if (fresh.length === 0) return transcript
  const draft: Draft = {
    items: transcript.items.slice(),
    index: new Map(transcript.index),
    openTools: transcript.openTools.slice(),
    lastSeq: transcript.lastSeq,
    live: transcript.live,
    rewound: transcript.rewound.slice(),
    turnFiles: new Map(transcript.turnFiles)
  }
  for (const event of fresh) reduce(draft, event)
  return draft
}

/** Streaming text and thinking of the current step; a delta for an already recorded step is dropped. */
export function applyDeltas(transcript: Transcript, deltas: readonly AgentDelta[]): Transcript {
  let live = transcript.live
  for (const delta of deltas) {
    if (isRecorded(transcript, delta)) continue
    if (!live || live.turnId !== delta.turnId || live.step !== delta.step) {
      live = { kind: 'live', key: stepKey(delta.turnId, delta.step), turnId: delta.turnId, step: delta.step, text: '', thinking: '' }
    }
    live = delta.kind === 'text' ? { ...live, text: live.text + delta.text } : { ...live, thinking: live.thinking + delta.text }
  }
  return live === transcript.live ? transcript : { ...transcript, live }
}

export function clearLive(transcript: Transcript): Transcript {
  return transcript.live ? { ...transcript, live: null } : transcript
}

function isRecorded(transcript: Transcript, delta: AgentDelta): boolean {
  return transcript.index.has(`step:${delta.turnId}:${delta.step}`)
}

// ---- the reducer -------------------------------------------------------------------------------

function reduce(draft: Draft, event: SessionEvent): void {
  draft.lastSeq = Math.max(draft.lastSeq, event.seq)
  const key = `e:${event.seq}`
  switch (event.type) {
    case 'session/header':
    case 'session/renamed':
    case 'turn/start':
    case 'grant/added':
    case 'grant/revoked':
      return
    case 'user/message':
      draft.index.set('message:last', draft.items.length)
      push(draft, {
        kind: 'user',
        key,
        seq: event.seq,
        content: event.content,
        source: event.source,
        ...opt('originalContent', event.originalContent),
        ...(event.command ? { slashCommand: { name: event.command.name, source: event.command.source } } : {}),
        ...(event.images?.length ? { images: event.images } : {})
      })
      return
    case 'assistant/message':
      return onAssistant(draft, event)
    case 'tool/call':
      return onToolCall(draft, event)
    case 'tool/result':
      return onToolResult(draft, event)
    case 'approval/asked':
      return onApprovalAsked(draft, event)
    case 'approval/decided':
      return onApprovalDecided(draft, event)
    case 'context/message':
      push(draft, { kind: 'context', key, seq: event.seq, text: event.text, source: event.source, ...(event.channel ? { channel: event.channel } : {}) })
      return
    case 'prompt/blocked':
      push(draft, { kind: 'blocked', key, seq: event.seq, prompt: event.prompt, reason: event.reason, ...opt('by', event.by) })
      return
    case 'steering/message':
      if (event.source === 'user') draft.index.set('message:last', draft.items.length)
      push(draft, { kind: 'steering', key, seq: event.seq, text: event.text, source: event.source, ...opt('by', event.by), ...(event.images?.length ? { images: event.images } : {}) })
      return
    case 'notice':
      push(draft, { kind: 'notice', key, seq: event.seq, level: event.level, text: event.text, source: event.source })
      return
    case 'hook/invoked':
      draft.index.set(`hook:${event.invocationId}`, draft.items.length)
      push(draft, {
        kind: 'hook', key, seq: event.seq, invocationId: event.invocationId, source: event.source, event: event.event,
        command: event.command, ...opt('matcher', event.matcher), ...opt('toolCallToken', event.toolCallToken), ...opt('statusMessage', event.statusMessage)
      })
      if (event.event === 'PreToolUse' && event.toolCallToken) hoistPreToolHooks(draft, event.toolCallToken)
      return
    case 'hook/result':
      return onHookResult(draft, event)
    case 'turn/end':
      return onTurnEnd(draft, event)
    case 'model/context':
      push(draft, { kind: 'context', key, seq: event.seq, text: modelContextText(event), source: 'model/context' })
      return
    case 'skill/loaded':
      push(draft, { kind: 'context', key, seq: event.seq, text: event.text, source: `skill ${event.skill}${event.trigger === 'compact' ? ' (re-attached after compaction)' : ''}` })
      return
    case 'instructions/loaded':
      push(draft, { kind: 'instructions', key, seq: event.seq, files: event.files, removed: event.removed ?? [] })
      return
    case 'compaction':
      push(draft, {
        kind: 'compaction', key, seq: event.seq, trigger: event.trigger, summary: event.summary, replacedMessages: event.replacedMessages,
        ...opt('instructions', event.instructions), ...opt('tokensBefore', event.tokensBefore), ...opt('tokensAfter', event.tokensAfter)
      })
      return
    case 'mentions/attached': {
      // Shown inside the message that mentioned them (logged right after it).
      const at = draft.index.get('message:last')
      const message = at === undefined ? undefined : draft.items[at]
      if (at !== undefined && (message?.kind === 'user' || message?.kind === 'steering')) draft.items[at] = { ...message, mentions: event.files }
      return
    }
    case 'subagent/start':
      return onSubagentStart(draft, event)
    case 'subagent/end':
      return onSubagentEnd(draft, event)
    case 'usage/step':
    case 'file/changed':
    case 'restore/journal':
    case 'task/started':
    case 'task/ended':
      // Usage: the context meter in the header. File results: the changes card at the turn's end.
      // A restore's journal: only its commit (`revert`/`rewind`) is shown. Background tasks: the tasks panel.
      return
    case 'model/switched':
      push(draft, { kind: 'notice', key, seq: event.seq, level: 'info', text: `Model switched to ${event.model} (${event.provider})${event.from ? `, was ${event.from.model}` : ''}`, source: 'model' })
      return
    case 'file/checkpoint':
      if (event.turnId !== undefined) {
        const paths = draft.turnFiles.get(event.turnId) ?? []
        if (!paths.includes(event.path)) draft.turnFiles.set(event.turnId, [...paths, event.path])
      }
      return
    case 'revert':
      push(draft, { kind: 'revert', key, seq: event.seq, scope: event.scope, turnId: event.turnId, paths: event.files.map((f) => f.path) })
      return bumpChanges(draft, event.seq)
    case 'rewind':
      draft.rewound.push({ from: event.toSeq, to: event.seq })
      push(draft, { kind: 'rewind', key, seq: event.seq, toSeq: event.toSeq, prompt: event.prompt, paths: event.files.map((f) => f.path) })
      return bumpChanges(draft, event.seq)
    default: {
      // A newer host may log kinds this UI does not know yet: they show nothing.
      const unknown: never = event
      void unknown
    }
  }
}

/**
 * The row key of a step's assistant message, shared by its live row: when the recorded message
 * replaces the streamed one, React keeps the row (and its parsed Markdown blocks).
 */
export function stepKey(turnId: string, step: number): string {
  return `a:${turnId}:${step}`
}

function onAssistant(draft: Draft, event: SessionEventOf<'assistant/message'>): void {
  // A step recorded twice (never expected) keeps its keys unique with the event's seq.
  const repeated = draft.index.has(`step:${event.turnId}:${event.step}`)
  draft.index.set(`step:${event.turnId}:${event.step}`, draft.items.length)
  if (draft.live && draft.live.turnId === event.turnId && draft.live.step <= event.step) draft.live = null
  if (event.text || event.thinking || event.partial) {
    push(draft, {
      kind: 'assistant', key: repeated ? `e:${event.seq}` : stepKey(event.turnId, event.step), seq: event.seq, turnId: event.turnId, step: event.step, text: event.text,
      ...opt('thinking', event.thinking), ...opt('partial', event.partial)
    })
  }
  for (const call of event.toolCalls) {
    const toolKey = `tool:${event.turnId}:${call.id}`
    if (draft.index.has(toolKey)) continue
    draft.index.set(toolKey, draft.items.length)
    draft.openTools.push(draft.items.length)
    push(draft, {
      kind: 'tool', key: `t:${event.turnId}:${call.id}`, seq: event.seq, turnId: event.turnId, callId: call.id, name: call.name,
      args: call.args, status: 'pending', ...opt('argsError', call.argsError)
    })
  }
}

function onToolCall(draft: Draft, event: SessionEventOf<'tool/call'>): void {
  const found = findTool(draft, event.token, `tool:${event.turnId}:${event.callId}`)
  const base: ToolCardItem = found ?? newCard(draft, event.seq, event.turnId, event.callId, event.name, event.args)
  const card: ToolCardItem = {
    ...base, token: event.token, name: event.name, args: event.args, startedAt: event.ts,
    status: base.result || base.status === 'approval' ? base.status : 'running',
    ...opt('originalArgs', event.originalArgs), ...opt('rewrittenBy', event.rewrittenBy), ...opt('parent', event.parent)
  }
  replaceTool(draft, card, event.token)
  hoistPreToolHooks(draft, event.token)
}

/**
 * PreToolUse hooks run before the call: their rows (logged between the model's request and the
 * sealed call) move up to sit just above the tool's card.
 */
function hoistPreToolHooks(draft: Draft, token: string): void {
  let at = draft.index.get(`token:${token}`)
  if (at === undefined) return
  for (let i = at + 1; i < draft.items.length; i++) {
    const item = draft.items[i]
    if (item.kind !== 'hook' || item.event !== 'PreToolUse' || item.toolCallToken !== token) continue
    moveItem(draft, i, at)
    at += 1
  }
}

/** Moves the item at `from` to `to` (< from), shifting the rows between down one, indexes kept true. */
function moveItem(draft: Draft, from: number, to: number): void {
  const [item] = draft.items.splice(from, 1)
  draft.items.splice(to, 0, item)
  for (const [key, value] of draft.index) {
    if (value === from) draft.index.set(key, to)
    else if (value >= to && value < from) draft.index.set(key, value + 1)
  }
  draft.openTools = draft.openTools.map((v) => (v === from ? to : v >= to && v < from ? v + 1 : v))
}

function onToolResult(draft: Draft, event: SessionEventOf<'tool/result'>): void {
  const base = findTool(draft, event.token, `tool:${event.turnId}:${event.callId}`) ?? newCard(draft, event.seq, event.turnId, event.callId, event.name, {})
  const { status, reason } = resultStatus(event, base)
  const result = { content: event.content, isError: event.isError, durationMs: event.durationMs, verdict: event.verdict, ...opt('code', event.code), ...opt('structured', event.structured) }
  const card: ToolCardItem = { ...base, token: event.token, status, result, ...opt('statusReason', reason) }
  replaceTool(draft, card, event.token)
  const at = draft.index.get(`token:${event.token}`)
  draft.openTools = draft.openTools.filter((i) => i !== at)
}

/** A subagent is shown on the card of the Agent call that started it (SubagentCard), not as a row of its own. */
function onSubagentStart(draft: Draft, event: SessionEventOf<'subagent/start'>): void {
  const base = findTool(draft, event.token)
  if (!base) return
  const subagent = { agentId: event.agentId, agentType: event.agentType, description: event.description, ...opt('background', event.background) }
  replaceTool(draft, { ...base, subagent }, event.token)
}

function onSubagentEnd(draft: Draft, event: SessionEventOf<'subagent/end'>): void {
  const base = findTool(draft, event.token)
  if (!base?.subagent) return
  const end = {
    reason: event.reason, toolUseCount: event.toolUseCount, durationMs: event.durationMs, usage: event.usage, model: event.model,
    ...opt('error', event.error), ...opt('costUsd', event.costUsd)
  }
  replaceTool(draft, { ...base, subagent: { ...base.subagent, end } }, event.token)
}

function onApprovalAsked(draft: Draft, event: SessionEventOf<'approval/asked'>): void {
  const base = findTool(draft, event.token) ?? newCard(draft, event.seq, event.turnId ?? '', event.token, event.tool, event.args)
  const approval = { requestId: event.requestId, reason: event.reason, scope: event.scope }
  replaceTool(draft, { ...base, token: event.token, approval, status: base.result ? base.status : 'approval' }, event.token)
}

function onApprovalDecided(draft: Draft, event: SessionEventOf<'approval/decided'>): void {
  const base = findTool(draft, event.token)
  if (!base) return
  const asked: ToolApprovalView = base.approval ?? { requestId: event.requestId, reason: '', scope: { tool: base.name, pattern: {}, description: '' } }
  const approval: ToolApprovalView = { ...asked, outcome: event.outcome, ...opt('note', event.note), ...opt('by', event.by) }
  if (base.result) return replaceTool(draft, { ...base, approval }, event.token)
  const allowed = event.outcome === 'allowed-once' || event.outcome === 'allowed-session' || event.outcome === 'allowed-always'
  const status: ToolStatus = allowed ? 'running' : 'denied'
  replaceTool(draft, { ...base, approval, status, ...(allowed ? {} : { statusReason: describeApproval(event.outcome, event.note ?? event.reason) }) }, event.token)
}

function onHookResult(draft: Draft, event: SessionEventOf<'hook/result'>): void {
  const result = {
    outcomeKind: event.outcomeKind, durationMs: event.durationMs, exitCode: event.exitCode,
    ...opt('decision', event.decision), ...opt('failureKind', event.failureKind), ...opt('errorMessage', event.errorMessage)
  }
  const at = draft.index.get(`hook:${event.invocationId}`)
  const existing = at === undefined ? undefined : draft.items[at]
  if (at !== undefined && existing?.kind === 'hook') {
    // A PreToolUse hook is written when it starts, before its call has a token; its result brings it.
    draft.items[at] = { ...existing, result, ...(existing.toolCallToken === undefined ? opt('toolCallToken', event.toolCallToken) : {}) }
    // Its card may already be on screen (asked for approval): the row moves up above it now.
    if (existing.event === 'PreToolUse' && existing.toolCallToken === undefined && event.toolCallToken) hoistPreToolHooks(draft, event.toolCallToken)
    return
  }
  draft.index.set(`hook:${event.invocationId}`, draft.items.length)
  push(draft, { kind: 'hook', key: `e:${event.seq}`, seq: event.seq, invocationId: event.invocationId, source: event.source, event: event.event, result })
}

function onTurnEnd(draft: Draft, event: SessionEventOf<'turn/end'>): void {
  const still: number[] = []
  for (const at of draft.openTools) {
    const card = draft.items[at]
    if (card?.kind !== 'tool' || card.turnId !== event.turnId) {
      still.push(at)
      continue
    }
    const status: ToolStatus = event.reason === 'cancelled' ? 'cancelled' : 'interrupted'
    draft.items[at] = { ...card, status, statusReason: `the turn ended (${event.reason}) before a result` }
  }
  draft.openTools = still
  if (draft.live?.turnId === event.turnId) draft.live = null
  const paths = draft.turnFiles.get(event.turnId)
  if (paths !== undefined && paths.length > 0) {
    push(draft, { kind: 'changes', key: `changes:${event.turnId}`, seq: event.seq, turnId: event.turnId, paths, revision: latestRestore(draft) })
  }
  if (event.reason === 'completed') return
  push(draft, { kind: 'turn-end', key: `e:${event.seq}`, seq: event.seq, turnId: event.turnId, reason: event.reason, ...opt('error', event.error) })
}

/** A revert or rewind changed files on disk: every changes card asks for its files' state again. */
function bumpChanges(draft: Draft, seq: number): void {
  draft.items.forEach((item, i) => {
    if (item.kind === 'changes') draft.items[i] = { ...item, revision: seq }
  })
}

function latestRestore(draft: Draft): number {
  for (let i = draft.items.length - 1; i >= 0; i--) {
    const item = draft.items[i]
    if (item.kind === 'revert' || item.kind === 'rewind') return item.seq
  }
  return 0
}

/** Whether the row of the event at `seq` is in a span a rewind took out of the model's history. */
export function isRewound(transcript: Pick<Transcript, 'rewound'>, seq: number): boolean {
  return transcript.rewound.some((span) => seq >= span.from && seq < span.to)
}

// ---- helpers -----------------------------------------------------------------------------------

function push(draft: Draft, item: TranscriptItem): void {
  draft.items.push(item)
}

function findTool(draft: Draft, token: string, toolKey?: string): ToolCardItem | undefined {
  let at = draft.index.get(`token:${token}`)
  if (at === undefined && toolKey) at = draft.index.get(toolKey)
  const item = at === undefined ? undefined : draft.items[at]
  return item?.kind === 'tool' ? item : undefined
}

function newCard(draft: Draft, seq: number, turnId: string, callId: string, name: string, args: Record<string, unknown>): ToolCardItem {
  const at = draft.items.length
  draft.index.set(`tool:${turnId}:${callId}`, at)
  draft.openTools.push(at)
  const card: ToolCardItem = { kind: 'tool', key: `t:${turnId}:${callId}`, seq, turnId, callId, name, args, status: 'pending' }
  push(draft, card)
  return card
}

function replaceTool(draft: Draft, card: ToolCardItem, token: string): void {
  const at = draft.index.get(`token:${token}`) ?? draft.index.get(`tool:${card.turnId}:${card.callId}`)
  if (at === undefined) throw new Error(`buildTranscript: tool card ${card.callId} is not indexed`)
  draft.index.set(`token:${token}`, at)
  draft.items[at] = card
}

function resultStatus(event: SessionEventOf<'tool/result'>, card: ToolCardItem): { status: ToolStatus; reason?: string } {
  // A call the pipeline could not even seal (no such tool, e.g. a disabled plugin's; malformed
  // arguments) was not refused by anyone: it is an error, with the pipeline's reason.
  if (event.verdict.stage === 'seal' && (event.code === 'INVALID_ARGS' || (event.code === 'UNKNOWN_TOOL' && event.verdict.reason?.startsWith('unknown tool')))) {
    return { status: 'error', reason: event.content }
  }
  if (event.verdict.outcome === 'denied') {
    const reason = event.verdict.reason ?? (event.verdict.approval ? describeApproval(event.verdict.approval, card.approval?.note) : undefined) ?? card.statusReason
    return { status: 'denied', reason: reason ?? event.content }
  }
  if (event.code === 'TIMEOUT') return { status: 'timeout' }
  if (event.code === 'CANCELLED') return { status: 'cancelled' }
  return { status: event.isError ? 'error' : 'done' }
}

function modelContextText(event: SessionEventOf<'model/context'>): string {
  const tools = event.tools.map((t) => t.name).join(', ')
  return `${event.system}\n\nTools: ${tools || 'none'}`
}

/** An approval outcome in words, as the card shows it. */
export function describeApproval(outcome: string, note?: string): string {
  const suffix = note ? `: ${note}` : ''
  if (outcome === 'denied') return `denied by the user${suffix}`
  if (outcome === 'cancelled') return `the approval was cancelled${suffix}`
  if (outcome === 'unavailable') return `nobody could answer the approval${suffix}`
  return `${outcome}${suffix}`
}

/** `{ key: value }` when value is defined, `{}` otherwise (exactOptional-friendly spreads). */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}
