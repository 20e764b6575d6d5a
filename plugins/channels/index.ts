// @seam/channels: Claude Code's channels. An MCP server that declares the `claude/channel`
// experimental capability pushes `notifications/claude/channel` messages; once the user enabled it
// (Seam's `channels` setting, `seam run --channels`, as Claude Code's `--channels`), each message
// reaches the newest open main session as a `<channel source="...">` message of the user side:
// it opens a turn when the session is idle and joins the running turn's next step otherwise.
// Replies go out through the server's own tools; a server that also declares
// `claude/channel/permission` gets the session's approval prompts and may answer them.
// See README.md.
import { definePlugin, type AgentHandle, type InstalledPlugin } from '@seam/sdk'
import { z } from 'zod'
import type { McpServerNotification, McpServerStatus } from '../mcp/index'
import { enablingEntry, entryFor, parseEntries, type ChannelEntry, type ServerIdentity } from './entries'
import { attributes, CHANNEL_METHOD, channelTag, parseChannelParams } from './message'
import { describeCall, inputPreview, newRequestId, PERMISSION_CAPABILITY, PERMISSION_REQUEST_METHOD, PERMISSION_VERDICT_METHOD, VerdictSchema } from './relay'

export const CHANNEL_CAPABILITY = 'claude/channel'
const NOTICE_SOURCE = 'channels'
const PROMPT_SECTION = 'channels'

export const ChannelsConfigSchema = z
  .object({
    /** The enabled channels: Seam's settings `channels`, then `seam run --channels` (`plugin:<name>@<marketplace>`, `server:<name>`). */
    enabled: z.array(z.string()).default([]),
    /** Where `enabled` came from, for messages. */
    from: z.string().default("Seam's settings")
  })
  .strict()
  .prefault({})

export type ChannelsConfig = z.output<typeof ChannelsConfigSchema>

/** An approval prompt sent to the channels: which approval its id answers. */
interface RelayedPrompt {
  sessionId: string
  approvalRequestId: string
}

/** Open main sessions per kernel, oldest first, kept across restarts of the plugin (it restarts with the mcp service). */
const openSessions = new WeakMap<object, Map<string, AgentHandle>>()
function sessionsOf(kernel: object): Map<string, AgentHandle> {
  let sessions = openSessions.get(kernel)
  if (!sessions) openSessions.set(kernel, (sessions = new Map()))
  return sessions
}

