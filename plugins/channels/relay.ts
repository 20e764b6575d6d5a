// The permission relay of Claude Code's channels reference: while an approval is open, each enabled
// channel that declares `claude/channel/permission` gets `notifications/claude/channel/permission_request`
// {request_id, tool_name, description, input_preview}; it may answer with
// `notifications/claude/channel/permission` {request_id, behavior: "allow" | "deny"}. The local
// dialog stays open: whichever answer comes first applies (the approval service settles once), and
// a verdict whose id is not open is dropped, as documented.
import { randomInt } from 'node:crypto'
import { z } from 'zod'

export const PERMISSION_CAPABILITY = 'claude/channel/permission'
export const PERMISSION_REQUEST_METHOD = 'notifications/claude/channel/permission_request'
export const PERMISSION_VERDICT_METHOD = 'notifications/claude/channel/permission'

/** Five lowercase letters without `l` (it reads as 1 or I on a phone), as the reference describes the id. */
const ID_ALPHABET = 'abcdefghijkmnopqrstuvwxyz'

export function newRequestId(taken: (id: string) => boolean): string {
  for (;;) {
    let id = ''
    for (let i = 0; i < 5; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)]
    if (!taken(id)) return id
  }
}

export const VerdictSchema = z.object({
  request_id: z.string(),
  behavior: z.enum(['allow', 'deny'])
})

/** Longest relayed value, in code points, before its middle is elided (the reference: 3,500 per field). */
export const RELAY_MAX_CODE_POINTS = 3_500

const BIDI_AND_INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g
const QUOTE_LOOKALIKES = /[\u2018\u2019\u201A\u201B\u2032\u2035\uFF07]/g
const DOUBLE_QUOTE_LOOKALIKES = /[\u201C\u201D\u201E\u201F\u2033\u2036\uFF02]/g
const ANGLE_LOOKALIKES_OPEN = /[\u2039\u2329\u27E8\u3008\uFE64\uFF1C]/g
const ANGLE_LOOKALIKES_CLOSE = /[\u203A\u232A\u27E9\u3009\uFE65\uFF1E]/g

/**
 * One value made safe to show on another device, as the reference says clients do: direction
 * overrides and invisible characters removed, quote and angle-bracket lookalikes made plain,
 * whitespace runs folded to one space, and a long value kept whole at its start and end around a
 * counted `⋯ N code points elided ⋯`.
 */
export function sanitize(text: string, max = RELAY_MAX_CODE_POINTS): string {
  const plain = text
    .replace(BIDI_AND_INVISIBLE, '')
    .replace(QUOTE_LOOKALIKES, "'")
    .replace(DOUBLE_QUOTE_LOOKALIKES, '"')
    .replace(ANGLE_LOOKALIKES_OPEN, '<')
    .replace(ANGLE_LOOKALIKES_CLOSE, '>')
    .replace(/\s+/g, ' ')
  const points = [...plain]
  if (points.length <= max) return plain
  const keep = Math.floor((max - 40) / 2)
  const elided = points.length - 2 * keep
  return `${points.slice(0, keep).join('')} ⋯ ${elided} code points elided ⋯ ${points.slice(-keep).join('')}`
}

/** `input_preview`: the arguments as JSON text, each top-level value sanitized on its own. */
export function inputPreview(args: Readonly<Record<string, unknown>>): string {
  const fields = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, sanitize(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value))]))
  return JSON.stringify(fields)
}

/**
 * `description`: what this call does, never the command itself. For Bash it is the model's own
 * `description` of the command, or the constant `Run shell command` (as the reference says); for
 * another tool, the call's `description` argument when it has one, else Seam's reason for asking.
 */
export function describeCall(tool: string, args: Readonly<Record<string, unknown>>, reason: string): string {
  const given = typeof args.description === 'string' && args.description.trim() !== '' ? args.description : undefined
  if (tool === 'Bash') return sanitize(given ?? 'Run shell command')
  return sanitize(given ?? reason)
}
