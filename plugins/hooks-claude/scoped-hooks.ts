// Hooks one session runs besides its settings' (the `scopedHooks` service): a skill's `hooks`
// front matter, registered when the skill is invoked and kept until the session ends (Claude
// Code: "hooks registered for the session once the skill is invoked"). They are read as a
// settings file's `hooks` object is, run after the settings' handlers under the same
// de-duplication, and a handler's `once: true` (honoured for skills only) removes it when it is
// selected to run.
import type { ScopedHooks, ScopedHooksRequest } from '@seam/sdk'
import type { ClaudeHookEvent } from '../hook-protocol/index'
import { loadHooksObject, type ConfiguredHandler } from './settings-loader'
import { MAPPED_EVENTS } from './sources'

interface Registration {
  readonly sessionId: string
  /** A subagent's own hooks: only its events select them. */
  readonly agentId?: string
  readonly honourOnce: boolean
  handlers: ConfiguredHandler[]
}

export class ScopedHookRegistry {
  private readonly bySession = new Map<string, Set<Registration>>()
  private readonly owner = new Map<ConfiguredHandler, Registration>()

  add(request: ScopedHooksRequest): ScopedHooks {
    const loaded = loadHooksObject(request.agentId === undefined ? { ...request.hooks } : subagentHooks(request.hooks), 'scoped', request.file)
    const problems: string[] = []
    if (loaded.status === 'invalid') problems.push(`${request.file}: ${loaded.problem ?? 'invalid hooks'}; none of its hooks run`)
    problems.push(...loaded.notes)
    for (const event of loaded.unknownEvents) problems.push(`${request.file}: hooks.${event} is not a Claude Code hook event; ignored`)
    const handlers = loaded.status === 'invalid' ? [] : loaded.handlers.filter((handler) => {
      if (handler.unsupported !== undefined) return false
      if (MAPPED_EVENTS.has(handler.event)) return true
      problems.push(`${request.file}: ${handler.where} (${handler.label}): Seam does not fire ${handler.event} yet; this hook will not run`)
      return false
    })
    if (request.env !== undefined) for (const handler of handlers) handler.env = request.env
    const registration: Registration = { sessionId: request.sessionId, honourOnce: request.honourOnce === true, handlers, ...(request.agentId !== undefined ? { agentId: request.agentId } : {}) }
    let set = this.bySession.get(request.sessionId)
    if (!set) this.bySession.set(request.sessionId, (set = new Set()))
    set.add(registration)
    for (const handler of handlers) this.owner.set(handler, registration)
    return { problems, remove: () => this.remove(registration) }
  }

  /** Whether any session has a scoped handler for `event` (the seams' fast path). */
  has(event: ClaudeHookEvent): boolean {
    for (const set of this.bySession.values()) for (const registration of set) if (registration.handlers.some((h) => h.event === event)) return true
    return false
  }

  /** The session's scoped handlers for `event`, in registration order; a subagent's own only for its events (`agentId`). */
  handlers(sessionId: string, event: ClaudeHookEvent, agentId?: string): ConfiguredHandler[] {
    const set = this.bySession.get(sessionId)
    if (!set) return []
    const found: ConfiguredHandler[] = []
    for (const registration of set) {
      if (registration.agentId !== undefined && registration.agentId !== agentId) continue
      for (const handler of registration.handlers) if (handler.event === event) found.push(handler)
    }
    return found
  }

  /** Handlers about to run: those with `once: true` whose registration honours it are taken off first, so no later event selects them. */
  selected(handlers: readonly ConfiguredHandler[]): void {
    for (const handler of handlers) {
      const registration = this.owner.get(handler)
      if (!registration || !registration.honourOnce || handler.handler.once !== true) continue
      registration.handlers = registration.handlers.filter((h) => h !== handler)
      this.owner.delete(handler)
    }
  }

  /** The session ended: its scoped hooks go with it. */
  release(sessionId: string): void {
    for (const registration of this.bySession.get(sessionId) ?? []) this.forget(registration)
    this.bySession.delete(sessionId)
  }

  private remove(registration: Registration): void {
    const set = this.bySession.get(registration.sessionId)
    if (!set?.delete(registration)) return
    this.forget(registration)
    if (set.size === 0) this.bySession.delete(registration.sessionId)
  }

  private forget(registration: Registration): void {
    for (const handler of registration.handlers) this.owner.delete(handler)
    registration.handlers = []
  }
}

/** An agent file's hooks with `Stop` run as `SubagentStop` (its turn ends as a subagent's), as Claude Code converts them. */
function subagentHooks(hooks: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { Stop: stop, ...rest } = hooks
  if (stop === undefined) return { ...rest }
  const own = rest.SubagentStop
  return { ...rest, SubagentStop: Array.isArray(own) && Array.isArray(stop) ? [...own, ...stop] : own === undefined ? stop : own }
}
