// The copy and JSON line of the agent loop's three events per step (the assistant message, the
// tool call, the tool result), made by code written for their shapes: the generic walk
// (event-copy.ts) enumerates every key, looks its quoted text up and appends piece by piece, which
// cost the loop about 4 us per step (CPU profile, issue 26); this costs about 1.7 us. Only the
// values of unknown shape (arguments, `structured`) go through the generic walk.
//
// The result is what `append` would record (zod's output): the schema's fields, nothing else, and
// optional fields only when set. Anything of another shape (a field of the wrong type, a number
// JSON cannot hold as it is) falls back to the generic walk, which handles every value. With
// SEAM_CHECK_OWN_EVENTS=1 the log checks each entry against zod and its line against
// JSON.stringify (log.ts `checkOwn`).
import type { SessionEvent } from '../../src-shared/session/events'
import { copy, eventEntry, NOT_PLAIN, numberText, quote, tsText, type EventEntry } from './event-copy'

/** `eventEntry(fields, seq, ts)` for the loop's own events, faster for the three a step makes. */
export function ownEventEntry(fields: object, seq: number, ts: number): EventEntry | typeof NOT_PLAIN {
  const f = fields as Record<string, unknown>
  let entry: EventEntry | undefined
  // A validated event (it has `seq`) keeps its own key order: the generic walk does that.
  if (f.seq === undefined) {
    switch (f.type) {
      case 'tool/result':
        entry = toolResult(f, seq, ts)
        break
      case 'tool/call':
        entry = toolCall(f, seq, ts)
        break
      case 'assistant/message':
        entry = assistantMessage(f, seq, ts)
        break
    }
  }
  return entry ?? eventEntry(fields, seq, ts)
}

/** A number whose JSON text reads back as the same number (not NaN, an infinity or -0). */
function plainNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)
}

function head(type: string, seq: number, ts: number): string {
  return `{"type":"${type}","seq":${numberText(seq)},"ts":${tsText(ts)}`
}

/** The copy of a JSON value and its text after `prefix`; undefined when it is not plain. */
function jsonValue(value: unknown, prefix: string): { value: unknown; json: string } | undefined {
  const into = { json: prefix }
  const copied = copy(value, 1, into)
  return copied === NOT_PLAIN ? undefined : { value: copied, json: into.json }
}

function toolResult(f: Record<string, unknown>, seq: number, ts: number): EventEntry | undefined {
  const { turnId, callId, token, name, content, isError, verdict, durationMs, code, structured } = f
  if (typeof turnId !== 'string' || typeof callId !== 'string' || typeof token !== 'string' || typeof name !== 'string') return undefined
  if (typeof content !== 'string' || typeof isError !== 'boolean' || !plainNumber(durationMs)) return undefined
  const decided = verdictEntry(verdict)
  if (decided === undefined) return undefined
  const event: Record<string, unknown> = { type: 'tool/result', seq, ts, turnId, callId, token, name, content, isError, verdict: decided.value, durationMs }
  let json = `${head('tool/result', seq, ts)},"turnId":${quote(turnId)},"callId":${quote(callId)},"token":${quote(token)},"name":${quote(name)},"content":${quote(content)},"isError":${isError ? 'true' : 'false'},"verdict":${decided.json},"durationMs":${numberText(durationMs)}`
  const withCode = withText(event, json, 'code', code)
  if (withCode === undefined) return undefined
  json = withCode
  if (structured !== undefined) {
    const copied = jsonValue(structured, `${json},"structured":`)
    if (copied === undefined) return undefined
    event.structured = copied.value
    json = copied.json
  }
  return { event: event as unknown as SessionEvent, json: `${json}}` }
}

/**
 * Sets the optional text field `key` (a plain name: no escaping) on `event` when `text` is given,
 * and appends it to `json`; undefined when it is given but not a string. Called with a literal key
 * and a value read by name, so it inlines to the straight code it stands for.
 */
