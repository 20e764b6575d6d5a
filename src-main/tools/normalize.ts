// The normalization boundary (S16): whatever a tool, a wrapper or a caller hands the pipeline
// becomes plain, frozen JSON or an isError result that says what was wrong and where.
//
// Materialization is lossless or it fails: a BigInt that fits a safe integer becomes a number,
// an object's own `toJSON` is honoured (Date -> ISO string), an object property holding
// `undefined` is left out (as JSON has no such value); anything else that JSON cannot hold
// (cycles, functions, symbols, NaN, holes, class instances, BigInts beyond 2^53) is a failure
// naming the path.
import type { JsonObject, JsonValue, ToolErrorCode, ToolResult } from '../../src-shared/host/tools'
import { errorText } from '../../src-shared/kernel'
import { formatIssuePath } from '../../src-shared/validation'

export type Materialized<T extends JsonValue = JsonValue> = { ok: true; value: T } | { ok: false; path: string; problem: string }

/** Deeper structures are refused rather than risking the stack. */
const MAX_DEPTH = 256
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER)

/** Thrown inside the walk; carries the failing path outward. */
class Unrepresentable {
  constructor(
    readonly path: PropertyKey[],
    readonly problem: string
  ) {}
}

/** A deep, frozen, plain-JSON copy of `value` (never the caller's objects), or where it fails. */
export function materializeJson(value: unknown): Materialized {
  const path: PropertyKey[] = []
  const ancestors: object[] = []
  try {
    return { ok: true, value: walk(value, path, ancestors) }
  } catch (error) {
    if (error instanceof Unrepresentable) return { ok: false, path: formatIssuePath(error.path), problem: error.problem }
    // A getter or proxy trap threw while being read.
    return { ok: false, path: formatIssuePath(path), problem: `reading it threw: ${errorText(error)}` }
  }
}

/** Like materializeJson, and the value must be a JSON object (tool arguments). */
export function materializeObject(value: unknown): Materialized<JsonObject> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, path: '(root)', problem: `expected a JSON object, got ${describeValue(value)}` }
  }
  const result = materializeJson(value)
  if (result.ok && (result.value === null || typeof result.value !== 'object' || Array.isArray(result.value))) {
    return { ok: false, path: '(root)', problem: `expected a JSON object, got ${describeValue(result.value)}` }
  }
  return result as Materialized<JsonObject>
}

function walk(value: unknown, path: PropertyKey[], ancestors: object[]): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (Number.isFinite(value)) return value
      throw new Unrepresentable(path.slice(), `${value} is not a JSON number`)
    case 'bigint':
      if (value <= MAX_SAFE && value >= MIN_SAFE) return Number(value)
      throw new Unrepresentable(path.slice(), `BigInt ${value}n does not fit a JSON number without loss`)
    case 'undefined':
      throw new Unrepresentable(path.slice(), 'undefined is not a JSON value')
    case 'function':
      throw new Unrepresentable(path.slice(), 'a function is not a JSON value')
    case 'symbol':
      throw new Unrepresentable(path.slice(), 'a symbol is not a JSON value')
  }
  if (value === null) return null
  const object = value as object
  if (ancestors.includes(object)) throw new Unrepresentable(path.slice(), 'circular reference')
  if (ancestors.length >= MAX_DEPTH) throw new Unrepresentable(path.slice(), `nested deeper than ${MAX_DEPTH} levels`)
  ancestors.push(object)
  try {
    if (Array.isArray(object)) return walkArray(object, path, ancestors)
    const toJSON = (object as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') return walk(toJSON.call(object), path, ancestors)
    const proto = Object.getPrototypeOf(object) as object | null
    if (proto !== Object.prototype && proto !== null) {
      throw new Unrepresentable(path.slice(), `${describeValue(object)} is not a plain JSON object`)
    }
    return walkObject(object as Record<string, unknown>, path, ancestors)
  } finally {
    ancestors.pop()
  }
}