export default definePlugin({
  name: 'channels',
  schema: ChannelsConfigSchema,
  inject: ['workspace', 'mcp', 'prompt'],
  apply(ctx, config) {
    const workspace = ctx.get('workspace')
    const parsed = parseEntries(config.enabled)
    const entries: ChannelEntry[] = parsed.entries
    const configProblems = parsed.problems.map((problem) => `${config.from}: ${problem}`)
    for (const problem of configProblems) ctx.logger.warn(problem)

    /** Open main sessions, oldest first: a message goes to the newest. */
    const sessions = sessionsOf(ctx.kernel)
    const mcp = ctx.get('mcp')
    /** Notices said once per session: `<session>\0<kind>\0<server>`. */
    const said = new Set<string>()
    const relayed = new Map<string, RelayedPrompt>()

    const plugins = (): readonly InstalledPlugin[] => (workspace.root === null ? [] : (ctx.maybe('claudePlugins')?.list(workspace.root) ?? []))
    const pluginChannels = (name: string, marketplace?: string): readonly string[] | undefined =>
      plugins().find((plugin) => plugin.name === name && plugin.marketplace === marketplace)?.channels
    const statusOf = (server: string): McpServerStatus | undefined => mcp.servers().find((status) => status.name === server && status.agentId === undefined)
    const identity = (status: McpServerStatus): ServerIdentity => ({ name: status.name, ...(status.plugin ? { plugin: status.plugin } : {}) })
    /** The `source` of its tags: the server's own name (a plugin's server as its `.mcp.json` names it). */
    const sourceOf = (status: McpServerStatus): string => status.plugin?.server ?? status.name
    const enabled = (status: McpServerStatus): ChannelEntry | undefined => enablingEntry(entries, identity(status), pluginChannels)
    const newest = (): AgentHandle | undefined => [...sessions.values()].at(-1)

    const noticeOnce = (agent: AgentHandle, kind: string, server: string, level: 'info' | 'warn', text: string): void => {
      const key = `${agent.sessionId}\0${kind}\0${server}`
      if (said.has(key)) return
      said.add(key)
      agent.notify(level, text, NOTICE_SOURCE)
    }

    const onChannelMessage = (status: McpServerStatus, params: unknown): void => {
      const agent = newest()
      if (!agent) return
      const source = sourceOf(status)
      if (!status.experimental.includes(CHANNEL_CAPABILITY)) {
        noticeOnce(agent, 'capability', status.name, 'warn', `MCP server "${status.name}" sent a channel message but does not declare the ${CHANNEL_CAPABILITY} capability, so it is not a channel: ignored.`)
        return
      }
      if (enabled(status) === undefined) {
        const entry = entryFor(identity(status))
        noticeOnce(agent, 'not-enabled', status.name, 'info', `A channel message from "${source}" (MCP server "${status.name}") was ignored: channels are off until you enable them. Add "${entry}" in Settings → Channels (Seam's settings.json "channels"), or run seam run --channels ${entry}. Later messages from it are ignored without a word.`)
        return
      }
      const checked = parseChannelParams(params)
      if (!checked.ok) {
        agent.notify('warn', `Channel "${source}" sent a malformed ${CHANNEL_METHOD} (${checked.problem}); it was ignored.`, NOTICE_SOURCE)
        return
      }
      const meta = attributes(checked.message.meta)
      agent.deliver(channelTag(source, checked.message.content, meta), `channel:${source}`, { server: source, content: checked.message.content, meta })
    }

    const onVerdict = (status: McpServerStatus, params: unknown): void => {
      const agent = newest()
      if (!status.experimental.includes(PERMISSION_CAPABILITY) || enabled(status) === undefined) {
        if (agent) noticeOnce(agent, 'verdict', status.name, 'warn', `MCP server "${status.name}" answered a permission prompt, but it is not an enabled channel that declares ${PERMISSION_CAPABILITY}: ignored.`)
        return
      }
      const verdict = VerdictSchema.safeParse(params)
      if (!verdict.success) {
        const issue = verdict.error.issues[0]
        agent?.notify('warn', `Channel "${sourceOf(status)}" sent a malformed ${PERMISSION_VERDICT_METHOD} (${issue?.path.join('.') || 'params'}: ${issue?.message}); it was ignored.`, NOTICE_SOURCE)
        return
      }
      // An id Seam did not issue, or one already answered, is dropped: the reference's "right format, wrong ID".
      const prompt = relayed.get(verdict.data.request_id)
      if (!prompt) return
      relayed.delete(verdict.data.request_id)
      ctx.maybe('approval')?.settle(prompt.approvalRequestId, {
        outcome: verdict.data.behavior === 'allow' ? 'allowed-once' : 'denied',
        by: `channel:${sourceOf(status)}`
      })
    }

    const onNotification = ({ server, method, params }: McpServerNotification): void => {
      if (method !== CHANNEL_METHOD && method !== PERMISSION_VERDICT_METHOD) return
      const status = statusOf(server)
      if (!status) return
      if (method === CHANNEL_METHOD) onChannelMessage(status, params)
      else onVerdict(status, params)
    }

    /** Each enabled, connected channel that asked for permission prompts gets this one. */
    const relay = (sessionId: string, event: { requestId: string; tool: string; args: Record<string, unknown>; reason: string }): void => {
      const targets = mcp.servers().filter((status) => status.agentId === undefined && status.state === 'connected' && status.experimental.includes(CHANNEL_CAPABILITY) && status.experimental.includes(PERMISSION_CAPABILITY) && enabled(status) !== undefined)
      if (targets.length === 0) return
      const requestId = newRequestId((id) => relayed.has(id))
      relayed.set(requestId, { sessionId, approvalRequestId: event.requestId })
      const params = { request_id: requestId, tool_name: event.tool, description: describeCall(event.tool, event.args, event.reason), input_preview: inputPreview(event.args) }
      for (const target of targets) {
        mcp.notify(target.name, PERMISSION_REQUEST_METHOD, params).catch((error: unknown) => ctx.logger.warn(`channels: relaying a permission prompt to "${target.name}" failed: ${(error as Error).message}`))
      }
    }

    /** The enabled channels' `instructions` go into the system prompt, as Claude Code adds a channel's. */
    let section: { text: string; dispose: () => void } | undefined
    const syncInstructions = (): void => {
      const servers = mcp.servers().filter((status) => status.agentId === undefined && status.instructions && status.experimental.includes(CHANNEL_CAPABILITY) && enabled(status) !== undefined)
      const text =
        servers.length === 0
          ? undefined
          : ['# Channels', '', 'These channels push messages into this session as <channel source="..."> tags. Their instructions:', ...servers.flatMap((status) => ['', `## ${sourceOf(status)}`, status.instructions!.trim()])].join('\n')
      if (text === section?.text) return
      section?.dispose()
      section = text === undefined ? undefined : { text, dispose: ctx.prompt.section(PROMPT_SECTION, text) }
    }

    ctx.effect(() => {
      // Listened to even with nothing enabled: a message then says, once, that channels are off.
      const offNotification = mcp.onNotification(onNotification)
      const offChange = mcp.onChange(syncInstructions)
      syncInstructions()
      return () => {
        offNotification()
        offChange()
        section?.dispose()
        section = undefined
      }
    })

    ctx.on('agent/session-start', (agent) => {
      if (agent.subagent !== undefined) return
      sessions.delete(agent.sessionId)
      sessions.set(agent.sessionId, agent)
      for (const problem of configProblems) noticeOnce(agent, 'config', problem, 'warn', `Channels: ${problem}`)
    })

    ctx.on('session/appended', (sessionId, event) => {
      if (!sessions.has(sessionId) || entries.length === 0) return
      if (event.type === 'approval/asked') relay(sessionId, event)
      else if (event.type === 'approval/decided') {
        // Answered here first (the local dialog): the channel's pending prompt is dropped.
        for (const [id, prompt] of relayed) if (prompt.approvalRequestId === event.requestId) relayed.delete(id)
      }
    })

    ctx.on('agent/session-end', (agent) => {
      sessions.delete(agent.sessionId)
      for (const key of said) if (key.startsWith(`${agent.sessionId}\0`)) said.delete(key)
      for (const [id, prompt] of relayed) if (prompt.sessionId === agent.sessionId) relayed.delete(id)
    })
  }
})
