// Which channels the user enabled: Claude Code's `--channels` entries, `plugin:<name>@<marketplace>`
// (a plugin's channels) and `server:<name>` (a server of an MCP config), kept in Seam's settings
// (`channels`) and given to `seam run --channels`. Seam also takes `plugin:<name>` for a plugin
// loaded from a folder, which has no marketplace.
import { z } from 'zod'

export type ChannelEntry = { kind: 'plugin'; plugin: string; marketplace?: string; text: string } | { kind: 'server'; server: string; text: string }

const PLUGIN_ENTRY = /^plugin:([a-z0-9][a-z0-9._-]*)(?:@([A-Za-z0-9][A-Za-z0-9._-]*))?$/
const SERVER_ENTRY = /^server:(\S+)$/

/** One entry as written, checked: the message says what a good one looks like. */
export const ChannelEntrySchema = z.string().transform((text, issues): ChannelEntry => {
  const plugin = PLUGIN_ENTRY.exec(text)
  if (plugin) return { kind: 'plugin', plugin: plugin[1], ...(plugin[2] !== undefined ? { marketplace: plugin[2] } : {}), text }
  const server = SERVER_ENTRY.exec(text)
  if (server) return { kind: 'server', server: server[1], text }
  issues.addIssue({ code: 'custom', message: `"${text}" is not a channel: write plugin:<name>@<marketplace> or server:<name>` })
  return z.NEVER
})

/** Parses the entries, keeping the good ones and saying what is wrong with each other one (`channels[2]: ...`). */
export function parseEntries(raw: readonly unknown[], field = 'channels'): { entries: ChannelEntry[]; problems: string[] } {
  const entries: ChannelEntry[] = []
  const problems: string[] = []
  raw.forEach((value, index) => {
    const parsed = ChannelEntrySchema.safeParse(value)
    if (parsed.success) entries.push(parsed.data)
    else problems.push(`${field}[${index}]: ${parsed.error.issues[0]?.message ?? 'not a channel entry'}`)
  })
  return { entries, problems }
}

/** What the channels plugin knows of a server: its configured name and, for a plugin's, the plugin. */
export interface ServerIdentity {
  name: string
  plugin?: { name: string; marketplace?: string; server: string }
}

/**
 * The entry that enables `server` as a channel, if any. A plugin entry enables the servers its
 * `channels` names, or every one of its servers when it declares none (the official channel
 * plugins declare none and are enabled with `--channels plugin:<name>@<marketplace>`).
 */
export function enablingEntry(entries: readonly ChannelEntry[], server: ServerIdentity, pluginChannels: (plugin: string, marketplace?: string) => readonly string[] | undefined): ChannelEntry | undefined {
  return entries.find((entry) => {
    if (entry.kind === 'server') return entry.server === server.name
    const plugin = server.plugin
    if (plugin === undefined || plugin.name !== entry.plugin) return false
    if (entry.marketplace !== undefined && entry.marketplace !== plugin.marketplace) return false
    const declared = pluginChannels(plugin.name, plugin.marketplace)
    return declared === undefined || declared.length === 0 || declared.includes(plugin.server)
  })
}

/** The entry a user would add to enable `server`: what a notice suggests. */
export function entryFor(server: ServerIdentity): string {
  const plugin = server.plugin
  if (plugin !== undefined) return `plugin:${plugin.name}${plugin.marketplace !== undefined ? `@${plugin.marketplace}` : ''}`
  return `server:${server.name}`
}
