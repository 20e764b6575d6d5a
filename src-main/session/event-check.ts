// Validation of one session event, shared by loading (every line of a file) and appending.
// The member schema is picked by `type` instead of parsing through the discriminated union, and
// each member is AOT-compiled by zod (`z.compile`: a generated fast path, the runtime parser as
// fallback, so results and error messages are the runtime's). Same strictness, about 2.5x less
// work per line than the plain union, and an unknown type gets its own message. Each member is
// compiled the first time an event of its type is checked: compiling all of them up front took a
// tenth of every `seam` command's start-up, and most commands see a handful of types.
import { z } from 'zod'
import { SessionEventSchema, type SessionEvent } from '../../src-shared/session/events'
import { formatIssuePath } from '../../src-shared/validation'

const memberByType = new Map<string, z.ZodType<SessionEvent>>(
  SessionEventSchema.options.map((member) => [member.shape.type.value, member as z.ZodType<SessionEvent>])
)
const compiledByType = new Map<string, z.ZodType<SessionEvent>>()

function schemaFor(type: string): z.ZodType<SessionEvent> | undefined {
  const compiled = compiledByType.get(type)
  if (compiled !== undefined) return compiled
  const member = memberByType.get(type)
  if (member === undefined) return undefined
  const fresh = z.compile(member)
  compiledByType.set(type, fresh)
  return fresh
}

export type EventCheck = { ok: true; event: SessionEvent } | { ok: false; field: string; message: string }

/** Validates `value` as a session event. On failure, `field` is the first failing path (`type` for an unknown type). */
export function checkSessionEvent(value: unknown): EventCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, field: '(root)', message: 'expected a JSON object' }
  }
  const type = (value as { type?: unknown }).type
  if (typeof type !== 'string') return { ok: false, field: 'type', message: 'expected a string event type' }
  const schema = schemaFor(type)
  if (schema === undefined) return { ok: false, field: 'type', message: `unknown session event type ${JSON.stringify(type)}` }
  const result = schema.safeParse(value)
  if (result.success) return { ok: true, event: result.data }
  const issues = result.error.issues
  const first = issues[0]
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more: ${issues.slice(1, 4).map((i) => formatIssuePath(i.path)).join(', ')})` : ''
  return { ok: false, field: formatIssuePath(first?.path ?? []), message: `${first?.message ?? 'invalid'}${more}` }
}

export function isSessionEventType(type: string): boolean {
  return memberByType.has(type)
}
