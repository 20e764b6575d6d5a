// The Host as the UI sees it (desktop and web mode): the runtime plus the contract's router
// and pushes. Both transports serve exactly this.
import { createRouter, PushHub } from '../transport/router'
import { ConnectionTracker } from '../transport/connections'
import type { HostCore } from '../transport/host-core'
import { ApprovalDialogs } from './approval-dialog'
import { createHandlers, status } from './handlers'
import { HostRuntime } from './runtime'
import { watchForeignSessions } from './sessions-watch'
import type { SecretCipher } from './secrets'

export interface CreateHostOptions {
  mode: 'electron' | 'web'
  env?: NodeJS.ProcessEnv
  platform?: { chooseDirectory?(): Promise<string | null>; cipher?: SecretCipher }
  patchFile?: string
}

export interface Host extends HostCore {
  runtime: HostRuntime
  connections: ConnectionTracker
  close(): Promise<void>
}

export async function createHost(options: CreateHostOptions): Promise<Host> {
  const pushes = new PushHub()
  const connections = new ConnectionTracker()
  const dialogs = new ApprovalDialogs((push, payload) => pushes.publish(push, payload), connections)
  const runtime = await HostRuntime.start({
    mode: options.mode,
    env: options.env,
    cipher: options.platform?.cipher,
    patchFile: options.patchFile,
    answerer: { key: 'builtin:approval-dialog', plugin: dialogs.plugin as never }
  })
  const publishStatus = () => {
    status(runtime, options.mode).then(
      (current) => pushes.publish('app/status', current),
      (error: unknown) => runtime.log({ level: 'error', plugin: 'host', message: `could not read the status: ${(error as Error).message}`, time: Date.now() })
    )
  }
  forwardLiveEvents(runtime, pushes)
  runtime.sessions.onAppended((sessionId, event) => pushes.publish('session/appended', { sessionId, event }))
  runtime.sessions.onChanged(() => pushes.publish('sessions/changed', {}))
  const presence = runtime.sessions.presence
  const stopWatchingSessions = presence ? watchForeignSessions({ dir: runtime.paths.sessions, presence, isOwn: (id) => runtime.sessions.isOpen(id), onChange: () => pushes.publish('sessions/changed', {}) }) : () => undefined
  runtime.onPluginsChanged(() => {
    pushes.publish('plugins/changed', {})
    // The status says which safety entries are off (the header's warning badge).
    publishStatus()
  })
  // A hook file changed under a trusted workspace: the status carries the count of unapproved items.
  runtime.onTrustItemsChanged(() => publishStatus())
  forwardMcpChanges(runtime, pushes)
  forwardLspChanges(runtime, pushes)
  forwardThemeChanges(runtime, pushes)
  connections.onChange((count) => {
    if (count > 0) publishStatus()
  })
  const router = createRouter(
    createHandlers({ runtime, dialogs, mode: options.mode, chooseDirectory: options.platform?.chooseDirectory, publishStatus })
  )
  return {
    runtime,
    router,
    pushes,
    connections,
    mode: options.mode,
    resolvePluginFile: (name, file) => runtime.plugins.resolveClientFile(name, file),
    close: () => {
      stopWatchingSessions()
      return runtime.close()
    }
  }
}

/** `mcp/changed` whenever a server changes; the mcp service is re-provided when its plugin restarts, so follow it. */
function forwardMcpChanges(runtime: HostRuntime, pushes: PushHub): void {
  followService(runtime, 'mcp', () => pushes.publish('mcp/changed', {}))
}

/** A plugin LSP server started, stopped or failed: the plugin manager's rows show it (as plugins/changed). */
function forwardLspChanges(runtime: HostRuntime, pushes: PushHub): void {
  followService(runtime, 'lspServers', () => pushes.publish('plugins/changed', {}), false)
}

/** A theme file changed on disk, or a plugin with themes came or went: the window lists the themes again. */
function forwardThemeChanges(runtime: HostRuntime, pushes: PushHub): void {
  followService(runtime, 'themes', () => pushes.publish('themes/changed', {}), false)
}

/** Calls `changed` on each change of the window's tree's service `name`, followed across recomposes and workspace switches. */
function followService(runtime: HostRuntime, name: 'mcp' | 'lspServers' | 'themes', changed: () => void, announce = true): void {
  let watched: unknown
  let unsubscribe: (() => void) | undefined
  const follow = (): void => {
    const service = runtime.kernel.getService(name)
    if (service === watched) return
    unsubscribe?.()
    watched = service
    unsubscribe = service?.onChange(changed)
    if (announce) changed()
  }
  follow()
  runtime.onPluginsChanged(follow)
}

/** Live pushes that are not session events (deltas, agent state, tool output, logs), from every workspace's tree. */
function forwardLiveEvents(runtime: HostRuntime, pushes: PushHub): void {
  runtime.eachKernel((kernel) => {
    const ctx = kernel.context
    const offs = [
      ctx.on('agent/delta', (sessionId, delta) => pushes.publish('agent/delta', { sessionId, ...delta })),
      ctx.on('agent/state', (sessionId, state) => pushes.publish('agent/state', { sessionId, ...state })),
      // Live output is shown before it is logged: the same key redaction as the log applies.
      ctx.on('agent/tool-progress', (sessionId, progress) =>
        pushes.publish('tool/progress', { sessionId, ...progress, text: runtime.keys.redact(progress.text) })
      ),
      // A subagent's own log (already redacted as it was recorded): its card's nested transcript.
      ctx.on('agent/subagent-appended', (sessionId, agent, event) => pushes.publish('subagent/appended', { sessionId, agentId: agent.agentId, event })),
      // A plugin's subagentStatusLine rows: a command's text, redacted as live output is.
      ctx.on('agent/subagent-status-lines', (sessionId, lines) =>
        pushes.publish('subagent/status-lines', { sessionId, lines: lines.map(({ agentId, content, plugin }) => ({ agentId, content: runtime.keys.redact(content), plugin })) })
      )
    ]
    return () => offs.forEach((off) => off())
  })
  runtime.onLog((record) => {
    if (record.level !== 'debug') pushes.publish('log', { ...record, message: runtime.keys.redact(record.message) })
  })
}