function walkArray(array: readonly unknown[], path: PropertyKey[], ancestors: object[]): JsonValue[] {
  const out: JsonValue[] = new Array<JsonValue>(array.length)
  for (let i = 0; i < array.length; i++) {
    path.push(i)
    if (!(i in array)) throw new Unrepresentable(path.slice(), 'an array hole is not a JSON value')
    out[i] = walk(array[i], path, ancestors)
    path.pop()
  }
  return Object.freeze(out) as JsonValue[]
}

function walkObject(object: Record<string, unknown>, path: PropertyKey[], ancestors: object[]): JsonObject {
  const out: JsonObject = {}
  const keys = Object.keys(object)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    path.push(key)
    const item = object[key]
    if (item === undefined) {
      path.pop()
      continue
    }
    const json = walk(item, path, ancestors)
    // `out[key] = ...` with key "__proto__" would set the prototype instead of a property.
    if (key === '__proto__') Object.defineProperty(out, key, { value: json, enumerable: true, writable: true, configurable: true })
    else out[key] = json
    path.pop()
  }
  return Object.freeze(out)
}

// ---- results -------------------------------------------------------------------------------

/** A frozen, JSON-safe failed result. */
export function failure(code: ToolErrorCode, content: string): ToolResult {
  return Object.freeze({ content, isError: true, code })
}

/**
 * A tool body's output (ToolOutput) or a wrapper's result (ToolResult) as the authoritative,
 * frozen ToolResult. A bare string is accepted as `{ content }` (a lossless reading); anything
 * malformed or non-JSON becomes INVALID_RESULT naming the field.
 */
export function normalizeResult(toolName: string, value: unknown, from: 'tool' | 'wrapper'): ToolResult {
  const who = from === 'tool' ? `Tool "${toolName}"` : `A tools/execute wrapper around "${toolName}"`
  if (typeof value === 'string') return Object.freeze({ content: value, isError: false })
  if (value === null || typeof value !== 'object') {
    return failure('INVALID_RESULT', `${who} returned ${describeValue(value)} instead of { content: string }.`)
  }
  try {
    const output = value as { content?: unknown; isError?: unknown; code?: unknown; structured?: unknown }
    const content = output.content
    if (typeof content !== 'string') {
      return failure('INVALID_RESULT', `${who} returned an invalid result: content: expected a string, got ${describeValue(content)}.`)
    }
    const isError = output.isError
    if (isError !== undefined && typeof isError !== 'boolean') {
      return failure('INVALID_RESULT', `${who} returned an invalid result: isError: expected a boolean, got ${describeValue(isError)}.`)
    }
    // Only wrappers speak in error codes; a tool body's output has none (ToolOutput).
    const code = from === 'wrapper' ? output.code : undefined
    if (code !== undefined && typeof code !== 'string') {
      return failure('INVALID_RESULT', `${who} returned an invalid result: code: expected a string, got ${describeValue(code)}.`)
    }
    const result: { content: string; isError: boolean; code?: ToolErrorCode; structured?: JsonValue } = { content, isError: isError === true }
    if (code !== undefined) result.code = code as ToolErrorCode
    if (output.structured !== undefined) {
      const structured = materializeJson(output.structured)
      if (!structured.ok) {
        const at = structured.path === '(root)' ? 'structured' : `structured.${structured.path}`.replace('.[', '[')
        return failure('INVALID_RESULT', `${who} returned a result that is not JSON: ${at}: ${structured.problem}.`)
      }
      result.structured = structured.value
    }
    return Object.freeze(result)
  } catch (error) {
    return failure('INVALID_RESULT', `${who} returned a result that could not be read: ${errorText(error)}.`)
  }
}

/** A short, safe description of a value for error messages (never the whole value). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'undefined':
      return 'undefined'
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`
    case 'bigint':
      return `BigInt ${value}n`
    case 'function':
      return 'a function'
    case 'symbol':
      return 'a symbol'
  }
  let name: string | undefined
  try {
    name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name
  } catch {
    // A hostile proxy: its prototype cannot be read; "an object" is all we can say.
  }
  return name && name !== 'Object' ? `a ${name}` : 'an object'
}
