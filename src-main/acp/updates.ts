// Session events -> ACP `session/update`s. One mapper per ACP session: live, it turns the durable
// events a turn appends (plus the streamed deltas) into updates; on `session/load` it replays the
// whole log through the same code, so the editor shows what the app shows.
import type { SessionUpdate, StopReason, ToolCallContent } from '@agentclientprotocol/sdk'
import type { SessionEvent, SessionEventOf } from '../../src-shared/session/events'
import type { AgentDelta } from '../agent/events'
import { replaceExact } from '../tools/builtin/edit'
import { toolView } from './tool-view'

export interface UpdateMapperOptions {
  /** The session's workspace: relative tool paths resolve against it. */
  cwd: string
  /** The client showed it can present `notice` updates (`clientCapabilities.session.notices`). */
  notices: boolean
}

/** ACP wants tool call ids unique within the session; a model's ids are only unique within a turn. */
export function toolCallIdOf(turnId: string, callId: string): string {
  return `${turnId}/${callId}`
}

/** The lines of a running subagent's progress shown in its Agent call's content. */
const SUBAGENT_PROGRESS_LINES = 6

interface SubagentProgress {
  /** The Agent call's ACP id, once its `subagent/start` was seen. */
  toolCallId?: string
  lines: string[]
  /** Index in `lines` of each child call's line, by its callId, to mark it done or failed. */
  calls: Map<string, number>
  /** The first line dropped when the list is trimmed (`lines` keeps the newest). */
  dropped: number
}

export class UpdateMapper {
  /** Calls announced with a `tool_call`, by ACP tool call id. */
  private readonly announced = new Set<string>()
  /** ACP ids of the session's sealed calls, by token (a subagent's start names its Agent call by token). */
  private readonly byToken = new Map<string, string>()
  private readonly subagents = new Map<string, SubagentProgress>()

  constructor(private readonly options: UpdateMapperOptions) {}

  /** A streamed fragment of the assistant's message (live only; the log keeps the whole text). */
  fromDelta(delta: AgentDelta): SessionUpdate[] {
    if (delta.text === '') return []
    const messageId = `${delta.turnId}/${delta.step}`
    return [{ sessionUpdate: delta.kind === 'text' ? 'agent_message_chunk' : 'agent_thought_chunk', messageId, content: { type: 'text', text: delta.text } }]
  }

  /**
   * The updates one durable event makes. `replay` adds what a live client already has: the
   * user's prompts and the assistant's text (streamed as deltas while the turn ran).
   */
  fromEvent(event: SessionEvent, mode: 'live' | 'replay'): SessionUpdate[] {
    switch (event.type) {
      case 'user/message':
        return mode === 'replay' ? [userChunk(event.originalContent ?? event.content, `${event.turnId}/user/${event.seq}`)] : []
      case 'steering/message':
        return mode === 'replay' && event.source === 'user' ? [userChunk(event.text, `${event.turnId}/user/${event.seq}`)] : []
      case 'assistant/message':
        return this.assistant(event, mode)
      case 'tool/call':
        return this.sealed(event)
      case 'tool/result':
        return this.result(event)
      case 'prompt/blocked':
        return [
          {
            sessionUpdate: 'agent_message_chunk',
            messageId: `${event.turnId}/blocked/${event.seq}`,
            content: { type: 'text', text: `Prompt blocked${event.by ? ` by ${event.by}` : ''}: ${event.reason}` }
          }
        ]
      case 'notice':
        return [this.notice(event)]
      case 'subagent/start':
        return this.subagentStarted(event)
      default:
        return []
    }
  }

  /** Whether a call was announced to the editor (a subagent's call it was asked about). */
  isAnnounced(toolCallId: string): boolean {
    return this.announced.has(toolCallId)
  }

  markAnnounced(toolCallId: string): void {
    this.announced.add(toolCallId)
  }

