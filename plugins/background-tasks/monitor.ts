// Claude Code's Monitor tool: `{command? | ws?, description, timeout_ms = 300000, persistent =
// false}` starts a background task whose every stdout line (a command) or WebSocket frame (`ws`)
// reaches the model as an event, and answers `{taskId, timeoutMs}`. It is a background task like
// any other (its output file, TaskOutput, TaskStop, the tasks panel, the end notice): a command is
// started by the Bash tool itself with `run_in_background` (its own process group, the host's
// death watcher, the key-stripped environment), a socket is held here. Events reach the model after
// a step's tool results, or with the next prompt; one that comes while nothing does (the session
// idle, or a turn ending without another step) is delivered by itself, opening a turn when the
// session is idle. A burst is coalesced: one delivery for the lines that come together.
import type WebSocket from 'ws'
import { z } from 'zod'
import { defineTool, type BackgroundTaskInfo, type RunningCommand, type ToolDefinition, type ToolExec, type ToolOutput } from '@seam/sdk'
import type { TaskTable } from './task-table'

export const MONITOR_DEFAULT_TIMEOUT_MS = 300_000

export const MonitorInputSchema = z
  .object({
    command: z.string().min(1).optional().describe('A shell command to run; each line it prints reaches you as an event.'),
    ws: z
      .string()
      .url()
      .refine((url) => /^wss?:\/\//i.test(url), 'ws: must be a ws:// or wss:// URL')
      .optional()
      .describe('A WebSocket URL to connect to; each frame it sends reaches you as an event.'),
    description: z.string().min(1).describe('What is monitored, in a few words (shown to the user and in each event).'),
    timeout_ms: z.number().int().positive().default(MONITOR_DEFAULT_TIMEOUT_MS).describe('Stop the monitor after this many ms (unless persistent).'),
    persistent: z.boolean().default(false).describe('Keep it running until stopped with TaskStop or the session ends, with no timeout.')
  })
  .superRefine((input, issues) => {
    if ((input.command === undefined) === (input.ws === undefined)) {
      issues.addIssue({ code: 'custom', path: ['command'], message: 'command, ws: give exactly one of them' })
    }
  })

export type MonitorInput = z.output<typeof MonitorInputSchema>

/** A monitored task: where its events were read up to. */
interface Monitored {
  sessionId: string
  taskId: string
  description: string
  readUpTo: number
}

export interface MonitorOptions {
  /** The Bash tool (absent when a patch layer disabled it). */
  bash(): ToolDefinition<unknown> | undefined
  /** Events one delivery carries at most per monitor; the rest are counted and left in the output file. */
  maxEventsPerDelivery: number
  /** How long after a line the events are delivered by themselves, so lines that come together go in one delivery. */
  coalesceMs: number
  /** Hands events to the session (`AgentHandle.deliver`): at the running turn's next step, or in a turn of their own when idle. */
  deliver(sessionId: string, text: string): void
}

export class Monitors {
  private readonly monitored = new Map<string, Monitored>()
  /** Sessions with a delivery due (their coalescing timer). */
  private readonly due = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly table: TaskTable,
    private readonly options: MonitorOptions
  ) {}

  tool() {
    return defineTool({
      name: 'Monitor',
      description: [
        'Watches something in the background and tells you of each new line: a command\'s stdout lines (`command`: a log tail, a test watcher, a build) or a WebSocket\'s frames (`ws`).',
        '- Returns at once with the task id; each new line reaches you as a <monitor-event> after your next tool results, or, when you have finished, in a new turn of its own.',
        `- It stops after timeout_ms (default ${MONITOR_DEFAULT_TIMEOUT_MS}) unless persistent; stop it earlier with TaskStop. Its output is also in a file you can Read.`
      ].join('\n'),
      inputSchema: MonitorInputSchema,
      sideEffects: true,
      execute: (args, exec) => this.start(args, exec)
    })
  }

  private async start(args: MonitorInput, exec: ToolExec): Promise<ToolOutput> {
    const refused = this.table.refusal(exec.sessionId)
    if (refused) return failure(refused)
    let task: BackgroundTaskInfo
    if (args.command !== undefined) {
      const started = await this.watchCommand(args.command, args.description, exec)
      if (typeof started === 'string') return failure(started)
      task = started
    } else {
      const opened = await openSocket(args.ws!, exec.signal)
      if (typeof opened === 'string') return failure(opened)
      task = this.table.adopt({ sessionId: exec.sessionId, command: `ws ${args.ws!}`, description: args.description, outputSoFar: '', running: socketCommand(opened) })
      this.watch(exec.sessionId, task.id, args.description)
    }
    if (!args.persistent) this.stopAfter(exec.sessionId, task.id, args.timeout_ms)
    const content = `Monitor started with task ID: ${task.id}${args.persistent ? ' (persistent: it runs until stopped)' : ` (it stops after ${args.timeout_ms} ms)`}. Each new ${args.ws !== undefined ? 'frame' : 'line'} reaches you as an event; all of it is written to: ${task.outputPath}`
    return { content, structured: { taskId: task.id, timeoutMs: args.timeout_ms } }
  }

  /**
   * Starts `command` through the Bash tool as a background task of `exec`'s session and watches
   * it: each new stdout line reaches the model as an event. It runs until stopped or the session
   * ends (the Monitor tool adds its timeout). Answers the task, or why it did not start.
   */
  async watchCommand(command: string, description: string, exec: ToolExec): Promise<BackgroundTaskInfo | string> {
    const refused = this.table.refusal(exec.sessionId)
    if (refused) return refused
    const bash = this.options.bash()
    if (!bash) return 'Monitor: command needs the Bash tool, which is disabled here.'
    const started = await bash.execute({ command, description, run_in_background: true }, exec)
    if (started.isError) return started.content
    const id = (started.structured as { backgroundTaskId?: string } | undefined)?.backgroundTaskId
    const task = id === undefined ? undefined : this.table.get(exec.sessionId, id)?.info
    if (!task) return `Monitor: the command did not start as a background task: ${started.content}`
    this.watch(exec.sessionId, task.id, description)
    return task
  }

  private watch(sessionId: string, taskId: string, description: string): void {
    this.monitored.set(key(sessionId, taskId), { sessionId, taskId, description, readUpTo: 0 })
    // What it printed before it was watched (a quick first line) is due as any later line.
    this.arrived(sessionId, taskId)
  }

  private stopAfter(sessionId: string, taskId: string, ms: number): void {
    const timer = setTimeout(() => {
      const task = this.table.get(sessionId, taskId)
      if (task?.running) void this.table.stop(task, 'stopped')
    }, ms)
    timer.unref()
    const task = this.table.get(sessionId, taskId)
    void task?.ended.then(() => clearTimeout(timer))
  }

  /**
   * A task printed something: when it is monitored, its events are delivered `coalesceMs` later
   * (with whatever else the session's monitors printed meanwhile) unless a step or a prompt took
   * them first.
   */
  arrived(sessionId: string, taskId: string): void {
    if (!this.monitored.has(key(sessionId, taskId)) || this.due.has(sessionId)) return
    const timer = setTimeout(() => {
      this.due.delete(sessionId)
      void this.take(sessionId).then(
        (events) => {
          if (events.length > 0) this.options.deliver(sessionId, events.join('\n'))
        },
        () => undefined
      )
    }, this.options.coalesceMs)
    timer.unref()
    this.due.set(sessionId, timer)
  }

  /** The events of the session's monitors since the last delivery: one text per new line, oldest first. */
  async take(sessionId: string): Promise<string[]> {
    const events: string[] = []
    for (const monitor of this.monitored.values()) {
      if (monitor.sessionId !== sessionId) continue
      const task = this.table.get(sessionId, monitor.taskId)
      if (!task?.output) continue
      await this.table.catchUp(task)
      const ended = task.info.status !== 'running'
      const { text, end } = await task.output.readFrom(monitor.readUpTo)
      // Only whole lines, until the task has ended (then its last line even without a newline).
      const upTo = ended ? text.length : text.lastIndexOf('\n') + 1
      const lines = text.slice(0, upTo).split('\n')
      if (lines.at(-1) === '') lines.pop()
      monitor.readUpTo = ended ? end : end - Buffer.byteLength(text.slice(upTo))
      const shown = lines.slice(0, this.options.maxEventsPerDelivery)
      for (const line of shown) events.push(monitorEvent(monitor, line))
      if (lines.length > shown.length) events.push(monitorEvent(monitor, `[${lines.length - shown.length} more lines not shown: Read ${task.info.outputPath}]`))
      if (ended) this.monitored.delete(key(sessionId, monitor.taskId))
    }
    return events
  }

  /** Whether the session has a monitor whose events may not all be delivered yet. */
  watches(sessionId: string): boolean {
    for (const monitor of this.monitored.values()) if (monitor.sessionId === sessionId) return true
    return false
  }

  forget(sessionId: string): void {
    clearTimeout(this.due.get(sessionId))
    this.due.delete(sessionId)
    for (const [id, monitor] of this.monitored) if (monitor.sessionId === sessionId) this.monitored.delete(id)
  }
}

