// The in-memory copy of an appended event and its JSON line, made in one walk. The log keeps what
// a reload reads (`JSON.parse` of the line); for plain JSON data that is a deep copy, which is
// cheaper to make than to re-parse, and the walk that makes the copy writes the line's text as it
// goes, so the two cannot disagree and the event is walked once, not once to copy and again in
// `JSON.stringify` (on the loop's small events the native serializer cost more than the copy).
// Anything whose round trip could differ from a copy (`undefined` in an array, a class instance or
// null-prototype object, `toJSON`, -0, NaN, a `__proto__` key, an inherited enumerable key, deep
// nesting or a cycle) answers NOT_PLAIN, and the caller serialises with JSON.stringify and
// re-parses the line as before. `event-copy.test.ts` compares both paths over every event type
// and the text with JSON.stringify's byte for byte.
import type { SessionEvent } from '../../src-shared/session/events'

export const NOT_PLAIN: unique symbol = Symbol('not plain JSON')

/** Deeper values go the round-trip way (session events nest a few levels; JSON Schemas a few more). */
const MAX_DEPTH = 64

/** An event as the log keeps it and its JSON text (`JSON.stringify(event)`, no newline). */
export interface EventEntry {
  event: SessionEvent
  json: string
}

/** What JSON.stringify escapes in a string: the quote, the backslash, controls and (unpaired) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/** `"key":` per key seen, bounded: event keys repeat, arbitrary keys of tool data need not stay. */
const quotedKeys = new Map<string, string>()
const MAX_QUOTED_KEYS = 1024

/** Below this length a loop over the characters beats entering the regular expression. */
const SHORT = 64

/** JSON.stringify(text): most strings need no escape, and then the quotes alone are the JSON. */
export function quote(text: string): string {
  if (text.length < SHORT) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i)
      if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text)
    }
    return `"${text}"`
  }
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`
}

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key)
  if (quoted === undefined) {
    quoted = `${quote(key)}:`
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted)
  }
  return quoted
}

/** The last timestamp written and its text: the events of one step mostly share the millisecond. */
let lastTs = Number.NaN
let lastTsText = ''

/** JSON's text of a number: String() of a finite one. */
export function numberText(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null'
}

export function tsText(ts: number): string {
  if (ts !== lastTs) {
    lastTsText = numberText(ts)
    lastTs = ts
  }
  return lastTsText
}

/**
 * A fresh copy of `fields` with `seq` and `ts` as the event (`undefined` properties left out, as
 * JSON leaves them out), equal to `JSON.parse(JSON.stringify(copy))` key for key, and that JSON
 * text; or NOT_PLAIN.
 */
export function eventEntry(fields: object, seq: number, ts: number): EventEntry | typeof NOT_PLAIN {
  const source = fields as Record<string, unknown>
  if (Object.getPrototypeOf(source) !== Object.prototype || typeof source.type !== 'string') return NOT_PLAIN
  // A validated event (zod's output) keeps its schema's key order, which is what a reload builds;
  // the host's own events get `type, seq, ts` first (search-scan reads the type from a line's start).
  const ordered = 'seq' in source
  const out: Record<string, unknown> = ordered ? {} : { type: source.type, seq, ts }
  const entry = { event: out as unknown as SessionEvent, json: ordered ? '{' : `{"type":${quote(source.type)},"seq":${numberText(seq)},"ts":${tsText(ts)}` }
  let first = ordered
  // for-in, not Object.keys: no array of keys per object. It lists own keys in Object.keys' order,
  // then inherited enumerable ones, which JSON leaves out: those go the round-trip way.
  for (const key in source) {
    if (!Object.hasOwn(source, key)) return NOT_PLAIN
    let value: unknown
    if (key === 'type' || key === 'seq' || key === 'ts') {
      if (!ordered) continue
      value = key === 'seq' ? seq : key === 'ts' ? ts : source.type
    } else {
      if (key === '__proto__') return NOT_PLAIN
      value = source[key]
      if (value === undefined) continue
    }
    entry.json += first ? quoteKey(key) : `,${quoteKey(key)}`
    first = false
    const copied = copy(value, 1, entry)
    if (copied === NOT_PLAIN) return NOT_PLAIN
    out[key] = copied
  }
  entry.json += '}'
  return entry
}

/** The copy alone (see eventEntry). */
export function eventCopy(fields: object, seq: number, ts: number): SessionEvent | typeof NOT_PLAIN {
  const entry = eventEntry(fields, seq, ts)
  return entry === NOT_PLAIN ? NOT_PLAIN : entry.event
}

/** Copies `value` and appends its JSON text to `into.json`; NOT_PLAIN (the text then unfinished) when it is not plain. */
export function copy(value: unknown, depth: number, into: { json: string }): unknown {
  switch (typeof value) {
    case 'string':
      into.json += quote(value)
      return value
    case 'boolean':
      into.json += value ? 'true' : 'false'
      return value
    case 'number':
      // JSON writes NaN and the infinities as null and -0 as 0.
      if (!Number.isFinite(value) || Object.is(value, -0)) return NOT_PLAIN
      into.json += String(value)
      return value
    case 'object':
      break
    default:
      return NOT_PLAIN // undefined inside an array (JSON writes null), functions, symbols, BigInts
  }
  if (value === null) {
    into.json += 'null'
    return null
  }
  if (depth >= MAX_DEPTH) return NOT_PLAIN
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto === Array.prototype) {
    const array = value as unknown[]
    const out: unknown[] = []
    into.json += '['
    for (let i = 0; i < array.length; i++) {
      if (!(i in array)) return NOT_PLAIN // a hole reads back as null
      if (i > 0) into.json += ','
      const item = copy(array[i], depth + 1, into)
      if (item === NOT_PLAIN) return NOT_PLAIN
      out.push(item)
    }
    into.json += ']'
    return out
  }
  if (proto !== Object.prototype) return NOT_PLAIN
  const object = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  let first = true
  into.json += '{'
  for (const key in object) {
    if (!Object.hasOwn(object, key)) return NOT_PLAIN
    // `out[key] = ...` with "__proto__" would set the prototype, not a property.
    if (key === '__proto__') return NOT_PLAIN
    const item = object[key]
    if (item === undefined) continue
    into.json += first ? quoteKey(key) : `,${quoteKey(key)}`
    first = false
    const copied = copy(item, depth + 1, into)
    if (copied === NOT_PLAIN) return NOT_PLAIN
    out[key] = copied
  }
  into.json += '}'
  return out
}
