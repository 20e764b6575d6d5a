// The transcript behind `transcript_path` (claude-code-hooks.md §8): a JSON Lines file in Claude
// Code's format, derived from the session's own log, so hooks that read the last assistant
// message, the user's prompt or a tag find them. `sync()` appends what the log gained since the
// last call, in one write, and runs before every hook starts; lines are chained by uuid. A rewind
// branches the chain as Claude Code's does: the old lines stay, and the next line's parent is the
// line before the message rewound to, so a hook that walks back from the last line sees the
// conversation the model sees.
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import type { ToolResult } from '@seam/sdk'
import type { SessionEvent } from '@seam/sdk'
import { LogMirror } from '../hook-protocol/log-mirror'
import { currentGitBranch } from './git-branch'
import { claudeToolResponse } from './tool-response'

/** The Claude Code version whose transcript format this follows. */
export const CLAUDE_TRANSCRIPT_VERSION = '2.1.332'
const HOOK_SOURCE = /^hook:([A-Za-z]+)$/

export interface TranscriptSession {
  readonly sessionId: string
  readonly workspace: string
  readonly cwd: string
  readonly transcriptPath: string
  readonly events: readonly SessionEvent[]
}

/** `<folder of the session log>/claude-transcripts/<session id>.jsonl`: Claude Code's own folder is never touched. */
export function claudeTranscriptPath(session: Pick<TranscriptSession, 'sessionId' | 'transcriptPath'>): string {
  return path.join(path.dirname(session.transcriptPath), 'claude-transcripts', `${session.sessionId}.jsonl`)
}

/**
 * A subagent's transcript, where Claude Code keeps it: `<session transcript without .jsonl>/subagents/agent-<id>.jsonl`
 * (claude-code-extensions.md 1(a), SubagentStop's `agent_transcript_path`).
 */
export function subagentTranscriptPath(session: Pick<TranscriptSession, 'sessionId' | 'transcriptPath'>, agentId: string): string {
  return path.join(claudeTranscriptPath(session).replace(/\.jsonl$/, ''), 'subagents', `agent-${agentId}.jsonl`)
}

/** A subagent's transcript is a side chain: its lines say so and name the agent. */
export interface Sidechain {
  path: string
  agentId: string
}

export class ClaudeTranscript {
  readonly path: string
  private readonly mirror: LogMirror
  private parentUuid: string | null = null
  /** The chain's head before each user message's line, by the message's seq (where a rewind to it branches). */
  private readonly headBeforeMessage = new Map<number, string | null>()
  /** The assistant line that carries each tool_use, by call id (tool results point back at it). */
  private readonly toolUseLine = new Map<string, string>()
  private readonly gitBranch: string
  private model = ''

  constructor(
    session: Pick<TranscriptSession, 'sessionId' | 'transcriptPath' | 'workspace'>,
    private readonly sidechain?: Sidechain
  ) {
    this.path = sidechain?.path ?? claudeTranscriptPath(session)
    this.mirror = new LogMirror(this.path)
    this.gitBranch = currentGitBranch(session.workspace)
  }

  /** Appends the lines for the events the log gained; throws only when the file cannot be written. */
  sync(session: TranscriptSession, permissionMode: string): void {
    this.mirror.sync(session.events, (event) => this.linesFor(event, session, permissionMode))
  }

  remove(): void {
    rmSync(this.path, { force: true })
  }

  private linesFor(event: SessionEvent, session: TranscriptSession, permissionMode: string): Array<Record<string, unknown>> {
    const at = new Date(event.ts).toISOString()
    switch (event.type) {
      case 'session/header':
        this.model = event.model?.model ?? ''
        return []
      case 'model/switched':
        this.model = event.model
        return []
      case 'user/message':
        this.headBeforeMessage.set(event.seq, this.parentUuid)
        return [this.user(session, at, { message: { role: 'user', content: withImages(event.content, event.images) } }, { permissionMode, promptId: event.turnId })]
      case 'steering/message':
        // A continuation reason (Stop hook feedback) is a meta user line. A message typed while the
        // turn ran is what Claude Code records as a queued_command attachment (no user line).
        if (event.source === 'continuation') return [this.user(session, at, { isMeta: true, message: { role: 'user', content: event.text } }, { permissionMode })]
        return [this.line(session, at, 'attachment', { attachment: { type: 'queued_command', prompt: withImages(event.text, event.images), commandMode: 'prompt', origin: { kind: 'human' } } })]
      case 'assistant/message':
        return this.assistant(event, session, at)
      case 'tool/result':
        return [this.toolResult(event, session, at, permissionMode)]
      case 'rewind':
        if (this.headBeforeMessage.has(event.toSeq)) this.parentUuid = this.headBeforeMessage.get(event.toSeq)!
        return []
      case 'compaction':
        return this.compaction(event, session, at)
      case 'context/message': {
        // A channel message is a user turn from outside, with the origin Claude Code gives it.
        if (event.channel) return [this.user(session, at, { message: { role: 'user', content: event.text }, origin: { kind: 'channel', server: event.channel.server } }, { permissionMode })]
        const hook = HOOK_SOURCE.exec(event.source)
        if (!hook) return []
        const attachment = { type: 'hook_additional_context', content: [event.text], hookName: hook[1], hookEvent: hook[1] }
        return [this.line(session, at, 'attachment', { attachment })]
      }
      default:
        return []
    }
  }

