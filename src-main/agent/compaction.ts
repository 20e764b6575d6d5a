// Compaction: the model summarises the history, and a durable `compaction` event replaces it, so
// every later request is derived from the summary and what follows (history.ts). The log keeps
// every replaced event for the UI. Seams: `compaction/prepare` (waterfall: extend the prompt or
// cancel; Claude Code's PreCompact), then `agent/session-start` with source `compact` (its
// context lands after the summary), then `compaction/done` (PostCompact).
import type { CompactionDecision, CompactionRequest, CompactionTrigger } from '../../src-shared/host/context'
import '../../src-shared/host/context'
import { ModelError, type ModelMessage, type ModelRequest } from '../../src-shared/model'
import type { SessionEvent } from '../../src-shared/session/events'
import { buildModelRequestFor, type LoopDeps } from './step'
import { readModelStream } from './stream'
import { logUsage } from './usage'

/** The built-in sections of the summarisation prompt; `compaction/prepare` listeners may add or replace sections. */
export const COMPACTION_PROMPT_SECTIONS: readonly string[] = [
  'Stop the work for a moment and write a summary of this conversation. The summary will replace the conversation: afterwards you continue with only the summary, the system prompt and the instructions files, so write what you need to carry on without losing anything.',
  'Cover: what the user asked for and why, in their words where the wording matters; the decisions taken and their reasons; the files read or changed, with the details that matter (names, functions, snippets); the commands run and what they showed; errors met and how they were resolved; what is done, what is in progress, and the very next step.',
  'Answer with the summary as plain text. Do not call any tool.'
]

export type CompactionOutcome =
  | { compacted: true; summary: string; event: Extract<SessionEvent, { type: 'compaction' }> }
  /** `empty`: nothing to summarise yet; `cancelled`: a compaction/prepare listener (PreCompact) cancelled it. */
  | { compacted: false; why: 'empty' | 'cancelled'; reason: string }

/** What Claude Code answers `/compact` with when the conversation has nothing to summarise yet. */
export const NOTHING_TO_COMPACT = 'Not enough messages to compact.'

export interface CompactOptions {
  trigger: CompactionTrigger
  instructions?: string
  turnId?: string
  signal: AbortSignal
}

/** How many times the summary request is retried with the oldest messages dropped when it is itself too long. */
const SUMMARY_SHRINK_ATTEMPTS = 3

export async function compact(deps: LoopDeps, options: CompactOptions): Promise<CompactionOutcome> {
  const { kernel, log, handle } = deps
  const initial: CompactionRequest = {
    trigger: options.trigger,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    promptSections: [...COMPACTION_PROMPT_SECTIONS]
  }
  const decision = checkDecision(
    await kernel.waterfall('compaction/prepare', handle, initial, async (): Promise<CompactionDecision> => ({ action: 'proceed', request: initial }))
  )
  if (decision.action === 'cancel') {
    log.append({ type: 'notice', ...turnField(options.turnId), level: 'info', text: `Compaction cancelled${decision.by ? ` by ${decision.by}` : ''}: ${decision.reason}`, source: 'compaction' })
    return { compacted: false, why: 'cancelled', reason: decision.reason }
  }
  // As in Claude Code, PreCompact runs (above) even when there turns out to be nothing to compact.
  const request = buildModelRequestFor(log)
  if (request.messages.length < 2) return { compacted: false, why: 'empty', reason: NOTHING_TO_COMPACT }

  const tokensBefore = estimateTokens(request)
  let messages = request.messages
  let summary: string | undefined
  for (let attempt = 0; summary === undefined; attempt++) {
    const reply = await readModelStream(deps.model, summaryRequest(request, messages, decision.request), options.signal, () => {})
    if (reply.error !== undefined) {
      const tooLong = reply.error instanceof ModelError && reply.error.kind === 'context_length'
      const shorter = tooLong && attempt < SUMMARY_SHRINK_ATTEMPTS ? dropOldest(messages) : undefined
      if (shorter === undefined) throw reply.error
      messages = shorter
      continue
    }
    if (reply.usage !== undefined) logUsage(deps, options.turnId, 0, reply.usage, 'compaction')
    summary = reply.text.trim()
    if (summary === '') throw new ModelError('bad_response', 'The model answered the compaction request with an empty summary; the history was kept.')
  }

  const first = firstSeqAfterLastCompaction(log.events)
  const last = log.events[log.events.length - 1]
  log.append({
    type: 'compaction',
    ...turnField(options.turnId),
    trigger: options.trigger,
    ...(decision.request.instructions ? { instructions: decision.request.instructions } : {}),
    summary,
    fromSeq: first,
    toSeq: last.seq,
    replacedMessages: request.messages.length,
    tokensBefore,
    tokensAfter: Math.ceil((request.system.length + JSON.stringify(request.tools).length + summary.length) / 4)
  })
  const event = log.events[log.events.length - 1] as Extract<SessionEvent, { type: 'compaction' }>
  await log.flush()
  // As in Claude Code: SessionStart (source compact) runs after the summary, and what it adds follows it.
  await kernel.parallel('agent/session-start', handle, 'compact')
  await kernel.parallel('compaction/done', handle, options.trigger, summary)
  return { compacted: true, summary, event }
}

