// A channel message as Claude Code's channels reference records it: `notifications/claude/channel`
// with `content` (the body) and `meta` (string attributes), reaching the model as
//   <channel source="<server>" key="value">
//   <content>
//   </channel>
// with `source` set from the server's configured name and each `meta` entry an attribute. Meta keys
// must be identifiers (letters, digits, `_`); others are dropped without a word, as documented.
import { z } from 'zod'

export const CHANNEL_METHOD = 'notifications/claude/channel'

export const ChannelNotificationSchema = z.object({
  content: z.string(),
  meta: z.record(z.string(), z.string()).optional()
})

export type ChannelNotification = z.output<typeof ChannelNotificationSchema>

const IDENTIFIER = /^[A-Za-z0-9_]+$/

/**
 * The meta entries that become attributes: identifier keys only (the reference's rule), and never
 * `source`, which names the server and is not the server's to set.
 */
export function attributes(meta: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [key, value] of Object.entries(meta ?? {})) if (IDENTIFIER.test(key) && key !== 'source') kept[key] = value
  return kept
}

/** An attribute value inside double quotes: the characters that would end or open markup are written as entities. */
function attributeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** The text the model reads for one message. */
export function channelTag(source: string, content: string, meta: Readonly<Record<string, string>>): string {
  const attrs = Object.entries(meta).map(([key, value]) => ` ${key}="${attributeValue(value)}"`).join('')
  return `<channel source="${attributeValue(source)}"${attrs}>\n${content}\n</channel>`
}

/** `params` checked: the message, or what is wrong with it, naming the field (`meta.run_id: expected string`). */
export function parseChannelParams(params: unknown): { ok: true; message: ChannelNotification } | { ok: false; problem: string } {
  const parsed = ChannelNotificationSchema.safeParse(params)
  if (parsed.success) return { ok: true, message: parsed.data }
  const issue = parsed.error.issues[0]
  const field = issue?.path.length ? issue.path.join('.') : 'params'
  return { ok: false, problem: `${field}: ${issue?.message ?? 'invalid'}` }
}