  /** A subagent started: its Agent call is in progress, and says which subagent runs it (`_meta.seam.subagent`). */
  private subagentStarted(event: SessionEventOf<'subagent/start'>): SessionUpdate[] {
    const toolCallId = this.byToken.get(event.token)
    if (!toolCallId) return []
    const progress = this.progressOf(event.agentId)
    progress.toolCallId = toolCallId
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'in_progress',
        kind: 'think',
        title: `${event.agentType}: ${event.description}`,
        _meta: { seam: { subagent: { agentId: event.agentId, agentType: event.agentType, description: event.description } } }
      },
      ...this.progressUpdate(progress)
    ]
  }

  /**
   * An event of a running subagent's own log: its Agent call's content becomes the subagent's
   * latest steps (its tool calls, marked done or failed, and its text), as a progress update.
   */
  fromSubagentEvent(agentId: string, event: SessionEvent): SessionUpdate[] {
    const progress = this.progressOf(agentId)
    const add = (line: string): number => {
      progress.lines.push(line)
      while (progress.lines.length > SUBAGENT_PROGRESS_LINES) {
        progress.lines.shift()
        progress.dropped++
      }
      return progress.dropped + progress.lines.length - 1
    }
    switch (event.type) {
      case 'assistant/message':
        if (event.text.trim() !== '') add(oneLine(event.text))
        for (const call of event.toolCalls) progress.calls.set(call.id, add(`… ${toolView(call.name, call.args, this.options.cwd).title}`))
        break
      case 'tool/result': {
        const at = progress.calls.get(event.callId)
        const line = at === undefined ? undefined : at - progress.dropped
        const mark = event.isError ? '✗' : '✓'
        if (line !== undefined && line >= 0) progress.lines[line] = `${mark}${progress.lines[line].slice(1)}`
        else add(`${mark} ${event.name}`)
        break
      }
      case 'notice':
        if (event.level !== 'info') add(`! ${oneLine(event.text)}`)
        break
      default:
        return []
    }
    return this.progressUpdate(progress)
  }

  private progressOf(agentId: string): SubagentProgress {
    let progress = this.subagents.get(agentId)
    if (!progress) this.subagents.set(agentId, (progress = { lines: [], calls: new Map(), dropped: 0 }))
    return progress
  }

  private progressUpdate(progress: SubagentProgress): SessionUpdate[] {
    if (!progress.toolCallId || progress.lines.length === 0) return []
    return [{ sessionUpdate: 'tool_call_update', toolCallId: progress.toolCallId, status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: progress.lines.join('\n') } }] }]
  }

  private assistant(event: SessionEventOf<'assistant/message'>, mode: 'live' | 'replay'): SessionUpdate[] {
    const updates: SessionUpdate[] = []
    const messageId = `${event.turnId}/${event.step}`
    if (mode === 'replay') {
      if (event.thinking) updates.push({ sessionUpdate: 'agent_thought_chunk', messageId, content: { type: 'text', text: event.thinking } })
      if (event.text) updates.push({ sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text: event.text } })
    }
    for (const call of event.toolCalls) {
      const toolCallId = toolCallIdOf(event.turnId, call.id)
      this.announced.add(toolCallId)
      const view = toolView(call.name, call.args, this.options.cwd)
      updates.push({ sessionUpdate: 'tool_call', toolCallId, status: 'pending', rawInput: call.args, ...view })
    }
    return updates
  }

  /** The identity is sealed: `rawInput` becomes the arguments that will run (after an S18 rewrite). */
  private sealed(event: SessionEventOf<'tool/call'>): SessionUpdate[] {
    const toolCallId = toolCallIdOf(event.turnId, event.callId)
    this.byToken.set(event.token, toolCallId)
    const view = toolView(event.name, event.args, this.options.cwd)
    const meta = event.originalArgs ? { _meta: { seam: { originalArgs: event.originalArgs, rewrittenBy: event.rewrittenBy ?? null } } } : {}
    const updates: SessionUpdate[] = []
    if (this.announced.has(toolCallId)) {
      updates.push({ sessionUpdate: 'tool_call_update', toolCallId, rawInput: event.args, ...view, ...meta })
    } else {
      // A call no assistant message announced (a nested call): announce it now.
      this.announced.add(toolCallId)
      updates.push({ sessionUpdate: 'tool_call', toolCallId, status: 'pending', rawInput: event.args, ...view, ...meta })
    }
    return updates
  }

  private result(event: SessionEventOf<'tool/result'>): SessionUpdate[] {
    const toolCallId = toolCallIdOf(event.turnId, event.callId)
    const updates: SessionUpdate[] = []
    if (!this.announced.has(toolCallId)) {
      this.announced.add(toolCallId)
      updates.push({ sessionUpdate: 'tool_call', toolCallId, status: 'pending', title: event.name, kind: toolView(event.name, {}, this.options.cwd).kind })
    }
    const content: ToolCallContent[] = []
    const diff = event.isError ? undefined : diffOf(event.name, event.structured)
    if (diff) content.push(diff.content)
    if (event.content) content.push({ type: 'content', content: { type: 'text', text: event.content } })
    updates.push({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: event.isError ? 'failed' : 'completed',
      content,
      ...(diff?.line !== undefined ? { locations: [{ path: diff.content.path, line: diff.line }] } : {}),
      ...(event.code ? { _meta: { seam: { code: event.code } } } : {})
    })
    const plan = event.isError ? undefined : planOf(event.name, event.structured)
    if (plan) updates.push(plan)
    return updates
  }

  private notice(event: SessionEventOf<'notice'>): SessionUpdate {
    if (this.options.notices) {
      const [title, ...rest] = event.text.split('\n')
      return {
        sessionUpdate: 'notice',
        severity: event.level === 'warn' ? 'warning' : event.level,
        title: title || event.source,
        ...(rest.length > 0 ? { description: rest.join('\n') } : {})
      }
    }
    // Without notice support the text is its own agent message, so it never merges into the model's.
    return { sessionUpdate: 'agent_message_chunk', messageId: `notice/${event.seq}`, content: { type: 'text', text: `[${event.source}] ${event.text}` } }
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 160 ? `${line.slice(0, 159)}…` : line
}