/** Whether the next request would fill more than `threshold` of the context window (the provider's last count plus an estimate of what came since). */
export function wouldOverflow(deps: LoopDeps): boolean {
  const { contextWindow } = deps.modelInfo()
  const { auto, threshold } = deps.settings.compaction
  if (!auto || contextWindow === undefined) return false
  const tokens = nextRequestTokens(deps.log.events, () => estimateTokens(buildModelRequestFor(deps.log)))
  return tokens !== undefined && tokens > threshold * contextWindow
}

/**
 * The last usage/step's prompt and answer plus a quarter of the characters of model-visible text
 * since; the estimate of the whole request when no request was counted yet. Undefined right after
 * a compaction (no request since): compacting again could not help.
 */
export function nextRequestTokens(events: readonly SessionEvent[], estimateAll: () => number): number | undefined {
  let since = 0
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]
    if (event.type === 'compaction') return undefined
    // A rewind took text out of the history: counts from before it no longer describe the request.
    if (event.type === 'rewind') return estimateAll()
    if (event.type === 'usage/step' && event.purpose !== 'compaction') return event.usage.inputTokens + event.usage.outputTokens + Math.ceil(since / 4)
    since += visibleChars(event)
  }
  return estimateAll()
}

function visibleChars(event: SessionEvent): number {
  switch (event.type) {
    case 'user/message':
      return event.content.length
    case 'tool/result':
      return event.content.length
    case 'context/message':
    case 'steering/message':
    case 'instructions/loaded':
    case 'skill/loaded':
      return event.text.length
    case 'mentions/attached':
      return event.files.reduce((sum, file) => sum + (file.content?.length ?? 0), 0)
    default:
      return 0
  }
}

/** A quarter of the request's characters: the same rough count the fake servers use. */
export function estimateTokens(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
  return Math.ceil((request.system.length + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length) / 4)
}

function summaryRequest(base: ModelRequest, messages: ModelMessage[], request: CompactionRequest): ModelRequest {
  const sections = [...request.promptSections]
  if (request.instructions) sections.push(`Additional instructions for this summary:\n${request.instructions}`)
  const prompt = sections.join('\n\n')
  const out = messages.slice()
  const last = out[out.length - 1]
  if (last?.role === 'user') out[out.length - 1] = { role: 'user', content: `${last.content}\n\n${prompt}` }
  else out.push({ role: 'user', content: prompt })
  // The tools stay declared (providers expect the calls in the history to name known tools).
  return { system: base.system, messages: out, tools: base.tools }
}

export const OMITTED_NOTE = '[The beginning of this conversation was left out to fit the context window.]'

/**
 * The messages without their oldest quarter or so, cut before a user or assistant message (an
 * assistant message comes with its tool results, so no result loses its call), starting with a
 * user note saying so. Undefined when nothing more can go.
 */
function dropOldest(messages: ModelMessage[]): ModelMessage[] | undefined {
  // From index 2 on, the result (with its note) is always shorter than the input.
  for (let i = Math.max(2, Math.floor(messages.length / 4)); i < messages.length - 1; i++) {
    const message = messages[i]
    if (message.role === 'user') return [{ role: 'user', content: `${OMITTED_NOTE}\n\n${message.content}` }, ...messages.slice(i + 1)]
    if (message.role === 'assistant') return [{ role: 'user', content: OMITTED_NOTE }, ...messages.slice(i)]
  }
  return undefined
}

function firstSeqAfterLastCompaction(events: readonly SessionEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === 'compaction') return events[i].seq + 1
  return 1
}

function turnField(turnId: string | undefined): { turnId?: string } {
  return turnId === undefined ? {} : { turnId }
}

function checkDecision(value: unknown): CompactionDecision {
  const d = value as Partial<CompactionDecision> | undefined
  if (d?.action === 'cancel' && typeof d.reason === 'string') return d as CompactionDecision
  if (d?.action === 'proceed' && d.request && Array.isArray(d.request.promptSections) && d.request.promptSections.every((s) => typeof s === 'string')) {
    return d as CompactionDecision
  }
  throw new Error(`compaction/prepare: a listener returned ${JSON.stringify(value)}; expected { action: 'proceed', request: { trigger, promptSections: string[] } } or { action: 'cancel', reason }`)
}
