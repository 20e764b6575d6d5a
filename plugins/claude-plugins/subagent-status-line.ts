// A plugin's settings.json `subagentStatusLine` applied (claude-code-extensions.md §1(c) records
// only the key; the rest follows public plugins, README "settings.json subagentStatusLine"): while
// a session has subagents running (foreground or background), the command of the first enabled
// plugin that sets one runs with the session's tasks as one JSON object on stdin, and each JSON line
// it prints, `{"id", "content"}`, replaces that subagent's status row in the UI. It runs on each
// subagent's start, step and end (debounced) and at `intervalMs` while one runs; never two at once
// for a session, never when nothing runs, each run bounded by `timeoutMs`, through the guarded
// child-process service (its own process group, the host-death watcher, the key-stripped env).
import { z } from 'zod'
import type { AgentHandle, Context, InstalledPlugin, PluginCatalogService, SessionEvent, SubagentStatusLine } from '@seam/sdk'
import { defaultKeyGuard } from '@seam/sdk/node'
import { runCommandHook } from '../hook-protocol/index'

export const SubagentStatusLineConfigSchema = z
  .object({
    /** How often the command runs again while a subagent of the session runs (after the previous run ended). */
    intervalMs: z.number().int().min(100).default(2000),
    /** A status change waits this long for others before the command runs (a burst of steps is one run). */
    debounceMs: z.number().int().min(0).default(300),
    /** A run still going after this long is killed (its whole process group) and reported. */
    timeoutMs: z.number().int().positive().default(5000),
    /** `columns` of the input until the session's real width is known (a window's measure, `seam run`'s terminal). */
    columns: z.number().int().positive().default(100),
    /** An ended subagent stays in `tasks` (with its final status) this long after its end. */
    keepEndedMs: z.number().int().nonnegative().default(30_000)
  })
  .prefault({})
export type SubagentStatusLineConfig = z.output<typeof SubagentStatusLineConfigSchema>

/** Claude Code's task statuses, as Seam's subagents end. */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'killed'

/** One subagent as the command sees it (`tasks[]` of its input). */
export interface StatusLineTask {
  id: string
  /** Claude Code's task type: public status lines keep only `local_agent` rows. */
  type: 'local_agent'
  /** The agent type (`general-purpose`, `plugin:reviewer`). */
  name: string
  status: TaskStatus
  description: string
  /** Milliseconds since the epoch. */
  startTime: number
  /** Input plus output tokens of its requests so far (the Agent result's `totalTokens`). */
  tokenCount: number
  /** The model its last request went to; absent before its first request answered. */
  model?: string
  cwd: string
}

export interface StatusLineInput {
  session_id: string
  cwd: string
  columns: number
  tasks: StatusLineTask[]
}

/** One line of the command's output. Other keys are kept and ignored. */
export const StatusLineRowSchema = z.object({ id: z.string().min(1), content: z.string() }).passthrough()

/** Longest `content` kept: a row, not a page. */
export const MAX_CONTENT_CHARS = 2000

export interface ParsedOutput {
  rows: Map<string, string>
  /** Why lines were ignored (a malformed line, an id that is not a task of the input). */
  ignored: string[]
}