function userChunk(text: string, messageId: string): SessionUpdate {
  return { sessionUpdate: 'user_message_chunk', messageId, content: { type: 'text', text } }
}

type DiffContent = Extract<ToolCallContent, { type: 'diff' }>

/** Write and Edit results carry the file before and after (Claude Code's tool_response fields). */
export function diffOf(tool: string, structured: unknown): { content: DiffContent; line?: number } | undefined {
  if (!structured || typeof structured !== 'object') return undefined
  const s = structured as Record<string, unknown>
  if (typeof s.filePath !== 'string') return undefined
  const line = firstChangedLine(s.structuredPatch)
  if (tool === 'Write' && typeof s.content === 'string') {
    const oldText = s.type === 'create' || typeof s.originalFile !== 'string' ? null : s.originalFile
    return { content: { type: 'diff', path: s.filePath, oldText, newText: s.content }, line }
  }
  if (tool === 'Edit' && typeof s.originalFile === 'string' && typeof s.oldString === 'string' && typeof s.newString === 'string') {
    const after = s.oldString === '' ? s.newString : replaceExact(s.originalFile, s.oldString, s.newString, s.replaceAll === true)
    if (typeof after !== 'string') return undefined
    const created = s.oldString === '' && s.originalFile === ''
    return { content: { type: 'diff', path: s.filePath, oldText: created ? null : s.originalFile, newText: after }, line }
  }
  return undefined
}

function firstChangedLine(patch: unknown): number | undefined {
  if (!Array.isArray(patch) || patch.length === 0) return undefined
  const hunk = patch[0] as { newStart?: unknown; lines?: unknown }
  if (typeof hunk.newStart !== 'number') return undefined
  // A hunk starts with up to 3 lines of context: point at the first changed line.
  const lines = Array.isArray(hunk.lines) ? (hunk.lines as unknown[]) : []
  const context = lines.findIndex((l) => typeof l === 'string' && (l.startsWith('+') || l.startsWith('-')))
  return hunk.newStart + Math.max(0, context)
}

const PLAN_STATUS = new Set(['pending', 'in_progress', 'completed'])
const PLAN_PRIORITY = new Set(['high', 'medium', 'low'])

/**
 * The list a successful TodoWrite wrote (its result's `newTodos`, Claude Code's tool_response) is
 * the agent's plan. Read from the result, not the call: a refused or blocked write is not the plan.
 */
export function planOf(tool: string, structured: unknown): SessionUpdate | undefined {
  if (tool !== 'TodoWrite' || !structured || typeof structured !== 'object') return undefined
  const todos = (structured as Record<string, unknown>).newTodos
  if (!Array.isArray(todos)) return undefined
  const entries = []
  for (const todo of todos as unknown[]) {
    if (!todo || typeof todo !== 'object') return undefined
    const t = todo as Record<string, unknown>
    if (typeof t.content !== 'string' || typeof t.status !== 'string' || !PLAN_STATUS.has(t.status)) return undefined
    const priority = typeof t.priority === 'string' && PLAN_PRIORITY.has(t.priority) ? t.priority : 'medium'
    entries.push({ content: t.content, status: t.status as 'pending' | 'in_progress' | 'completed', priority: priority as 'high' | 'medium' | 'low' })
  }
  return { sessionUpdate: 'plan', entries }
}

/**
 * The ACP stop reason of a finished turn, or the error the prompt request fails with. S21: a
 * turn whose prompts were all blocked (`rejected`) ends `cancelled`.
 */
export function stopReasonOf(end: SessionEventOf<'turn/end'>, lastAssistant: SessionEventOf<'assistant/message'> | undefined): { stopReason: StopReason } | { error: string } {
  switch (end.reason) {
    case 'completed':
      if (lastAssistant?.stopReason === 'max_tokens') return { stopReason: 'max_tokens' }
      if (lastAssistant?.stopReason === 'refusal') return { stopReason: 'refusal' }
      return { stopReason: 'end_turn' }
    case 'max_steps':
      return { stopReason: 'max_turn_requests' }
    case 'rejected':
    case 'cancelled':
      return { stopReason: 'cancelled' }
    case 'error':
      return { error: end.error ?? 'the turn failed' }
  }
}
