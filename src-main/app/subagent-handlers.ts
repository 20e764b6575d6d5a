// The contract's subagent methods (src-shared/contract/subagents.ts): the agent types and skipped
// files of the window's workspace (from the subagents service), one subagent's own log, Stop
// for one running subagent (its child turn, src-main/agent/child.ts), and the rows a plugin's
// `subagentStatusLine` drew (the subagentStatusLines service of plugins/claude-plugins).
import type { Handlers } from '../transport/router'
import type { SubagentMethods } from '../../src-shared/contract/subagents'
import '../../src-shared/host/extensions'
import { stopChildTurn } from '../agent/child'
import { readChildLog } from '../session/child-log'
import type { HostRuntime } from './runtime'

type SubagentHandlers = Pick<Handlers, keyof typeof SubagentMethods>

export function subagentHandlers(runtime: HostRuntime): SubagentHandlers {
  const sessions = runtime.sessions
  return {
    'subagents/list': async () => {
      const service = runtime.kernel.getService('subagents')
      const workspace = runtime.workspace()
      if (!service || workspace === null) return { running: service !== undefined, agents: [], skipped: [] }
      return {
        running: true,
        agents: service.types(workspace).map((agent) => ({
          name: agent.name,
          description: agent.description,
          source: agent.source,
          ...(agent.file !== undefined ? { file: agent.file } : {}),
          ...(agent.tools !== undefined ? { tools: [...agent.tools] } : {}),
          ...(agent.disallowedTools !== undefined ? { disallowedTools: [...agent.disallowedTools] } : {})
        })),
        skipped: service.skipped(workspace).map(({ file, field, reason }) => ({ file, field, reason }))
      }
    },
    'subagents/events': async ({ sessionId, agentId }) => {
      const session = await sessions.open(sessionId)
      if (!startedIn(session.log.events, agentId)) throw new Error(`session ${sessionId} has no subagent ${agentId}`)
      return { events: await readChildLog(session.log.path, agentId) }
    },
    'subagents/stop': async ({ sessionId, agentId }) => {
      const session = await sessions.open(sessionId)
      return { stopped: stopChildTurn(session.kernel, sessionId, agentId) }
    },
    'subagents/status-lines': async ({ sessionId }) => {
      // Only a session running here has rows: a closed one is not opened for this.
      if (!sessions.isOpen(sessionId)) return { lines: [] }
      const session = await sessions.open(sessionId)
      const lines = session.kernel.getService('subagentStatusLines')?.lines(sessionId) ?? []
      return { lines: lines.map(({ agentId, content, plugin }) => ({ agentId, content: runtime.keys.redact(content), plugin })) }
    },
    'subagents/status-columns': async ({ sessionId, columns }) => {
      // A window measures a session it shows; one not running here has no command to tell.
      if (!sessions.isOpen(sessionId)) return { applied: false }
      const service = (await sessions.open(sessionId)).kernel.getService('subagentStatusLines')
      if (service?.setColumns === undefined) return { applied: false }
      service.setColumns(sessionId, columns)
      return { applied: true }
    }
  }
}

function startedIn(events: readonly { type: string; agentId?: string }[], agentId: string): boolean {
  return events.some((event) => event.type === 'subagent/start' && event.agentId === agentId)
}