  private assistant(event: Extract<SessionEvent, { type: 'assistant/message' }>, session: TranscriptSession, at: string): Array<Record<string, unknown>> {
    const blocks: Array<Record<string, unknown>> = []
    if (event.thinking) blocks.push({ type: 'thinking', thinking: event.thinking, signature: '' })
    if (event.text !== '') blocks.push({ type: 'text', text: event.text })
    for (const call of event.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args })
    const messageId = `msg_seam_${event.seq}`
    const stopReason = event.stopReason ?? (event.toolCalls.length > 0 ? 'tool_use' : 'end_turn')
    const step = usageOf(session.events, event)
    const usage = anthropicUsage(step?.usage)
    // The model that answered (a command's `model` runs one turn on another).
    const model = step?.model ?? this.model
    // One line per content block, as Claude Code writes them.
    return blocks.map((block) => {
      const message = {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [block],
        stop_reason: stopReason,
        stop_sequence: null,
        usage
      }
      const line = this.line(session, at, 'assistant', { message }, { requestId: `req_seam_${event.seq}` })
      if (block.type === 'tool_use') this.toolUseLine.set(String(block.id), String(line.uuid))
      return line
    })
  }

  /**
   * A compaction as Claude Code records one: a `compact_boundary` system line that starts a new
   * chain (`parentUuid` null, the old head in `logicalParentUuid`), then the summary as a user line
   * marked `isCompactSummary`. Hooks that read usage stop at the boundary (what came before is stale).
   */
  private compaction(event: Extract<SessionEvent, { type: 'compaction' }>, session: TranscriptSession, at: string): Array<Record<string, unknown>> {
    const logicalParent = this.parentUuid
    this.parentUuid = null
    const { parentUuid, ...rest } = this.line(session, at, 'system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      level: 'info',
      compactMetadata: { trigger: event.trigger, preTokens: event.tokensBefore ?? 0 }
    })
    // (line() keeps isMeta for user lines only; the boundary says false.)
    const boundary = { parentUuid, logicalParentUuid: logicalParent, ...rest, isMeta: false }
    const summary = this.user(session, at, { message: { role: 'user', content: [{ type: 'text', text: event.summary }] } }, { isVisibleInTranscriptOnly: true, isCompactSummary: true })
    return [boundary, summary]
  }

  private toolResult(event: Extract<SessionEvent, { type: 'tool/result' }>, session: TranscriptSession, at: string, permissionMode: string): Record<string, unknown> {
    const result: ToolResult = { content: event.content, isError: event.isError }
    if (event.structured !== undefined) result.structured = event.structured as ToolResult['structured']
    const message = { role: 'user', content: [{ tool_use_id: event.callId, type: 'tool_result', content: event.content, is_error: event.isError }] }
    // Claude Code records a failed call's structured result as its error text.
    const toolUseResult = event.isError ? `Error: ${event.content}` : claudeToolResponse(event.name, result)
    const extra: Record<string, unknown> = { permissionMode, toolUseResult }
    const source = this.toolUseLine.get(event.callId)
    if (source !== undefined) extra.sourceToolAssistantUUID = source
    return this.user(session, at, { message }, extra)
  }

  private user(session: TranscriptSession, at: string, body: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
    return this.line(session, at, 'user', body, extra)
  }

  /** A chained line with Claude Code's common fields, in its key order. */
  private line(session: TranscriptSession, at: string, type: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const uuid = randomUUID()
    const line: Record<string, unknown> = {
      parentUuid: this.parentUuid,
      isSidechain: this.sidechain !== undefined,
      userType: 'external',
      cwd: session.cwd,
      sessionId: session.sessionId,
      version: CLAUDE_TRANSCRIPT_VERSION,
      gitBranch: this.gitBranch
    }
    if (this.sidechain) line.agentId = this.sidechain.agentId
    if (type === 'user' && body.isMeta === true) line.isMeta = true
    line.type = type
    for (const [key, value] of Object.entries(body)) if (key !== 'isMeta') line[key] = value
    line.uuid = uuid
    line.timestamp = at
    Object.assign(line, extra)
    this.parentUuid = uuid
    return line
  }
}

type UsageStep = Extract<SessionEvent, { type: 'usage/step' }>

/** The request's usage/step, which the loop logs right after the assistant message (seq is the 1-based position in the log). */
function usageOf(events: readonly SessionEvent[], message: Extract<SessionEvent, { type: 'assistant/message' }>): UsageStep | undefined {
  for (let i = message.seq; i < Math.min(events.length, message.seq + 3); i++) {
    const event = events[i]
    if (event?.type === 'usage/step' && event.turnId === message.turnId && event.step === message.step && event.purpose !== 'compaction') return event
  }
  return undefined
}

/** Anthropic's usage object: `input_tokens` leaves out the prompt's cache reads and writes, counted apart. */
function anthropicUsage(usage: UsageStep['usage'] | undefined): Record<string, number> {
  if (!usage) return { input_tokens: 0, output_tokens: 0 }
  const written = usage.cacheWriteTokens ?? 0
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens - written),
    cache_creation_input_tokens: written,
    cache_read_input_tokens: usage.cachedInputTokens,
    output_tokens: usage.outputTokens
  }
}

/** A message's text, or Anthropic content blocks (images, then the text) when it carried images. */
function withImages(text: string, images: ReadonlyArray<{ mediaType: string; data: string }> | undefined): string | Array<Record<string, unknown>> {
  if (!images?.length) return text
  const blocks: Array<Record<string, unknown>> = images.map((image) => ({ type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } }))
  if (text !== '') blocks.push({ type: 'text', text })
  return blocks
}