/** One event as the model reads it. */
export function monitorEvent(monitor: { taskId: string; description: string }, line: string): string {
  return `<monitor-event>\n<task-id>${monitor.taskId}</task-id>\n<description>${escapeXml(monitor.description)}</description>\n<event>${escapeXml(line)}</event>\n</monitor-event>`
}

/** Connects, or says why not (a refused connection, a bad handshake, the call aborted). */
async function openSocket(url: string, signal: AbortSignal): Promise<WebSocket | string> {
  // Loaded by the first `ws` monitor, not with Seam: it is a tenth of `seam`'s start-up CPU.
  const { default: WebSocketClient } = await import('ws')
  if (signal.aborted) return 'Monitor: the call was aborted before the WebSocket connected.'
  return new Promise((resolve) => {
    const socket = new WebSocketClient(url)
    const onAbort = () => {
      socket.terminate()
      resolve('Monitor: the call was aborted before the WebSocket connected.')
    }
    signal.addEventListener('abort', onAbort, { once: true })
    socket.once('open', () => {
      signal.removeEventListener('abort', onAbort)
      resolve(socket)
    })
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort)
      resolve(`Monitor: ws: could not connect to ${url}: ${error.message}`)
    })
  })
}

/**
 * A WebSocket as a running task: each frame is one line of its output (a text frame's own line
 * breaks written as `\n`, a binary frame as its size), and it ends when the socket closes: exit
 * code 0 for a normal close (1000, or none given), 1 otherwise. Stopping it closes the socket.
 */