/** The command's stdout, one JSON object per line; blank lines are skipped. */
export function parseStatusLineOutput(stdout: string, ids: ReadonlySet<string>): ParsedOutput {
  const rows = new Map<string, string>()
  const ignored: string[] = []
  stdout.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      ignored.push(`line ${index + 1} is not JSON: ${clip(line, 80)}`)
      return
    }
    const row = StatusLineRowSchema.safeParse(value)
    if (!row.success) {
      const issue = row.error.issues[0]
      ignored.push(`line ${index + 1}: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
      return
    }
    if (!ids.has(row.data.id)) {
      ignored.push(`line ${index + 1}: no subagent "${clip(row.data.id, 80)}" in its input`)
      return
    }
    rows.set(row.data.id, clip(row.data.content, MAX_CONTENT_CHARS))
  })
  return { rows, ignored }
}

export interface StatusLineRun {
  rows: Map<string, string>
  ignored: string[]
  /** Why the run gave nothing (exit code, timeout, could not start); its output is not used. */
  failure?: { kind: 'failed' | 'timeout'; reason: string }
}

/** Runs the command once, `input` on stdin, and reads its rows. Never rejects for anything the command does. */
export async function runStatusLineCommand(
  command: string,
  input: StatusLineInput,
  options: { cwd: string; env: Record<string, string>; timeoutMs: number; signal?: AbortSignal }
): Promise<StatusLineRun> {
  const result = await runCommandHook({
    command,
    stdin: JSON.stringify(input),
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: 256 * 1024,
    ...(options.signal ? { signal: options.signal } : {})
  })
  if (result.failure === 'timeout') return { rows: new Map(), ignored: [], failure: { kind: 'timeout', reason: `did not finish within ${options.timeoutMs} ms and was stopped` } }
  if (result.failure !== undefined) return { rows: new Map(), ignored: [], failure: { kind: 'failed', reason: result.errorMessage ?? result.failure } }
  if (result.exitCode !== 0) {
    const stderr = result.stderr.trim().split('\n')[0] ?? ''
    const how = result.exitCode === null ? `was ended by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`
    return { rows: new Map(), ignored: [], failure: { kind: 'failed', reason: stderr !== '' ? `${how}: ${clip(stderr, 200)}` : how } }
  }
  return parseStatusLineOutput(result.stdout, new Set(input.tasks.map((task) => task.id)))
}

/** The command in force: the first enabled plugin's that sets one; more than one is a problem to tell. */
export function resolveStatusLine(plugins: readonly InstalledPlugin[]): { plugin?: InstalledPlugin & { subagentStatusLine: { file: string; command: string } }; problem?: string } {
  const setting = plugins.filter((plugin): plugin is InstalledPlugin & { subagentStatusLine: { file: string; command: string } } => plugin.subagentStatusLine !== undefined)
  const first = setting[0]
  if (first === undefined) return {}
  if (setting.length === 1) return { plugin: first }
  return { plugin: first, problem: `plugins ${setting.map((p) => p.name).join(', ')} each set subagentStatusLine in settings.json; ${first.name}'s (${first.subagentStatusLine.file}) is used` }
}

interface Task {
  id: string
  agentType: string
  description: string
  startTime: number
  status: TaskStatus
  tokenCount: number
  model?: string
  endedAt?: number
}

interface SessionLines {
  agent: AgentHandle
  tasks: Map<string, Task>
  lines: SubagentStatusLine[]
  /** A run is going (never two at once). */
  busy: boolean
  /** Something changed during the run: run again once it ends. */
  again: boolean
  timer?: NodeJS.Timeout
  /** When the waiting timer fires (ms since the epoch). */
  due: number
  /** Notices given in this session (`plugin kind`): each at most once. */
  told: Set<string>
}

/** The runner for one host: the sessions' subagents as Claude Code's tasks, and the rows the command drew for them. */
export class SubagentStatusLines {
  private readonly sessions = new Map<string, SessionLines>()
  /** Each session's width where its rows are shown, once told (kept past the session's end: it may run again). */
  private readonly columns = new Map<string, number>()
  private readonly stopping = new AbortController()

  constructor(
    private readonly ctx: Context,
    private readonly config: SubagentStatusLineConfig,
    private readonly catalog: PluginCatalogService
  ) {
    ctx.on('agent/session-start', (agent) => {
      if (agent.subagent !== undefined) return
      this.sessions.set(agent.sessionId, { agent, tasks: new Map(), lines: [], busy: false, again: false, due: 0, told: new Set() })
      const { problem } = resolveStatusLine(this.catalog.list(agent.workspace))
      if (problem !== undefined) agent.notify('warn', `Claude Code plugins: ${problem}`, 'claude-plugins')
    })
    ctx.on('agent/session-end', (agent) => {
      if (agent.subagent !== undefined) return
      const state = this.sessions.get(agent.sessionId)
      if (state?.agent !== agent) return
      this.sessions.delete(agent.sessionId)
      if (state.timer) clearTimeout(state.timer)
      this.publish(agent.sessionId, state, [])
    })
    ctx.on('session/appended', (sessionId, event) => this.parentEvent(sessionId, event))
    ctx.on('agent/subagent-appended', (sessionId, identity, event) => {
      const task = this.sessions.get(sessionId)?.tasks.get(identity.agentId)
      if (task === undefined || event.type !== 'usage/step') return
      task.tokenCount += event.usage.inputTokens + event.usage.outputTokens
      task.model = event.model
      this.schedule(sessionId)
    })
    ctx.onDispose(this.catalog.onChange(() => this.pluginsChanged()))
    ctx.onDispose(() => {
      this.stopping.abort()
      for (const [sessionId, state] of this.sessions) {
        if (state.timer) clearTimeout(state.timer)
        this.publish(sessionId, state, [])
      }
      this.sessions.clear()
    })
  }

  lines(sessionId: string): readonly SubagentStatusLine[] {
    return this.sessions.get(sessionId)?.lines ?? []
  }

  /** The width where the session's rows are shown; the rows are drawn again for it while a subagent is there. */
  setColumns(sessionId: string, columns: number): void {
    if (this.columns.get(sessionId) === columns) return
    this.columns.set(sessionId, columns)
    const state = this.sessions.get(sessionId)
    if (state !== undefined && state.tasks.size > 0) this.schedule(sessionId)
  }

  /** A subagent's start and end are in its parent's log. */
  private parentEvent(sessionId: string, event: SessionEvent): void {
    const state = this.sessions.get(sessionId)
    if (state === undefined) return
    if (event.type === 'subagent/start') {
      state.tasks.set(event.agentId, { id: event.agentId, agentType: event.agentType, description: event.description, startTime: event.ts, status: 'running', tokenCount: 0 })
      this.schedule(sessionId)
    } else if (event.type === 'subagent/end') {
      const task = state.tasks.get(event.agentId)
      if (task === undefined) return
      task.status = event.reason === 'completed' || event.reason === 'max_steps' ? 'completed' : event.reason === 'cancelled' ? 'killed' : 'failed'
      task.endedAt = event.ts
      // The end's own sums are the whole run's (a step may not have been pushed yet).
      task.tokenCount = event.usage.inputTokens + event.usage.outputTokens
      task.model = event.model
      this.schedule(sessionId)
    }
  }

  /** A plugin turned on or off (or its files changed): rows follow at once; none when no plugin sets a command. */
  private pluginsChanged(): void {
    for (const [sessionId, state] of this.sessions) {
      if (resolveStatusLine(this.catalog.list(state.agent.workspace)).plugin === undefined) this.publish(sessionId, state, [])
      this.schedule(sessionId)
    }
  }

  /** Runs the command soon: after `debounceMs`, or after the run going now. */
  private schedule(sessionId: string, delay = this.config.debounceMs): void {
    const state = this.sessions.get(sessionId)
    if (state === undefined) return
    if (state.busy) {
      state.again = true
      return
    }
    const due = Date.now() + delay
    // A run already due as soon stays; a later one (an interval tick) is moved up by a change.
    if (state.timer !== undefined && state.due <= due) return
    if (state.timer) clearTimeout(state.timer)
    state.due = due
    state.timer = setTimeout(() => {
      state.timer = undefined
      void this.run(sessionId, state)
    }, delay)
    state.timer.unref?.()
  }

  private async run(sessionId: string, state: SessionLines): Promise<void> {
    if (this.sessions.get(sessionId) !== state) return
    const { agent } = state
    const { plugin } = resolveStatusLine(this.catalog.list(agent.workspace))
    const now = Date.now()
    for (const [id, task] of state.tasks) if (task.endedAt !== undefined && now - task.endedAt > this.config.keepEndedMs) state.tasks.delete(id)
    const tasks = [...state.tasks.values()]
    if (plugin === undefined || tasks.length === 0) {
      this.publish(sessionId, state, [])
      return
    }
    const input: StatusLineInput = {
      session_id: sessionId,
      cwd: agent.cwd,
      columns: this.columns.get(sessionId) ?? this.config.columns,
      tasks: tasks.map((task) => ({
        id: task.id,
        type: 'local_agent',
        name: task.agentType,
        status: task.status,
        description: task.description,
        startTime: task.startTime,
        tokenCount: task.tokenCount,
        ...(task.model !== undefined ? { model: task.model } : {}),
        cwd: agent.cwd
      }))
    }
    const keys = this.ctx.maybe('keys') ?? defaultKeyGuard
    const env = keys.childEnv({ ...process.env, ...agent.env, ...(plugin.env ?? {}), CLAUDE_PROJECT_DIR: agent.workspace })
    state.busy = true
    let result: StatusLineRun
    try {
      result = await runStatusLineCommand(plugin.subagentStatusLine.command, input, { cwd: agent.cwd, env, timeoutMs: this.config.timeoutMs, signal: this.stopping.signal })
    } finally {
      state.busy = false
    }
    if (this.sessions.get(sessionId) !== state || this.stopping.signal.aborted) return
    if (result.failure !== undefined) this.tellOnce(state, plugin.name, result.failure.kind, `its subagentStatusLine command (${plugin.subagentStatusLine.file}) ${result.failure.reason}; the subagents' default rows are shown`)
    if (result.ignored.length > 0) this.tellOnce(state, plugin.name, 'output', `its subagentStatusLine command (${plugin.subagentStatusLine.file}) printed lines Seam ignores (${result.ignored.slice(0, 3).join('; ')}${result.ignored.length > 3 ? `; and ${result.ignored.length - 3} more` : ''}); each line must be {"id": "<a subagent's id>", "content": "..."}`)
    // A subagent the command did not answer for keeps its default row (as in Claude Code).
    this.publish(sessionId, state, [...result.rows].map(([agentId, content]) => ({ agentId, content, plugin: plugin.name })))
    if (state.again) {
      state.again = false
      this.schedule(sessionId)
    } else if ([...state.tasks.values()].some((task) => task.status === 'running')) {
      this.schedule(sessionId, this.config.intervalMs)
    }
  }

  private tellOnce(state: SessionLines, plugin: string, kind: string, text: string): void {
    const key = `${plugin} ${kind}`
    if (state.told.has(key)) return
    state.told.add(key)
    state.agent.notify('warn', `Claude Code plugin ${plugin}: ${text}`, 'claude-plugins')
  }

  private publish(sessionId: string, state: SessionLines, lines: SubagentStatusLine[]): void {
    if (JSON.stringify(lines) === JSON.stringify(state.lines)) return
    state.lines = lines
    this.ctx.emit('agent/subagent-status-lines', sessionId, lines)
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