function withText(event: Record<string, unknown>, json: string | undefined, key: string, text: unknown): string | undefined {
  if (json === undefined || text === undefined) return json
  if (typeof text !== 'string') return undefined
  event[key] = text
  return `${json},"${key}":${quote(text)}`
}

function verdictEntry(verdict: unknown): { value: Record<string, string>; json: string } | undefined {
  if (typeof verdict !== 'object' || verdict === null) return undefined
  const { outcome, stage } = verdict as Record<string, unknown>
  if (typeof outcome !== 'string' || typeof stage !== 'string') return undefined
  const { reason, by, approval } = verdict as Record<string, unknown>
  const value: Record<string, string> = { outcome, stage }
  const json = withText(value, withText(value, withText(value, `{"outcome":${quote(outcome)},"stage":${quote(stage)}`, 'reason', reason), 'by', by), 'approval', approval)
  return json === undefined ? undefined : { value, json: `${json}}` }
}

function toolCall(f: Record<string, unknown>, seq: number, ts: number): EventEntry | undefined {
  const { turnId, callId, token, name, args, originalArgs, rewrittenBy, parent } = f
  if (typeof turnId !== 'string' || typeof callId !== 'string' || typeof token !== 'string' || typeof name !== 'string') return undefined
  if (!isObject(args)) return undefined
  const copied = jsonValue(args, `${head('tool/call', seq, ts)},"turnId":${quote(turnId)},"callId":${quote(callId)},"token":${quote(token)},"name":${quote(name)},"args":`)
  if (copied === undefined) return undefined
  const event: Record<string, unknown> = { type: 'tool/call', seq, ts, turnId, callId, token, name, args: copied.value }
  let json = copied.json
  if (originalArgs !== undefined) {
    if (!isObject(originalArgs)) return undefined
    const original = jsonValue(originalArgs, `${json},"originalArgs":`)
    if (original === undefined) return undefined
    event.originalArgs = original.value
    json = original.json
  }
  const withTexts = withText(event, withText(event, json, 'rewrittenBy', rewrittenBy), 'parent', parent)
  return withTexts === undefined ? undefined : { event: event as unknown as SessionEvent, json: `${withTexts}}` }
}

function assistantMessage(f: Record<string, unknown>, seq: number, ts: number): EventEntry | undefined {
  const { turnId, step, text, toolCalls, thinking, partial, stopReason } = f
  if (typeof turnId !== 'string' || !plainNumber(step) || typeof text !== 'string' || !Array.isArray(toolCalls)) return undefined
  let json = `${head('assistant/message', seq, ts)},"turnId":${quote(turnId)},"step":${numberText(step)},"text":${quote(text)},"toolCalls":[`
  const calls: unknown[] = []
  for (let i = 0; i < toolCalls.length; i++) {
    const call: unknown = toolCalls[i]
    if (!isObject(call)) return undefined
    const { id, name, args, argsError } = call
    if (typeof id !== 'string' || typeof name !== 'string' || !isObject(args)) return undefined
    const copied = jsonValue(args, `${json}${i > 0 ? ',' : ''}{"id":${quote(id)},"name":${quote(name)},"args":`)
    if (copied === undefined) return undefined
    json = copied.json
    if (argsError === undefined) calls.push({ id, name, args: copied.value })
    else {
      if (typeof argsError !== 'string') return undefined
      calls.push({ id, name, args: copied.value, argsError })
      json += `,"argsError":${quote(argsError)}`
    }
    json += '}'
  }
  json += ']'
  const event: Record<string, unknown> = { type: 'assistant/message', seq, ts, turnId, step, text, toolCalls: calls }
  const withTexts = withText(event, withText(event, json, 'thinking', thinking), 'stopReason', stopReason)
  if (withTexts === undefined) return undefined
  json = withTexts
  if (partial !== undefined) {
    if (typeof partial !== 'boolean') return undefined
    event.partial = partial
    json += `,"partial":${partial ? 'true' : 'false'}`
  }
  return { event: event as unknown as SessionEvent, json: `${json}}` }
}

/** A plain object (JSON's object, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