function socketCommand(socket: WebSocket): RunningCommand {
  let sink: Parameters<RunningCommand['attach']>[0] | undefined
  let closed = false
  const buffered: string[] = []
  socket.on('message', (data, isBinary) => {
    const line = isBinary ? `[binary frame, ${frameBytes(data)} bytes]` : frameText(data).replace(/\r?\n/g, '\\n')
    if (sink) sink.output(`${line}\n`)
    else buffered.push(`${line}\n`)
  })
  socket.on('error', () => undefined)
  let exitCode: number | undefined
  socket.once('close', (code) => {
    closed = true
    exitCode = code === 1000 || code === 1005 ? 0 : 1
    sink?.exit(exitCode)
  })
  return {
    signalGroup(signal) {
      if (closed) return false
      if (signal === 'SIGKILL') socket.terminate()
      else socket.close(1000)
      return true
    },
    attach(taker) {
      sink = taker
      for (const line of buffered.splice(0)) taker.output(line)
      if (exitCode !== undefined) taker.exit(exitCode)
    }
  }
}

function frameText(data: WebSocket.RawData): string {
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8')
}

function frameBytes(data: WebSocket.RawData): number {
  return Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer | ArrayBuffer).byteLength
}

function key(sessionId: string, taskId: string): string {
  return `${sessionId}\u0000${taskId}`
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function failure(content: string): ToolOutput {
  return { content, isError: true }
}
