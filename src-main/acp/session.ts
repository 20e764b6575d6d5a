// One ACP session: its own HostRuntime (so the workspace, its trust, the approval mode and the
// model are the session's own, and the plugin tree, hooks and session store are the app's), the
// Seam session it drives, and the stream of `session/update`s the editor sees.
import type { ImageAttachment } from '../../src-shared/session/attachments'
import { acceptsImages } from '../app/model-options'
import { RequestError, type AgentContext, type AvailableCommand, type SessionModeState, type SessionConfigOption, type SessionUpdate, type StopReason, type ToolCallContent, type ToolCallUpdate } from '@agentclientprotocol/sdk'
import type { ProviderConfig } from '../../src-shared/model'
import type { BackgroundTaskInfo } from '../../src-shared/host/background-tasks'
import type { SessionEventOf } from '../../src-shared/session/events'
import type { ApprovalRequest, SealedCall } from '../../src-shared/host/tools'
import { PROVIDER_PRESETS } from '../llm/presets'
import { HostRuntime } from '../app/runtime'
import type { Kernel } from '../../src-shared/kernel'
import type { Agent } from '../agent'
import type { SessionLog } from '../session/store'
import { acpToolsPlugin, type EditorCapabilities, type EditorSide } from './client-tools'
import type { EditorTerminal } from './terminal-task'
import { acpApprovalPlugin, type ApproveMode, type PermissionChannel } from './permission'
import { toolView } from './tool-view'
import { subagentLabel } from '../../src-shared/subagent-label'
import { stopReasonOf, toolCallIdOf, UpdateMapper } from './updates'
import { APPROVAL_MODES, type ApprovalMode } from '../../plugins/permission-policy/modes'
import { dispatch, sessionCommands, type DispatchResult } from '../commands/dispatch'
import { CommandError } from '../commands/expand'
import { parseSlash } from '../commands/registry'
import { z } from 'zod'
import { createWorktreeSession } from '../app/worktree-sessions'

/** `session/new`'s `_meta.seam.worktree`: run the session in a new git worktree of `cwd`'s repository. */
export const WorktreeOptionSchema = z.object({ name: z.string().optional(), base: z.string().optional() }).strict()
export type WorktreeOption = z.infer<typeof WorktreeOptionSchema>

/** Built-ins an editor session does not offer: `/clear` opens a new Seam session, which over ACP is the editor's `session/new`. */
const NOT_OVER_ACP: ReadonlySet<string> = new Set(['clear'])

/** How each of Seam's approval modes is offered to the editor (every mode, in the shared list's order). */
const MODE_TEXT: Readonly<Record<ApprovalMode, { name: string; description: string }>> = {
  'ask-side-effects': { name: 'Ask before changes', description: 'Ask before a tool changes files or runs a command; reading and searching run freely.' },
  'ask-all': { name: 'Ask for every tool', description: 'Ask before every tool call.' },
  'never-ask': { name: 'Never ask', description: 'Run every tool call the policies allow without asking.' },
  'accept-edits': { name: 'Accept edits', description: 'File edits (Edit, Write) run without asking; other changes and commands ask (Claude Code\'s acceptEdits).' },
  'dont-ask': { name: "Don't ask", description: 'Calls that would ask are denied instead; only allow rules let side effects through (Claude Code\'s dontAsk).' },
  plan: { name: 'Plan', description: 'Read-only: tools that change files or run programs are denied (Claude Code\'s plan mode).' }
}

export const SESSION_MODES: ReadonlyArray<{ id: ApprovalMode; name: string; description: string }> = APPROVAL_MODES.map((id) => ({ id, ...MODE_TEXT[id] }))

/** What every session of one `seam acp` process shares: the command line and the connection. */
export interface AcpProcess {
  env: NodeJS.ProcessEnv
  provider?: ProviderConfig
  trustWorkspace: boolean
  patchFile?: string
  approve: ApproveMode
  maxSteps?: number
  client(): AgentContext
  clientCapabilities(): EditorCapabilities & { notices: boolean }
  log(message: string): void
}

export class AcpSession implements EditorSide, PermissionChannel {
  private readonly mapper: UpdateMapper
  private sending: Promise<void> = Promise.resolve()
  private readonly toolCallIds = new Map<string, string>()
  private detach: () => void = () => {}
  private running = false
  /** The slash commands the editor was last told of (available_commands_update), as JSON. */
  private commandsSent = ''
  /** Background tasks that ended while a turn ran (told to the editor at its end when the model was not told). */
  private readonly endedDuringTurn: BackgroundTaskInfo[] = []
  /** Notices (an editor's MCP server that failed) to record as the next turn starts, where the editor sees them. */
  private pendingNotices: Array<{ level: 'info' | 'warn' | 'error'; text: string; source: string }> = []

