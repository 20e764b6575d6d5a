// The in-memory copy of an appended event without a JSON round trip. The log keeps what a reload
// reads (`JSON.parse` of the line); for plain JSON data that is a deep copy, which is cheaper to
// make than to re-parse. The copy is made first and the line is serialised from the copy, so the
// two cannot disagree. Anything whose round trip could differ from a copy (`undefined` in an
// array, a class instance or null-prototype object, `toJSON`, -0, NaN, a `__proto__` key, deep
// nesting or a cycle) answers NOT_PLAIN, and the caller re-parses the line as before.
// `event-copy.test.ts` compares both paths over every event type.
import type { SessionEvent } from '../../src-shared/session/events'

export const NOT_PLAIN: unique symbol = Symbol('not plain JSON')

/** Deeper values go the round-trip way (session events nest a few levels; JSON Schemas a few more). */
const MAX_DEPTH = 64

/**
 * A fresh copy of `fields` with `seq` and `ts` as the event (`undefined` properties left out, as
 * JSON leaves them out), equal to `JSON.parse(JSON.stringify(copy))` key for key; or NOT_PLAIN.
 */
export function eventCopy(fields: object, seq: number, ts: number): SessionEvent | typeof NOT_PLAIN {
  const source = fields as Record<string, unknown>
  if (Object.getPrototypeOf(source) !== Object.prototype || typeof source.type !== 'string') return NOT_PLAIN
  // A validated event (zod's output) keeps its schema's key order, which is what a reload builds;
  // the host's own events get `type, seq, ts` first (search-scan reads the type from a line's start).
  const ordered = 'seq' in source
  const out: Record<string, unknown> = ordered ? {} : { type: source.type, seq, ts }
  const keys = Object.keys(source)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    if (ordered && (key === 'seq' || key === 'ts' || key === 'type')) {
      out[key] = key === 'seq' ? seq : key === 'ts' ? ts : source.type
      continue
    }
    if (key === 'type' || key === 'seq' || key === 'ts') continue
    if (key === '__proto__') return NOT_PLAIN
    const value = source[key]
    if (value === undefined) continue
    const copied = copy(value, 1)
    if (copied === NOT_PLAIN) return NOT_PLAIN
    out[key] = copied
  }
  return out as unknown as SessionEvent
}

function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      // JSON writes NaN and the infinities as null and -0 as 0.
      return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN
    case 'object':
      break
    default:
      return NOT_PLAIN // undefined inside an array (JSON writes null), functions, symbols, BigInts
  }
  if (value === null) return null
  if (depth >= MAX_DEPTH) return NOT_PLAIN
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto === Array.prototype) {
    const array = value as unknown[]
    const out: unknown[] = []
    for (let i = 0; i < array.length; i++) {
      if (!(i in array)) return NOT_PLAIN // a hole reads back as null
      const item = copy(array[i], depth + 1)
      if (item === NOT_PLAIN) return NOT_PLAIN
      out.push(item)
    }
    return out
  }
  if (proto !== Object.prototype) return NOT_PLAIN
  const object = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  const keys = Object.keys(object)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    // `out[key] = ...` with "__proto__" would set the prototype, not a property.
    if (key === '__proto__') return NOT_PLAIN
    const item = object[key]
    if (item === undefined) continue
    const copied = copy(item, depth + 1)
    if (copied === NOT_PLAIN) return NOT_PLAIN
    out[key] = copied
  }
  return out
}
