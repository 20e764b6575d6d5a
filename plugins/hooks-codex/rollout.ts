// The file behind a Codex hook's `transcript_path` (codex-hooks.md §4: the thread's rollout
// JSONL). Derived from the session's own log, in Codex's rollout line shape
// `{timestamp, type, payload}`: `session_meta` first, then `response_item` messages, function
// calls and their outputs, `event_msg` user/agent messages and `token_count`s, `compacted` for a
// compaction; a rewind appends Codex's `thread_rolled_back` with the number of turns it took back
// (rollouts are append-only). `sync()` appends what the log gained since the last call, in one
// write, right before hooks start.
import path from 'node:path'
import type { SessionEvent } from '@seam/sdk'
import { LogMirror } from '../hook-protocol/log-mirror'

/** The Codex version whose rollout format this follows. */
export const CODEX_ROLLOUT_VERSION = '0.171.0'

export interface RolloutSession {
  readonly sessionId: string
  readonly cwd: string
  readonly transcriptPath: string
  readonly events: readonly SessionEvent[]
}

/** `<folder of the session log>/codex-rollouts/rollout-<session id>.jsonl`. */
export function codexRolloutPath(session: Pick<RolloutSession, 'sessionId' | 'transcriptPath'>): string {
  return path.join(path.dirname(session.transcriptPath), 'codex-rollouts', `rollout-${session.sessionId}.jsonl`)
}

/** A subagent's rollout (Codex's child thread): beside its own log, `codex-rollouts/rollout-<agent id>.jsonl`. */
export function subagentRolloutPath(child: Pick<RolloutSession, 'transcriptPath'>, agentId: string): string {
  return path.join(path.dirname(child.transcriptPath), 'codex-rollouts', `rollout-${agentId}.jsonl`)
}

/** The rollout behind a state's `transcript_path`: the session's, or a subagent's own. */
export function rolloutPathOf(state: { agent: Pick<RolloutSession, 'sessionId' | 'transcriptPath'>; subagent?: { identity: { agentId: string } } }): string {
  return state.subagent ? subagentRolloutPath(state.agent, state.subagent.identity.agentId) : codexRolloutPath(state.agent)
}

export class CodexRollout {
  readonly path: string
  private readonly mirror: LogMirror
  /** The thread's turns so far, oldest first: the seq of each turn's first user message and its turn id. */
  private readonly turns: Array<{ seq: number; turnId: string }> = []
  /** The session's token counts so far (token_count's `total_token_usage`). */
  private readonly total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 }

  constructor(session: Pick<RolloutSession, 'sessionId' | 'transcriptPath'>, file: string = codexRolloutPath(session)) {
    this.path = file
    this.mirror = new LogMirror(this.path)
  }

  sync(session: RolloutSession): void {
    this.mirror.sync(session.events, (event) => {
      const timestamp = new Date(event.ts).toISOString()
      return this.itemsFor(event, session).map(([type, payload]) => ({ timestamp, type, payload }))
    })
  }

  private itemsFor(event: SessionEvent, session: RolloutSession): RolloutItem[] {
    if (event.type === 'user/message' && this.turns[this.turns.length - 1]?.turnId !== event.turnId) this.turns.push({ seq: event.seq, turnId: event.turnId })
    if (event.type === 'usage/step') return event.purpose === 'compaction' ? [] : [this.tokenCount(event)]
    if (event.type !== 'rewind') return itemsFor(event, session)
    // Rewinding to a message takes back its turn and every later one.
    const from = this.turns.findIndex((turn) => turn.seq >= event.toSeq)
    if (from < 0) return []
    const taken = this.turns.splice(from)
    return [['event_msg', { type: 'thread_rolled_back', num_turns: taken.length }]]
  }

  /** A request's token counts as Codex records them: this request's and the session's running total (cached and reasoning tokens are part of input and output). */
  private tokenCount(event: Extract<SessionEvent, { type: 'usage/step' }>): RolloutItem {
    const { inputTokens, cachedInputTokens, outputTokens, reasoningTokens } = event.usage
    const last = { input_tokens: inputTokens, cached_input_tokens: cachedInputTokens, output_tokens: outputTokens, reasoning_output_tokens: reasoningTokens, total_tokens: inputTokens + outputTokens }
    for (const key of Object.keys(this.total) as Array<keyof typeof last>) this.total[key] += last[key]
    const info: Record<string, unknown> = { total_token_usage: { ...this.total }, last_token_usage: last }
    if (event.contextWindow !== undefined) info.model_context_window = event.contextWindow
    return ['event_msg', { type: 'token_count', info, rate_limits: null }]
  }
}

type RolloutItem = [type: 'session_meta' | 'response_item' | 'event_msg' | 'compacted', payload: Record<string, unknown>]

function itemsFor(event: SessionEvent, session: RolloutSession): RolloutItem[] {
  switch (event.type) {
    case 'session/header':
      return [['session_meta', { id: session.sessionId, timestamp: new Date(event.createdAt).toISOString(), cwd: event.workspace, originator: 'seam', cli_version: CODEX_ROLLOUT_VERSION }]]
    case 'user/message':
      return userMessage(event.content, event.images)
    case 'assistant/message': {
      const items: RolloutItem[] = []
      if (event.text !== '') {
        items.push(['response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: event.text }] }])
        items.push(['event_msg', { type: 'agent_message', message: event.text }])
      }
      for (const call of event.toolCalls) items.push(['response_item', { type: 'function_call', name: call.name, arguments: JSON.stringify(call.args), call_id: call.id }])
      return items
    }
    case 'tool/result':
      return [['response_item', { type: 'function_call_output', call_id: event.callId, output: event.content }]]
    case 'compaction':
      // Codex appends the summary as a `compacted` line and tells its UI with `context_compacted`.
      return [
        ['compacted', { message: event.summary }],
        ['event_msg', { type: 'context_compacted' }]
      ]
    case 'steering/message':
      // A Stop block continues the turn with the hook's text as a user message (codex-hooks.md §5.1 Stop);
      // a message typed while the turn ran joins it as the user's, as Codex steers a running turn.
      if (event.source === 'user') return userMessage(event.text, event.images)
      return [['response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: event.text }] }]]
    default:
      return []
  }
}

/** A user message as Codex records it: the model input item, then the UI event (images as data URLs). */
function userMessage(text: string, images: ReadonlyArray<{ mediaType: string; data: string }> | undefined): RolloutItem[] {
  const urls = (images ?? []).map((image) => `data:${image.mediaType};base64,${image.data}`)
  const content: Array<Record<string, unknown>> = [{ type: 'input_text', text }, ...urls.map((url) => ({ type: 'input_image', image_url: url }))]
  const shown: Record<string, unknown> = { type: 'user_message', message: text, kind: 'plain' }
  if (urls.length > 0) shown.images = urls
  return [
    ['response_item', { type: 'message', role: 'user', content }],
    ['event_msg', shown]
  ]
}