  private constructor(
    readonly runtime: HostRuntime,
    readonly kernel: Kernel,
    readonly log: SessionLog,
    readonly agent: Agent,
    readonly cwd: string,
    private readonly proc: AcpProcess,
    /** Made by session/new (not loaded): discarded on close when nothing was said in it. */
    private readonly created = false
  ) {
    this.mapper = new UpdateMapper({ cwd, notices: proc.clientCapabilities().notices })
  }

  get id(): string {
    return this.log.id
  }

  get capabilities(): EditorCapabilities {
    return this.proc.clientCapabilities()
  }

  /** Starts the session's host and creates (or opens) the Seam session in `cwd`. */
  static async open(proc: AcpProcess, cwd: string, existing?: string, worktree?: WorktreeOption): Promise<AcpSession> {
    let session: AcpSession | undefined
    const runtime = await HostRuntime.start({
      mode: 'headless',
      env: proc.env,
      workspace: cwd,
      trustWorkspace: proc.trustWorkspace,
      provider: proc.provider,
      patchFile: proc.patchFile,
      approvalMode: proc.approve === 'allow' ? 'never-ask' : undefined,
      maxSteps: proc.maxSteps,
      answerer: { key: 'builtin:approval-acp', plugin: acpApprovalPlugin(proc.approve, () => session) as never },
      extraEntries: [{ id: 'acp-tools', key: 'builtin:acp-tools', plugin: acpToolsPlugin(() => session) as never }]
    })
    // The host's warnings and errors (a plugin that failed to load, a broken settings file) go to stderr.
    runtime.onLog((record) => {
      if (record.level === 'warn' || record.level === 'error') proc.log(`${record.level} [${record.plugin}] ${runtime.keys.redact(record.message)}`)
    })
    for (const record of runtime.logs()) if (record.level === 'error') proc.log(`error [${record.plugin}] ${record.message}`)
    try {
      // A patch layer that does not compose (it may disable a tool) must not be silently dropped.
      const composeError = runtime.plugins.dump().error
      if (composeError) throw RequestError.internalError(undefined, `the plugin tree does not compose: ${composeError}`)
      let live
      if (existing) live = await runtime.sessions.open(existing)
      else if (worktree) {
        try {
          live = (await createWorktreeSession(runtime, { workspace: cwd, ...worktree })).session
        } catch (error) {
          throw RequestError.invalidParams({ cwd }, `_meta.seam.worktree: ${(error as Error).message}`)
        }
      } else live = await runtime.sessions.create(cwd)
      // A worktree session runs in its worktree: tools, hooks and the editor's paths are the worktree's.
      const folder = live.workspace
      // The kernel of the session's own workspace tree (held while the session is open): its policy and MCP client.
      const kernel = (await runtime.kernelOf(folder)) ?? runtime.kernel
      session = new AcpSession(runtime, kernel, live.log, live.agent, folder, proc, !existing)
      return session
    } catch (error) {
      await runtime.close().catch(() => undefined)
      throw error
    }
  }

  // ---- the update stream ----------------------------------------------------------------------

  private send(update: SessionUpdate): void {
    const client = this.proc.client()
    this.sending = this.sending
      .then(() => client.notify('session/update', { sessionId: this.id, update }))
      .catch((error: unknown) => this.proc.log(`session ${this.id}: a session/update could not be sent: ${(error as Error)?.message ?? String(error)}`))
  }

  /** Resolves once every update queued so far is written. */
  flush(): Promise<void> {
    return this.sending
  }

