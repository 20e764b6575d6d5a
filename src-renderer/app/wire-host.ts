// Connects the stores to the host: every push lands in its store, and `resync` fetches what the
// pushes do not carry (at start and after a reconnect): status, pending approvals, the sessions
// list and the open session, the plugins and their client entries.
import { subagentActions } from '../subagents/subagent-store'
import { statusLineActions } from '../subagents/status-line-store'
import type { HostApi, PushPayload } from '../../src-shared/contract/ipc'
import { approvalActions } from '../approval/approval-store'
import { ClientPluginRuntime, type ModuleLoader } from '../plugins/client-runtime'
import { pluginsActions } from '../plugins/plugins-store'
import { sessionsActions } from '../sessions/sessions-store'
import { progressKey, sessionActions, type ProgressChunk } from '../transcript/session-store'
import { appActions } from './app-store'
import { themeActions } from './theme'
import { errorText } from './errors'
import { frameBatch } from './frame-batch'
import { installWebNotifications } from '../notify/web-notifications'

export interface HostWiring {
  readonly plugins: ClientPluginRuntime
  resync(): Promise<void>
  dispose(): void
}

export function wireHost(host: HostApi, options: { loadModule?: ModuleLoader } = {}): HostWiring {
  const plugins = new ClientPluginRuntime(host, options.loadModule)
  appActions.setTransport(host.transport)

  const deltas = frameBatch<PushPayload<'agent/delta'>>((items) => {
    for (const [sessionId, batch] of groupBy(items, (d) => d.sessionId)) sessionActions.applyDeltas(sessionId, batch)
  })
  const progress = frameBatch<PushPayload<'tool/progress'>>((items) => {
    for (const batch of groupBy(items, (p) => `${p.sessionId}\n${progressKey(p.turnId, p.callId)}`).values()) {
      const chunks: ProgressChunk[] = batch.map((p) => ({ stream: p.stream, text: p.text }))
      sessionActions.addProgress(batch[0].sessionId, progressKey(batch[0].turnId, batch[0].callId), chunks)
    }
  })
  let listTimer: ReturnType<typeof setTimeout> | null = null

  const offs = [
    host.on('app/status', (status) => appActions.setStatus(status)),
    host.on('session/appended', ({ sessionId, event }) => {
      // What streamed before this event must be applied before it (its message replaces it).
      deltas.flush()
      progress.flush()
      sessionActions.appendEvent(sessionId, event)
      plugins.dispatchSessionEvent(sessionId, event)
    }),
    host.on('sessions/changed', () => {
      if (listTimer) return
      listTimer = setTimeout(() => {
        listTimer = null
        void sessionsActions.refresh(host)
      }, 50)
    }),
    host.on('agent/delta', (delta) => {
      // A subagent's step streams under its agent id: its card's nested transcript takes it.
      if (!subagentActions.applyDelta(delta.sessionId, delta)) deltas.push(delta)
    }),
    host.on('subagent/appended', ({ sessionId, agentId, event }) => subagentActions.append(sessionId, agentId, event)),
    host.on('subagent/status-lines', ({ sessionId, lines }) => statusLineActions.replace(sessionId, lines)),
    host.on('agent/state', (state) => {
      deltas.flush()
      sessionActions.setAgent(state)
    }),
    host.on('tool/progress', (update) => progress.push(update)),
    host.on('approval/requested', (request) => approvalActions.add(request)),
    host.on('approval/settled', ({ requestId }) => approvalActions.settle(requestId)),
    host.on('plugins/changed', () => {
      void pluginsActions.refresh(host)
      void plugins.sync()
      void themeActions.refresh(host)
    }),
    host.on('themes/changed', () => void themeActions.refresh(host)),
    host.on('log', (record) => appActions.addLogs([record])),
    // A desktop notification was clicked: show its session.
    host.on('app/focus-session', ({ sessionId }) => focusSession(sessionId)),
    installWebNotifications(host, (sessionId) => focusSession(sessionId))
  ]

  function focusSession(sessionId: string): void {
    appActions.showPage('chat')
    void sessionsActions.open(host, sessionId)
  }

  const resync = async (): Promise<void> => {
    await Promise.all([
      host.invoke('app/status', {}).then(appActions.setStatus, (error: unknown) => appActions.setStatusError(errorText(error))),
      host.invoke('approval/pending', {}).then(approvalActions.replace, (error: unknown) => console.error('[seam] approval/pending failed', error)),
      host.invoke('logs/recent', {}).then(appActions.mergeRecentLogs, () => undefined /* logs are a convenience; the pushes still arrive */),
      sessionsActions.restore(host),
      pluginsActions.refresh(host),
      plugins.sync(),
      themeActions.refresh(host)
    ])
  }

  return {
    plugins,
    resync,
    dispose() {
      for (const off of offs) off()
      deltas.dispose()
      progress.dispose()
      if (listTimer) clearTimeout(listTimer)
      plugins.dispose()
    }
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}
