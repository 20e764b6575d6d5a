// Claude Code plugins' monitors (`monitors/monitors.json`, the manifest's `experimental.monitors`),
// run as Claude Code runs them: for each enabled plugin (the `claudePlugins` service lists only
// enabled, trusted and content-pinned ones), a monitor whose `when` is `always` starts with the
// main session, and one whose `when` is `on-skill-invoke:<skill>` starts the first time that skill
// is invoked (by the model's Skill tool or typed as `/plugin:skill`). Each is a Monitor task like
// the tool's (the Bash tool starts it in the background; each stdout line reaches the model as a
// <monitor-event>), with no timeout: it runs until TaskStop or the session ends. One process per
// plugin and monitor name in a session: a second session start or skill call leaves a running one
// alone. Turning the plugin off mid-session does not stop it (as in Claude Code).
import type { AgentHandle, InstalledPlugin, PluginCatalogService, PluginMonitor, SessionEvent, ToolExec } from '@seam/sdk'
import type { Monitors } from './monitor'

export interface PluginMonitorOptions {
  monitors: Monitors
  plugins(): PluginCatalogService | undefined
  /** Whether the session's task is still running. */
  running(sessionId: string, taskId: string): boolean
}

export class PluginMonitors {
  /** Per session: `plugin:name` → the task it runs as. */
  private readonly started = new Map<string, Map<string, string>>()

  constructor(private readonly options: PluginMonitorOptions) {}

  /** A main session started: its plugins' `always` monitors. */
  sessionStarted(agent: AgentHandle): Promise<void> {
    return this.start(agent, (monitor) => monitor.when === 'always')
  }

  /** An event of a session: a skill invoked (the Skill tool, or `/plugin:skill` typed) starts the monitors waiting for it. */
  appended(agent: AgentHandle, event: SessionEvent): Promise<void> {
    const skill = event.type === 'skill/loaded' && event.trigger === 'model' ? event.skill : event.type === 'user/message' ? event.command?.name : undefined
    if (skill === undefined) return Promise.resolve()
    return this.start(agent, (monitor, plugin) => {
      const wanted = /^on-skill-invoke:(.+)$/.exec(monitor.when)?.[1]
      return wanted !== undefined && (skill === wanted || skill === `${plugin.name}:${wanted}`)
    })
  }

  forget(sessionId: string): void {
    this.started.delete(sessionId)
  }

  private async start(agent: AgentHandle, wanted: (monitor: PluginMonitor, plugin: InstalledPlugin) => boolean): Promise<void> {
    if (agent.subagent !== undefined) return
    const catalog = this.options.plugins()
    if (catalog === undefined) return
    const started = this.started.get(agent.sessionId) ?? new Map<string, string>()
    this.started.set(agent.sessionId, started)
    for (const plugin of catalog.list(agent.workspace)) {
      for (const monitor of plugin.monitors ?? []) {
        const id = `${plugin.name}:${monitor.name}`
        const taskId = started.get(id)
        if (!wanted(monitor, plugin) || taskId === '' || (taskId !== undefined && this.options.running(agent.sessionId, taskId))) continue
        // Claimed before the await, so an event arriving meanwhile does not start a second one.
        started.set(id, '')
        const task = await this.options.monitors.watchCommand(monitor.command, monitor.description, execFor(agent, plugin))
        if (typeof task === 'string') {
          started.delete(id)
          agent.notify('warn', `Claude Code plugin ${plugin.name}: monitor ${monitor.name} (${monitor.file}) did not start: ${task}`, 'background-tasks')
        } else {
          started.set(id, task.id)
        }
      }
    }
  }
}

/** What the Bash tool needs to start a monitor outside a tool call: the session's folder and environment, plus the plugin's variables (as its hooks get them). */
function execFor(agent: AgentHandle, plugin: InstalledPlugin): ToolExec {
  return {
    signal: new AbortController().signal,
    token: `plugin-monitor:${agent.sessionId}:${plugin.name}`,
    cwd: agent.cwd,
    sessionId: agent.sessionId,
    env: { ...agent.env, ...(plugin.env ?? {}), CLAUDE_PROJECT_DIR: agent.workspace },
    progress: () => undefined
  }
}
