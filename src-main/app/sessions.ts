// Open sessions and their agents. A session is loaded from its log when first used and keeps
// one Agent while the host runs; its events and live deltas are forwarded to the UI. Each agent
// runs on the plugin tree of the session's own workspace (from its log header), never on the one
// the window happens to show: its hooks, trust, patch layer, rules and grants are its workspace's.
import type { Kernel } from '../../src-shared/kernel'
import type { ModelClient } from '../../src-shared/model'
import type { ModelInfo } from '../llm/model-table'
import type { AgentStatePublic } from '../../src-shared/contract/ipc'
import type { WorktreeRecord } from '../../src-shared/host/worktrees'
import type { SessionEvent } from '../../src-shared/session/events'
import { Agent, type AgentSettings, type SessionEndReason } from '../agent'
import { SessionStore, type SessionLog } from '../session/store'
import type { SessionPresence } from '../session/presence'
import { choiceFromLog, SessionModel, type ModelChoice } from './model-switch'
import { finishInterruptedRestores, type RecoveredRestore } from '../checkpoints/recovery'
import { interruptedSessions, removeMarker } from '../checkpoints/journal'
import { existsSync } from 'node:fs'
import { sessionLabel } from '../../src-shared/attention'
import { summarizeEvents } from '../session/summary'
import { join } from 'node:path'

interface LiveSession {
  log: SessionLog
  agent: Agent
  /** The session's model: the Host's provider in use, or what the session switched to. */
  model: SessionModel
  /** The session's workspace and the kernel of its plugin tree. */
  workspace: string
  kernel: Kernel
  detach: () => void
  /** Reverts and rewinds a crash interrupted, finished when this host loaded the session (each also logged as a notice). */
  recovered: readonly RecoveredRestore[]
  /** A worktree session's worktree (from its header). */
  worktree?: WorktreeRecord
  /** Why the session cannot run turns: its worktree was deleted outside Seam. */
  detached?: string
}

/** What a new session may carry beyond its workspace. */
export interface CreateSessionExtras {
  /** An id made beforehand (a worktree session's hooks get it before the log exists). */
  id?: string
  worktree?: WorktreeRecord
}

/** Where sessions get their workspace's kernel: held from open to close. */
export interface WorkspaceKernels {
  acquire(workspace: string): Promise<Kernel>
  release(workspace: string): void
}

export interface SessionHubOptions {
  workspaces: WorkspaceKernels
  store: SessionStore
  model: ModelClient
  /** A client for a provider and model other than the one in use (a session's model switch). */
  modelFor?: (choice: ModelChoice) => ModelClient
  settings: () => Partial<AgentSettings>
  /** The context window and prices of a model (the defaults with the user's settings on top). */
  modelInfo?: (model: string) => ModelInfo
  /** A client for another model of the provider in use (a custom command's `model`). */
  modelClientFor?: (model: string) => ModelClient
  /** A worktree session is opening: its worktree's trust is its repository's (registered before its tree starts). */
  worktreeOpened?: (worktree: WorktreeRecord) => void
  /** The address of the provider in use (recorded in a new session's header, for a flag-less resume). */
  providerBaseUrl?: () => string | undefined
  /** Tells other Seam processes which sessions this one holds open (their Board shows them running here). */
  presence?: SessionPresence
  /**
   * The model a resumed session takes from its header when its log has no model switch: the
   * provider and model it was created with, unless this host was given one (flags) or it is the
   * one in use anyway, or it cannot be reached. Undefined: the provider in use.
   */
  headerChoice?: (recorded: { provider: string; model: string }) => ModelChoice | undefined
}

export class SessionHub {
  private readonly live = new Map<string, Promise<LiveSession>>()
  private readonly appended = new Set<(sessionId: string, event: SessionEvent) => void>()
  private readonly changed = new Set<() => void>()
  /** Per session: the last queued open/rename/close/delete. They run one at a time, in call order. */
  private readonly busy = new Map<string, Promise<void>>()
  /** Open sessions once attached, for what must be answered at once (a notice's session name). */
  private readonly attached = new Map<string, LiveSession>()
  /** Restores `finishRestoresOf` finished in sessions not open yet: handed to the session's first open. */
  private readonly recoveredEarly = new Map<string, RecoveredRestore[]>()

  constructor(private readonly options: SessionHubOptions) {}

  /** Every event appended to any open session, after it is written. */
  onAppended(listener: (sessionId: string, event: SessionEvent) => void): () => void {
    this.appended.add(listener)
    return () => this.appended.delete(listener)
  }

  /** The session list changed (created, renamed, deleted, a turn ended). */
  onChanged(listener: () => void): () => void {
    this.changed.add(listener)
    return () => this.changed.delete(listener)
  }

  private notifyChanged(): void {
    for (const listener of this.changed) listener()
  }

  async rename(id: string, title: string): Promise<void> {
    // The store appends to the live log when the session is open here, else opens and closes it.
    await this.exclusive(id, () => this.options.store.rename(id, title))
    this.notifyChanged()
  }

