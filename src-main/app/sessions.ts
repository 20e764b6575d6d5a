// Open sessions and their agents. A session is loaded from its log when first used and keeps
// one Agent while the host runs; its events and live deltas are forwarded to the UI.
import type { Kernel } from '../../src-shared/kernel'
import type { ModelClient } from '../../src-shared/model'
import type { AgentStatePublic } from '../../src-shared/contract/ipc'
import type { SessionEvent } from '../../src-shared/session/events'
import { Agent, type AgentSettings } from '../agent'
import { SessionStore, type SessionLog } from '../session/store'

interface LiveSession {
  log: SessionLog
  agent: Agent
  detach: () => void
}

export interface SessionHubOptions {
  kernel: Kernel
  store: SessionStore
  model: ModelClient
  settings: () => Partial<AgentSettings>
}

export class SessionHub {
  private readonly live = new Map<string, Promise<LiveSession>>()
  private readonly appended = new Set<(sessionId: string, event: SessionEvent) => void>()
  private readonly changed = new Set<() => void>()

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
    if (this.live.has(id)) {
      const { log } = await this.open(id)
      log.append({ type: 'session/renamed', title })
      await log.flush()
    } else {
      await this.options.store.rename(id, title)
    }
    this.notifyChanged()
  }

  get store(): SessionStore {
    return this.options.store
  }

  async create(workspace: string, title?: string): Promise<LiveSession> {
    const { model } = this.options
    const log = await this.options.store.create({ workspace, title, model: { provider: model.provider, model: model.model } })
    const session = this.attach(log, 'startup')
    this.live.set(log.id, Promise.resolve(session))
    this.notifyChanged()
    return session
  }

  /** The live session, loading its log (and resuming it) on first use. */
  open(id: string): Promise<LiveSession> {
    let session = this.live.get(id)
    if (!session) {
      session = this.options.store.open(id).then((log) => this.attach(log, 'resume'))
      this.live.set(id, session)
      session.catch(() => this.live.delete(id))
    }
    return session
  }

  isOpen(id: string): boolean {
    return this.live.has(id)
  }

  async state(id: string): Promise<AgentStatePublic> {
    const { agent } = await this.open(id)
    return { sessionId: id, ...agent.state }
  }

  async close(id: string, reason: 'closed' | 'deleted' | 'shutdown'): Promise<void> {
    const session = this.live.get(id)
    if (!session) return
    this.live.delete(id)
    const { agent, log, detach } = await session
    await agent.close(reason)
    detach()
    await log.close()
  }

  async delete(id: string): Promise<void> {
    await this.close(id, 'deleted')
    await this.options.store.delete(id)
    this.notifyChanged()
  }

  async closeAll(reason: 'shutdown'): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.close(id, reason)))
  }

  private attach(log: SessionLog, source: 'startup' | 'resume'): LiveSession {
    const { kernel, model } = this.options
    const header = log.events[0]
    const workspace = header && header.type === 'session/header' ? header.workspace : process.cwd()
    const agent = new Agent({ kernel, log, model, workspace, settings: this.options.settings(), source })
    const unsubscribe = log.onAppend((event) => {
      kernel.emit('session/appended', log.id, event)
      for (const listener of this.appended) listener(log.id, event)
      if (event.type === 'turn/end') this.notifyChanged()
    })
    return { log, agent, detach: unsubscribe }
  }
}
