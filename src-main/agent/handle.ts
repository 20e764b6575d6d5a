// What plugins get as `agent` in the agent seams (src-shared/host/agent.ts). Everything it writes
// goes through the session log, so it is durable and (for context) model-visible.
import { realpathSync } from 'node:fs'
import path from 'node:path'
import type { AgentHandle, ChannelOrigin, SessionEventInput, TurnModelOptions } from '../../src-shared/host/agent'
import type { SubagentIdentity } from '../../src-shared/host/extensions'
import type { ReasoningEffort } from '../../src-shared/model'
import { errorText, type ListenerFailure } from '../../src-shared/kernel'
import type { SessionEvent } from '../../src-shared/session/events'
import type { SessionLog } from '../session/store'

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const NO_ENV: Readonly<Record<string, string>> = Object.freeze({})

/** The part of the running turn the handle reaches. */
export interface TurnControl {
  readonly id: string
  readonly signal: AbortSignal
  stop(reason: string, by: string): void
  useForTurn(options: TurnModelOptions): void
  readonly effort?: ReasoningEffort
}

/** A subagent's handle: it speaks for the parent session (`sessionId`) but reads and writes its own log. */
export interface ChildHandleOptions {
  sessionId: string
  subagent: SubagentIdentity
  /** Where the child's tools start (the parent's directory, or an isolated worktree). */
  cwd: string
}

export class AgentHandleImpl implements AgentHandle {
  private readonly envVars: Record<string, string> = {}
  private envSnapshot: Readonly<Record<string, string>> = Object.freeze({})
  private currentCwd: string
  readonly subagent?: SubagentIdentity

  constructor(
    private readonly log: SessionLog,
    readonly workspace: string,
    private readonly currentTurn: () => TurnControl | undefined,
    /** Variables from settings (the `settingsEnv` service); the session's own setEnv values override them. */
    private readonly settingsEnv: () => Readonly<Record<string, string>> = () => NO_ENV,
    private readonly child?: ChildHandleOptions,
    /** The session's loop takes news from outside a turn (Agent.deliver); a child's handle has none. */
    private readonly deliverTo?: (text: string, source: string, channel?: ChannelOrigin) => void
  ) {
    this.currentCwd = child?.cwd ?? workspace
    if (child) this.subagent = Object.freeze({ ...child.subagent })
  }

  get sessionId(): string {
    return this.child?.sessionId ?? this.log.id
  }

  /** The session's working directory: the workspace, or where a Bash `cd` inside it left the session. */
  get cwd(): string {
    return this.currentCwd
  }

  /** Claude Code keeps the shell's directory between calls while it stays inside the project. */
  moveCwd(dir: string): string {
    const inside = (root: string) => {
      const relative = path.relative(root, dir)
      return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
    }
    const root = this.child?.cwd ?? this.workspace
    this.currentCwd = path.isAbsolute(dir) && (inside(root) || inside(realWorkspace(root))) ? dir : root
    return this.currentCwd
  }

  get transcriptPath(): string {
    return this.log.path
  }

  get events(): readonly SessionEvent[] {
    return this.log.events
  }

  get currentTurnId(): string | undefined {
    return this.currentTurn()?.id
  }

  get turnSignal(): AbortSignal | undefined {
    return this.currentTurn()?.signal
  }

  inject(text: string, source: string): void {
    this.log.append({ type: 'context/message', ...this.turnField(), text, source })
  }

  deliver(text: string, source: string, channel?: ChannelOrigin): void {
    if (this.deliverTo) this.deliverTo(text, source, channel)
    else if (channel) this.log.append({ type: 'context/message', ...this.turnField(), text, source, channel: { ...channel, meta: { ...channel.meta } } })
    else this.inject(text, source)
  }

  /** S8: ignored outside a turn; the first stop of a turn wins. */
  stop(reason: string, by: string): void {
    this.currentTurn()?.stop(reason, by)
  }

  get turnEffort(): ReasoningEffort | undefined {
    return this.currentTurn()?.effort
  }

  /** Ignored outside a turn, as stop() is. */
  useForTurn(options: TurnModelOptions): void {
    this.currentTurn()?.useForTurn(options)
  }

  setEnv(name: string, value: string): void {
    if (!ENV_NAME.test(name)) throw new Error(`setEnv: "${name}" is not a valid environment variable name`)
    if (typeof value !== 'string') throw new Error(`setEnv: the value of ${name} must be a string`)
    this.envVars[name] = value
    this.envSnapshot = Object.freeze({ ...this.envVars })
  }

  /** Settings variables under the session's own: the one merge every tool and hook process env starts from. */
  get env(): Readonly<Record<string, string>> {
    const base = this.settingsEnv()
    return Object.keys(base).length === 0 ? this.envSnapshot : Object.freeze({ ...base, ...this.envSnapshot })
  }

  record(event: SessionEventInput): void {
    this.log.append(event)
  }

  flushDurable(): Promise<void> {
    return this.log.flush({ durable: true })
  }

  notify(level: 'info' | 'warn' | 'error', text: string, source: string): void {
    this.log.append({ type: 'notice', ...this.turnField(), level, text, source })
  }

  /** For a notification seam: a listener that failed is shown as a notice in the session too. */
  listenerFailureNotice(seam: string): ListenerFailure {
    return (error, plugin) => {
      try {
        this.notify('error', `${seam} listener of plugin "${plugin}" failed: ${errorText(error)}`, plugin)
      } catch {
        // The log is closed (a late rejection after the session ended): the kernel log has it.
      }
    }
  }

  private turnField(): { turnId?: string } {
    const turnId = this.currentTurnId
    return turnId === undefined ? {} : { turnId }
  }
}

function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace)
  } catch {
    return workspace
  }
}