  /** Replays the log (session/load), then follows it live. Without `replay`, follows from now on. */
  follow(replay: boolean): void {
    if (replay) for (const event of this.log.events) this.observe(event, 'replay')
    const offEvents = this.runtime.sessions.onAppended((id, event) => {
      if (id === this.id) this.observe(event, 'live')
    })
    // The session runs on its own workspace's kernel (a loaded session may not be the runtime's workspace).
    const offDeltas = this.runtime.eachKernel((kernel) => {
      const offs = [
        kernel.context.on('agent/delta', (id, delta) => {
          if (id === this.id) for (const update of this.mapper.fromDelta(delta)) this.send(update)
        }),
        // A running subagent's own log: progress on its Agent call, and its asked calls' results.
        kernel.context.on('agent/subagent-appended', (id, agent, event) => {
          if (id === this.id) this.observeSubagent(agent.agentId, event)
        }),
        kernel.getService('backgroundTasks')?.onChange((task) => {
          if (task.sessionId === this.id && task.status !== 'running' && task.endReason !== 'session-closed') this.taskEnded(task)
        }) ?? (() => {})
      ]
      return () => offs.forEach((off) => off())
    })
    this.detach = () => {
      offEvents()
      offDeltas()
    }
  }

  /**
   * A background task ended. While the session is idle the editor is told at once, with the notice
   * the model gets with the next prompt (an agent_message_chunk: README of src-main/acp). During a
   * turn the model hears of it on its next step; what the turn did not tell it is sent when the
   * turn ends.
   */
  private taskEnded(task: BackgroundTaskInfo): void {
    if (this.running) this.endedDuringTurn.push(task)
    else this.tellTaskEnd(task)
  }