  get store(): SessionStore {
    return this.options.store
  }

  /** Which other process holds a session open (undefined: presence is not kept). */
  get presence(): SessionPresence | undefined {
    return this.options.presence
  }

  /** A new session; `source` is what its SessionStart says (`clear`: the one `/clear` opened). */
  async create(workspace: string, title?: string, source: 'startup' | 'clear' = 'startup', extras: CreateSessionExtras = {}): Promise<LiveSession> {
    const { model } = this.options
    const baseUrl = this.options.providerBaseUrl?.()
    const log = await this.options.store.create({ workspace, title, model: { provider: model.provider, model: model.model, ...(baseUrl ? { baseUrl } : {}) }, ...extras })
    const session = await this.attach(log, source)
    this.live.set(log.id, Promise.resolve(session))
    this.notifyChanged()
    return session
  }

  /** The live session, loading its log (and resuming it) on first use. */
  open(id: string): Promise<LiveSession> {
    let session = this.live.get(id)
    if (!session) {
      const loading = this.exclusive(id, async () => {
        const log = await this.options.store.open(id)
        // Before the agent exists: a revert or rewind cut short is finished first (src-main/checkpoints/recovery.ts).
        let recovered: RecoveredRestore[]
        try {
          recovered = await finishInterruptedRestores(log)
        } catch (error) {
          await log.close()
          throw error
        }
        const early = this.recoveredEarly.get(id) ?? []
        this.recoveredEarly.delete(id)
        return this.attach(log, 'resume', [...early, ...recovered])
      })
      session = loading
      this.live.set(id, loading)
      loading.catch(() => {
        if (this.live.get(id) === loading) this.live.delete(id)
      })
    }
    return session
  }

  /**
   * Loading a workspace: finishes the reverts and rewinds a crash cut short in its sessions that
   * are not open (found by their markers, src-main/checkpoints/journal.ts), each logged with its
   * notice. A session that cannot be read is reported and left for its own open to refuse.
   */
  async finishRestoresOf(workspace: string): Promise<Array<{ sessionId: string; recovered?: RecoveredRestore[]; error?: string }>> {
    const out: Array<{ sessionId: string; recovered?: RecoveredRestore[]; error?: string }> = []
    for (const id of await interruptedSessions(this.options.store.dir, workspace)) {
      if (this.live.has(id)) continue // its open did it
      try {
        const recovered = await this.exclusive(id, async () => {
          const log = await this.options.store.open(id)
          try {
            return await finishInterruptedRestores(log)
          } finally {
            await log.close()
          }
        })
        if (recovered.length === 0) continue
        this.recoveredEarly.set(id, [...(this.recoveredEarly.get(id) ?? []), ...recovered])
        out.push({ sessionId: id, recovered })
      } catch (error) {
        // A session deleted since leaves only its marker behind.
        if (!existsSync(join(this.options.store.dir, `${id}.jsonl`))) await removeMarker(join(this.options.store.dir, `${id}.jsonl`))
        else out.push({ sessionId: id, error: (error as Error).message })
      }
    }
    return out
  }

  isOpen(id: string): boolean {
    return this.live.has(id)
  }

  async state(id: string): Promise<AgentStatePublic> {
    const { agent } = await this.open(id)
    return { sessionId: id, ...agent.state }
  }

  /** The model of an open session (undefined when it is not open). */
  async modelOf(id: string): Promise<SessionModel | undefined> {
    const session = this.live.get(id)
    return session ? (await session.catch(() => undefined))?.model : undefined
  }

  close(id: string, reason: SessionEndReason): Promise<void> {
    const session = this.live.get(id)
    if (!session) return Promise.resolve()
    this.live.delete(id)
    return this.exclusive(id, () => this.shut(session, reason))
  }

  /** Closes the session if it is open, then removes its file; an open or rename queued meanwhile finds it gone. */
  async delete(id: string): Promise<void> {
    const session = this.live.get(id)
    this.live.delete(id)
    await this.exclusive(id, async () => {
      if (session) await this.shut(session, 'deleted')
      await this.options.store.delete(id)
    })
    this.notifyChanged()
  }

  /**
   * Deletes a session nobody said anything in (no user message: a run of built-in commands only,
   * such as `seam run "/help"` or ACP's `/usage`), so it leaves no untitled empty session behind.
   * Returns whether it was deleted.
   */
  async discardIfEmpty(id: string): Promise<boolean> {
    const session = this.live.get(id)
    if (!session) return false
    const { log } = await session
    if (log.events.some((event) => event.type === 'user/message')) return false
    await this.delete(id)
    return true
  }

  /** Closes every open session; one that fails to close does not keep the others open. */
  async closeAll(reason: 'shutdown'): Promise<void> {
    await Promise.allSettled([...this.live.keys()].map((id) => this.close(id, reason)))
  }

  /** An open session's name for a notice: its title and a worktree session's branch (attention.ts `sessionLabel`). */
  sessionName(id: string): string | undefined {
    const live = this.attached.get(id)
    if (!live) return undefined
    return sessionLabel(id, summarizeEvents(id, live.log.events).title, live.worktree?.branch || undefined)
  }

  private async shut(session: Promise<LiveSession>, reason: SessionEndReason): Promise<void> {
    let live: LiveSession
    try {
      live = await session
    } catch {
      return // It never opened: nothing to close.
    }
    this.attached.delete(live.log.id)
    try {
      await live.agent.close(reason)
    } finally {
      live.detach()
      try {
        await live.log.close()
      } finally {
        this.options.workspaces.release(live.workspace)
        this.leave(live.log.id)
      }
    }
  }

  /** Other processes see this one holding the session; a presence that cannot be written only costs them the live status. */
  private announce(id: string): void {
    try {
      this.options.presence?.hold(id)
    } catch {
      // The Board elsewhere then shows the session as not open, as before presence existed.
    }
  }

  private leave(id: string): void {
    try {
      this.options.presence?.release(id)
    } catch {
      // Left behind, it reads as stale once this process is gone.
    }
  }

  /** Runs `task` after every earlier task for the same session has settled. */
  private exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    const before = this.busy.get(id) ?? Promise.resolve()
    const run = before.then(task)
    const done = run.then(
      () => undefined,
      () => undefined
    )
    this.busy.set(id, done)
    void done.then(() => {
      if (this.busy.get(id) === done) this.busy.delete(id)
    })
    return run
  }

  /** The session's live agent, on the plugin tree of the workspace its header names. */
  async kernelOf(id: string): Promise<Kernel | undefined> {
    const session = this.live.get(id)
    return session ? (await session).kernel : undefined
  }

  /**
   * Switches the session's model: logged as `model/switched` (resume keeps it); the next model
   * request goes to `choice`, a running turn's included.
   */
  async switchModel(id: string, choice: ModelChoice): Promise<{ from: ModelChoice | { provider: string; model: string } }> {
    const session = await this.open(id)
    const from = { provider: session.model.provider, model: session.model.model }
    if (from.provider !== choice.provider || from.model !== choice.model) {
      session.log.append({ type: 'model/switched', provider: choice.provider, model: choice.model, from })
      session.model.choose(choice)
      await session.log.flush()
    }
    return { from }
  }

  private async attach(log: SessionLog, source: 'startup' | 'resume' | 'clear', recovered: readonly RecoveredRestore[] = []): Promise<LiveSession> {
    const header = log.events[0]
    let workspace = header && header.type === 'session/header' ? header.workspace : process.cwd()
    const worktree = header && header.type === 'session/header' ? header.worktree : undefined
    let detached: string | undefined
    if (worktree) {
      this.options.worktreeOpened?.(worktree)
      if (!existsSync(worktree.path)) {
        // Its history stays readable on the repository's tree; no turn runs anywhere else than its worktree.
        detached = detachedText(worktree)
        workspace = worktree.repo
        log.append({ type: 'notice', level: 'warn', text: detached, source: 'worktrees' })
      }
    }
    let kernel: Kernel
    try {
      kernel = await this.options.workspaces.acquire(workspace)
    } catch (error) {
      await log.close()
      throw error
    }
    const { modelInfo, modelClientFor } = this.options
    const forChoice = this.options.modelFor ?? (() => this.options.model)
    // An explicit choice (a model switch in the log) wins; a resumed session then keeps the model its header records.
    const recorded = source === 'resume' && header?.type === 'session/header' ? header.model : undefined
    const model = new SessionModel(this.options.model, forChoice, choiceFromLog(log.events) ?? (recorded ? this.options.headerChoice?.(recorded) : undefined))
    const agent = new Agent({
      kernel,
      log,
      model,
      workspace,
      settings: this.options.settings(),
      source,
      ...(modelInfo ? { modelInfo } : {}),
      ...(modelClientFor ? { modelClientFor } : {}),
      ...(detached !== undefined ? { refuseTurns: detached } : {})
    })
    const unsubscribe = log.onAppend((event) => {
      kernel.emit('session/appended', log.id, event)
      for (const listener of this.appended) listener(log.id, event)
      if (event.type === 'turn/end') this.notifyChanged()
    })
    this.announce(log.id)
    const live: LiveSession = { log, agent, model, workspace, kernel, detach: unsubscribe, recovered, ...(worktree ? { worktree } : {}), ...(detached !== undefined ? { detached } : {}) }
    this.attached.set(log.id, live)
    return live
  }
}

/** What a worktree session deleted outside Seam says, in its log and to every prompt. */
export function detachedText(worktree: WorktreeRecord): string {
  return `This session is detached: its worktree ${worktree.path} no longer exists (deleted outside Seam, or discarded), so it cannot run. Its history is kept${worktree.branch ? `; the branch ${worktree.branch} is still in ${worktree.repo} unless it was discarded` : ''}.`
}