  private tellTaskEnd(task: BackgroundTaskInfo): void {
    const service = this.agent.kernel.getService('backgroundTasks')
    if (!service) return
    const queued = service.notice(this.id, task.id).then(
      (text) => this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, _meta: { seam: { task: { ...task } } } }),
      (error: unknown) => this.proc.log(`session ${this.id}: the end of task ${task.id} could not be told: ${(error as Error)?.message ?? String(error)}`)
    )
    this.sending = this.sending.then(() => queued)
  }

  /** Task ends of the turn that just ended which nothing in it (a notice, TaskOutput, TaskStop) told the model of. */
  private tellTaskEndsOfTurn(): void {
    for (const task of this.endedDuringTurn.splice(0)) {
      const told = this.log.events.some(
        (event) => event.ts >= (task.endedAt ?? 0) && (event.type === 'context/message' ? event.text : event.type === 'tool/result' ? event.content : '').includes(task.id)
      )
      if (!told) this.tellTaskEnd(task)
    }
  }

  private observeSubagent(agentId: string, event: Parameters<UpdateMapper['fromEvent']>[0]): void {
    if (event.type === 'tool/call' && event.token) this.toolCallIds.set(event.token, toolCallIdOf(event.turnId, event.callId))
    // A subagent's call the editor was asked about is a card of its own: it completes or fails there too.
    if (event.type === 'tool/result' && this.mapper.isAnnounced(toolCallIdOf(event.turnId, event.callId))) {
      for (const update of this.mapper.fromEvent(event, 'live')) this.send(update)
    }
    for (const update of this.mapper.fromSubagentEvent(agentId, event)) this.send(update)
  }

  private observe(event: Parameters<UpdateMapper['fromEvent']>[0], mode: 'live' | 'replay'): void {
    if (event.type === 'tool/call' && event.token) this.toolCallIds.set(event.token, toolCallIdOf(event.turnId, event.callId))
    for (const update of this.mapper.fromEvent(event, mode)) this.send(update)
  }

  // ---- turns ----------------------------------------------------------------------------------

  /** Runs one prompt as a turn and maps how it ended; a failed turn rejects with its error. */
  async prompt(text: string, images: ImageAttachment[] = []): Promise<StopReason> {
    if (this.running) {
      throw RequestError.invalidRequest({ sessionId: this.id }, `a turn is already running in session ${this.id}; wait for its response or send session/cancel`)
    }
    const model = this.runtime.model.model
    if (images.length > 0 && !acceptsImages(this.runtime, model)) {
      throw RequestError.invalidParams({ sessionId: this.id }, `prompt: ${model} does not accept images (the model table's vision flag); switch the model or send text only`)
    }
    this.running = true
    try {
      const from = this.log.events.length
      for (const notice of this.pendingNotices.splice(0)) this.agent.handle.notify(notice.level, notice.text, notice.source)
      // Slash commands as in the app: a built-in answers (as a notice, which the editor sees as a
      // message), a custom command is expanded and runs as the turn, anything else is the prompt.
      const command = images.length === 0 ? await this.runCommand(text) : ({ kind: 'prompt' } as const)
      if (command.kind === 'builtin') {
        if (command.name !== 'compact') this.agent.handle.notify(command.ok ? 'info' : 'error', command.message, 'command')
        if (command.name === 'model') this.send({ sessionUpdate: 'config_option_update', configOptions: this.configOptions() })
        // The notice reaches the editor once it is written (listeners hear of events after the write).
        await this.log.flush()
        await this.flush()
        return 'end_turn'
      }
      if (command.kind === 'prompt') this.agent.send(text, 'user', undefined, images)
      await this.agent.whenIdle()
      await this.flush()
      const events = this.log.events.slice(from)
      const end = events.filter((e): e is SessionEventOf<'turn/end'> => e.type === 'turn/end').at(-1)
      if (!end) throw RequestError.internalError({ sessionId: this.id }, 'the turn ended without a turn/end event')
      const last = events.filter((e): e is SessionEventOf<'assistant/message'> => e.type === 'assistant/message' && e.turnId === end.turnId).at(-1)
      const outcome = stopReasonOf(end, last)
      if ('error' in outcome) throw RequestError.internalError({ sessionId: this.id, turnId: end.turnId }, `the turn failed: ${outcome.error}`)
      return outcome.stopReason
    } finally {
      this.running = false
      this.tellTaskEndsOfTurn()
      this.announceCommands()
    }
  }

  private async runCommand(text: string): Promise<DispatchResult> {
    const slash = parseSlash(text)
    if (!slash) return { kind: 'prompt' }
    if (NOT_OVER_ACP.has(slash.name)) throw RequestError.invalidParams({ command: slash.name }, `prompt: /${slash.name} is not offered over ACP; start a new session from the editor instead`)
    try {
      return await dispatch(this.runtime, { id: this.id, agent: this.agent, workspace: this.cwd }, text, { source: 'user', awaitCompaction: true })
    } catch (error) {
      if (error instanceof CommandError) throw RequestError.invalidParams({ command: slash.name }, `prompt: ${error.message}`)
      throw error
    }
  }

  /** The workspace's slash commands as ACP lists them (read from disk now, as the app does). */
  availableCommands(): AvailableCommand[] {
    return sessionCommands(this.runtime, this.cwd, this.agent.kernel)
      .commands.filter((command) => !NOT_OVER_ACP.has(command.name) && command.userInvocable !== false)
      .map((command) => ({ name: command.name, description: command.description, ...(command.argumentHint ? { input: { hint: command.argumentHint } } : {}) }))
  }

  /** Tells the editor the slash commands when they differ from what it was last told (a command file added, changed or removed). */
  announceCommands(): void {
    const commands = this.availableCommands()
    const key = JSON.stringify(commands)
    if (key === this.commandsSent) return
    this.commandsSent = key
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: commands })
  }

  noticeBeforeNextTurn(level: 'info' | 'warn' | 'error', text: string, source: string): void {
    this.pendingNotices.push({ level, text, source })
  }

  /** A line for the process log (stderr), naming the session. */
  logLine(text: string): void {
    this.proc.log(`session ${this.id}: ${text}`)
  }

  cancel(): Promise<void> {
    return this.agent.cancel()
  }

  async close(): Promise<void> {
    this.detach()
    // A session in which only built-in commands ran (`/usage`, `/help`) is not kept.
    if (this.created) await this.runtime.sessions.discardIfEmpty(this.id).catch(() => undefined)
    await this.runtime.close()
  }

  // ---- modes and models -----------------------------------------------------------------------

  /** The mode the permission policy applies (a Claude Code `defaultMode` included), else the runtime's. */
  private currentMode(): ApprovalMode {
    return this.kernel.getService('permissionPolicy')?.inForce().mode.mode ?? this.runtime.approvalMode()
  }

  modes(): SessionModeState {
    return { currentModeId: this.currentMode(), availableModes: SESSION_MODES.map((m) => ({ ...m })) }
  }

  async setMode(modeId: string): Promise<void> {
    const mode = SESSION_MODES.find((m) => m.id === modeId)
    if (!mode) throw RequestError.invalidParams({ modeId }, `modeId: unknown mode "${modeId}"; one of ${SESSION_MODES.map((m) => m.id).join(', ')}`)
    await this.runtime.setApprovalMode(mode.id)
    this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode.id })
  }

  /** The models one can switch to: the current one, the preset's and the Seam home's choice for the same provider. */
  private models(): string[] {
    const config = this.runtime.providerSettings()
    if (!config) return []
    const stored = this.runtime.settings.value.provider
    const candidates = [config.model, PROVIDER_PRESETS[config.provider].model, stored?.provider === config.provider ? stored.model : undefined, this.proc.provider?.model]
    return [...new Set(candidates.filter((m): m is string => typeof m === 'string' && m !== ''))]
  }

  configOptions(): SessionConfigOption[] {
    const options: SessionConfigOption[] = [
      {
        id: 'mode',
        name: 'Approval mode',
        category: 'mode',
        type: 'select',
        currentValue: this.currentMode(),
        options: SESSION_MODES.map((m) => ({ value: m.id, name: m.name, description: m.description }))
      }
    ]
    const config = this.runtime.providerSettings()
    if (config) {
      options.push({ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: config.model, options: this.models().map((m) => ({ value: m, name: m })) })
    }
    return options
  }

  async setConfigOption(configId: string, value: unknown): Promise<SessionConfigOption[]> {
    if (typeof value !== 'string') throw RequestError.invalidParams({ configId }, `value: the "${configId}" option takes a string`)
    if (configId === 'mode') await this.setMode(value)
    else if (configId === 'model') {
      if (!this.runtime.providerSettings()) throw RequestError.invalidParams({ configId }, 'model: no model provider is configured')
      if (!this.models().includes(value)) throw RequestError.invalidParams({ configId, value }, `value: unknown model "${value}"; one of ${this.models().join(', ')}`)
      this.runtime.setModel(value)
    } else throw RequestError.invalidParams({ configId }, `configId: unknown option "${configId}"; one of mode, model`)
    return this.configOptions()
  }

  // ---- the editor side of the tools (client-tools.ts) and approvals (permission.ts) ------------

  private requestOptions(signal: AbortSignal) {
    return { cancellationSignal: signal, stopWaitingOnCancel: true }
  }

  async readTextFile(path: string, signal: AbortSignal): Promise<string> {
    // The call's card (in_progress) reaches the editor before the request it makes.
    await this.flush()
    const response = await this.proc.client().request('fs/read_text_file', { sessionId: this.id, path }, this.requestOptions(signal))
    return response.content
  }

  async writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void> {
    await this.flush()
    await this.proc.client().request('fs/write_text_file', { sessionId: this.id, path, content }, this.requestOptions(signal))
  }

  async openTerminal(command: { command: string; args: string[]; cwd: string; env: Record<string, string>; outputByteLimit: number }, signal: AbortSignal): Promise<EditorTerminal> {
    const env = Object.entries(command.env).map(([name, value]) => ({ name, value }))
    // The call's card reaches the editor before the terminal it runs in.
    await this.flush()
    return this.proc.client().createTerminal({ sessionId: this.id, ...command, env }, this.requestOptions(signal))
  }

  env(): Readonly<Record<string, string>> {
    return this.agent.handle.env
  }

  started(call: SealedCall, content?: ToolCallContent[]): void {
    if (call.sessionId !== this.id || !call.turnId) return
    const toolCallId = toolCallIdOf(call.turnId, call.callId)
    // A subagent's call is a card of its own only once the editor was asked about it (else its
    // steps are its Agent call's progress).
    if (call.agent && !this.mapper.isAnnounced(toolCallId)) return
    // The call's own card (its tool/call, still in the log's group commit) reaches the editor first.
    if (!call.agent) this.log.flush().catch(() => undefined)
    this.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress', ...(content ? { content } : {}) })
  }

  toolCallFor(request: ApprovalRequest): ToolCallUpdate {
    const toolCallId = this.toolCallIds.get(request.token) ?? request.token
    const view = toolView(request.tool, request.args, this.cwd)
    if (!request.agent) return { toolCallId, status: 'pending', rawInput: request.args, ...view }
    // A subagent's call: the editor has not seen it (the subagent's steps are its Agent call's
    // content), so it is announced as a card of its own, titled with the subagent that asks.
    const card = { toolCallId, status: 'pending' as const, rawInput: request.args, ...view, title: `${capitalized(subagentLabel(request.agent))}: ${view.title}`, _meta: { seam: { agent: { ...request.agent } } } }
    if (!this.mapper.isAnnounced(toolCallId)) {
      this.mapper.markAnnounced(toolCallId)
      this.send({ sessionUpdate: 'tool_call', ...card })
    }
    return card
  }

  async requestPermission(params: Parameters<PermissionChannel['requestPermission']>[0], signal: AbortSignal): Promise<unknown> {
    // The card the ask is about (with its sealed arguments) reaches the editor first.
    await this.flush()
    return this.proc.client().request('session/request_permission', params, this.requestOptions(signal))
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
