// The approval seam (S11). `request()` asks the answerers (listeners of 'approval/request', the
// first defined answer wins) and never rejects: no answerer, a throwing or malformed answerer and
// an aborted call all become a deny-side outcome. `settle()` lets an answer arriving from
// elsewhere (a dialog over IPC) resolve a pending request.
//
// "Allow for this session" grants the Claude Code rules the dialog showed (rule-scope.ts);
// "Always allow" grants them too and saves them to the workspace's `.claude/settings.local.json`
// (or the user's Seam rules), as Claude Code does. Grants are `grant/added` events in the session's
// log, so a resumed session (after a restart too) gets them back (`restoreGrants`).
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { SessionEvent } from '../../src-shared/session/events'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { ApprovalService } from '../../src-shared/host/services'
import type { ApprovalAnswer, ApprovalRequest, GrantScope, JsonObject, PermissionRuleUpdate, PermissionUpdate, SessionGrant } from '../../src-shared/host/tools'
import { errorText, type Kernel } from '../../src-shared/kernel'
import { formatZodError, parseOrThrow } from '../../src-shared/validation'
import type {} from '../../plugins/claude-settings/index'
import { loadBashParser } from '../../plugins/hook-protocol/index'
import { scopeFor, scopeMatcher } from './grant-scope'
import { ruleScopeFor, rulesMatch } from './rule-scope'

/** An answer as request() resolves it: `reason` says why, when the outcome was not the user's. */
export interface ApprovalDecision extends ApprovalAnswer {
  reason?: string
}

export type ApprovalInput = Omit<ApprovalRequest, 'id' | 'scope'> & { scope?: GrantScope }
type Record_ = (event: SessionEventInput) => void

export const ApprovalAnswerSchema = z.object({
  outcome: z.enum(['allowed-once', 'allowed-session', 'allowed-always', 'denied', 'cancelled', 'unavailable']),
  note: z.string().optional(),
  by: z.string().optional(),
  saveTo: z.enum(['workspace', 'user']).optional()
})

interface PendingApproval {
  request: ApprovalRequest
  finish(answer: ApprovalDecision): void
}

interface StoredGrant {
  grant: SessionGrant
  matches(tool: string, args: Readonly<JsonObject>, cwd: string | undefined): boolean
}

export class ApprovalServiceImpl implements ApprovalService {
  private readonly open = new Map<string, PendingApproval>()
  private readonly sessions = new Map<string, Map<string, StoredGrant>>()

  constructor(private readonly kernel: Kernel) {}

  async request(input: ApprovalInput, record?: Record_): Promise<ApprovalDecision> {
    const scope = input.scope ?? (await this.ruleScope(input.tool, input.args, input.cwd))
    const request: ApprovalRequest = Object.freeze({
      id: `approval_${randomUUID()}`,
      sessionId: input.sessionId,
      tool: input.tool,
      args: input.args,
      token: input.token,
      reason: input.reason,
      scope,
      signal: input.signal,
      ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
      ...(input.askedBy !== undefined ? { askedBy: input.askedBy } : {}),
      ...(input.agent !== undefined ? { agent: Object.freeze({ ...input.agent }) } : {})
    })
    this.record(record, {
      type: 'approval/asked',
      requestId: request.id,
      token: request.token,
      tool: request.tool,
      args: request.args,
      reason: request.reason,
      scope: scopeEvent(request.scope),
      ...(request.agent !== undefined ? { agent: { ...request.agent } } : {})
    })
    const answer = await this.decide(request)
    this.record(record, {
      type: 'approval/decided',
      requestId: request.id,
      token: request.token,
      outcome: answer.outcome,
      ...(answer.note !== undefined ? { note: answer.note } : {}),
      ...(answer.by !== undefined ? { by: answer.by } : {}),
      ...(answer.reason !== undefined ? { reason: answer.reason } : {})
    })
    if (answer.outcome === 'allowed-session' || answer.outcome === 'allowed-always') this.addGrant(request.sessionId, request.scope, record)
    if (answer.outcome === 'allowed-always' && request.scope.rules !== undefined && request.scope.rules.length > 0) {
      const destination = answer.saveTo === 'user' ? 'userSeam' : 'localSettings'
      this.saveRules({ behavior: 'allow', rules: request.scope.rules, destination }, record)
    }
    this.kernel.emit('approval/settled', request.id, publicAnswer(answer))
    return answer
  }

  settle(requestId: string, answer: ApprovalAnswer): boolean {
    const pending = this.open.get(requestId)
    if (!pending) return false
    pending.finish(parseOrThrow(ApprovalAnswerSchema, answer, `approval answer for ${requestId}`))
    return true
  }

  pending(): ApprovalRequest[] {
    return [...this.open.values()].map((p) => p.request)
  }

  scopeFor(tool: string, args: Readonly<JsonObject>): GrantScope {
    return scopeFor(tool, args)
  }

  /** The rules "always allow" would save for this call, and the scope the dialog shows. */
  ruleScope(tool: string, args: Readonly<JsonObject>, cwd: string | undefined): Promise<GrantScope> {
    const projectDir = this.kernel.getService('workspace')?.root ?? null
    return ruleScopeFor(tool, args, { cwd: cwd ?? projectDir ?? process.cwd(), projectDir })
  }

  matchGrant(sessionId: string, tool: string, args: Readonly<JsonObject>, cwd?: string): SessionGrant | undefined {
    const grants = this.sessions.get(sessionId)
    if (!grants) return undefined
    for (const stored of grants.values()) if (stored.matches(tool, args, cwd)) return stored.grant
    return undefined
  }

  /**
   * A hook's `updatedPermissions` (Claude Code's permission updates), applied as Claude Code applies
   * them: to the running session and, unless the destination is `session`, to the settings file.
   * Allow rules are the session's grants (added; revoked when removed or replaced); the mode, the
   * directories and deny/ask rules for the session go to the permission policy. Never throws: what
   * cannot be applied or saved is a notice in the session.
   */
  applyRuleUpdates(sessionId: string, updates: readonly PermissionUpdate[], record?: Record_, projectDir?: string): void {
    const root = projectDir ?? this.kernel.getService('workspace')?.root ?? undefined
    for (const update of updates) {
      if ('rules' in update && update.behavior === 'allow') this.updateGrants(sessionId, update, root, record)
      else if (update.destination === 'session' || !('rules' in update)) this.updatePolicy(sessionId, update, root, record)
      if (update.destination !== 'session') this.saveUpdate(update, record)
    }
  }

  /** Allow rules on the session's grants: added, or the grants they make up revoked (removed, replaced). */
  private updateGrants(sessionId: string, update: PermissionRuleUpdate, root: string | undefined, record: Record_ | undefined): void {
    const type = update.type ?? 'addRules'
    if (type !== 'addRules') {
      const given = new Set(update.rules)
      for (const grant of this.grants(sessionId)) {
        if (grant.rules !== undefined && (type === 'replaceRules' || grant.rules.every((rule) => given.has(rule)))) this.revoke(sessionId, grant.id, record)
      }
    }
    if (type === 'removeRules' || update.rules.length === 0) return
    this.addGrant(sessionId, { tool: update.rules[0]?.split('(')[0] ?? '', pattern: {}, description: update.rules.join(', '), rules: [...update.rules], ...(root ? { projectDir: root } : {}) }, record)
  }

  /** The session's mode, directories and deny/ask rules: the permission policy keeps them. */
  private updatePolicy(sessionId: string, update: PermissionUpdate, root: string | undefined, record: Record_ | undefined): void {
    const policy = this.kernel.getService('permissionPolicy')
    if (!policy) {
      this.notice(record, 'warn', `A permission update (${update.type ?? 'addRules'}) was not applied to this session: the permission-policy plugin is not running`)
      return
    }
    const changed = policy.updateSession(sessionId, update, root ?? process.cwd())
    if (changed !== undefined) this.notice(record, 'info', `A hook's permission update: ${changed}`)
  }

  /** Puts back the grants a session's log holds (added and not revoked): a resumed session keeps them. */
  restoreGrants(sessionId: string, events: readonly SessionEvent[]): void {
    const restored = new Map<string, StoredGrant>()
    for (const event of events) {
      if (event.type === 'grant/added') {
        const grant: SessionGrant = Object.freeze({ id: event.grantId, sessionId, createdAt: event.ts, ...event.scope })
        restored.set(event.grantId, { grant, matches: matcherOf(grant) })
      } else if (event.type === 'grant/revoked') restored.delete(event.grantId)
    }
    if (restored.size > 0) {
      this.sessions.set(sessionId, restored)
      // Bash grants are matched part by part with the shell parser: have it loaded before the first call.
      loadBashParser().catch((error: unknown) => this.kernel.reportError(error, { plugin: 'tools', phase: 'load the shell parser' }))
    }
  }

  grants(sessionId: string): SessionGrant[] {
    return [...(this.sessions.get(sessionId)?.values() ?? [])].map((s) => s.grant)
  }

  revoke(sessionId: string, grantId: string, record?: Record_): boolean {
    const grants = this.sessions.get(sessionId)
    if (!grants?.delete(grantId)) return false
    if (grants.size === 0) this.sessions.delete(sessionId)
    this.record(record, { type: 'grant/revoked', grantId })
    return true
  }

  /** Drops a session's grants (the session closed); they never outlive it. */
  forgetSession(sessionId: string): void {
    this.sessions.delete(sessionId)
  }

  /** Settles every pending request as unavailable (the service is going away). */
  closeAll(reason: string): void {
    for (const pending of [...this.open.values()]) pending.finish({ outcome: 'unavailable', reason })
  }

  // ---- details -----------------------------------------------------------------------------

  private decide(request: ApprovalRequest): Promise<ApprovalDecision> {
    const signal = request.signal
    if (signal.aborted) return Promise.resolve({ outcome: 'cancelled', reason: 'the call was cancelled before the user was asked' })
    return new Promise<ApprovalDecision>((resolve) => {
      let done = false
      const finish = (answer: ApprovalDecision): void => {
        if (done) return
        done = true
        signal.removeEventListener('abort', onAbort)
        this.open.delete(request.id)
        resolve(answer)
      }
      const onAbort = (): void => finish({ outcome: 'cancelled', reason: 'the call was cancelled while waiting for approval' })
      signal.addEventListener('abort', onAbort, { once: true })
      this.open.set(request.id, { request, finish })
      void this.askAnswerers(request, () => done).then(finish)
    })
  }

  /** Answerers in listener order; the first defined answer wins (like kernel.serial, with owners named). */
  private async askAnswerers(request: ApprovalRequest, settled: () => boolean): Promise<ApprovalDecision> {
    const answerers = this.kernel.listeners.get('approval/request')
    for (const entry of answerers) {
      if (settled()) break
      let answer: unknown
      try {
        answer = await entry.callback(request)
      } catch (error) {
        this.kernel.reportError(error, { plugin: entry.owner, phase: 'approval/request' })
        return { outcome: 'denied', by: entry.owner, reason: `the approval answerer "${entry.owner}" failed: ${errorText(error)}` }
      }
      if (answer === undefined) continue
      const parsed = ApprovalAnswerSchema.safeParse(answer)
      if (!parsed.success) {
        const problem = formatZodError(`the approval answerer "${entry.owner}" returned an invalid answer`, parsed.error)
        this.kernel.log({ level: 'error', plugin: entry.owner, message: problem, time: Date.now() })
        return { outcome: 'denied', by: entry.owner, reason: problem }
      }
      return { ...parsed.data, by: parsed.data.by ?? entry.owner }
    }
    return { outcome: 'unavailable', reason: 'no approval answerer is available to ask the user' }
  }

  private addGrant(sessionId: string, scope: GrantScope, record: Record_ | undefined): void {
    const grant: SessionGrant = Object.freeze({ ...scope, id: `grant_${randomUUID()}`, sessionId, createdAt: Date.now() })
    let grants = this.sessions.get(sessionId)
    if (!grants) this.sessions.set(sessionId, (grants = new Map()))
    grants.set(grant.id, { grant, matches: matcherOf(scope) })
    this.record(record, { type: 'grant/added', grantId: grant.id, scope: scopeEvent(scope) })
  }

  /** Saves rules through the claude-settings service; a failure is a notice, the session grant stays. */
  private saveRules(update: { behavior: 'allow'; rules: readonly string[]; destination: 'userSeam' | 'localSettings' }, record: Record_ | undefined): void {
    const settings = this.kernel.getService('claudeSettings')
    if (!settings) {
      this.notice(record, 'error', `Could not save ${update.rules.join(', ')}: the claude-settings plugin is not running; the rules apply to this session only`)
      return
    }
    try {
      const written = settings.addRules(update.destination, update.behavior, update.rules)
      if (written.added.length > 0) this.notice(record, 'info', `Saved to ${written.file}: permissions.${update.behavior} ${written.added.join(', ')}`)
    } catch (error) {
      this.notice(record, 'error', `Could not save ${update.rules.join(', ')}: ${errorText(error)}`)
    }
  }

  /** A permission update for a settings file, through the claude-settings service; a failure is a notice. */
  private saveUpdate(update: PermissionUpdate, record: Record_ | undefined): void {
    if (update.destination === 'session') return
    const what = update.type === 'setMode' ? `defaultMode ${update.mode}` : 'rules' in update ? update.rules.join(', ') : update.directories.join(', ')
    const settings = this.kernel.getService('claudeSettings')
    if (!settings) {
      this.notice(record, 'error', `Could not save ${what} to ${update.destination}: the claude-settings plugin is not running; it applies to this session only`)
      return
    }
    try {
      const written = settings.update(update.destination, update)
      const key = update.type === 'setMode' ? 'defaultMode' : 'rules' in update ? update.behavior : 'additionalDirectories'
      const parts = [
        ...(written.mode !== undefined ? [`permissions.defaultMode ${written.mode}`] : []),
        ...(written.added.length > 0 ? [`permissions.${key} ${written.added.join(', ')}`] : []),
        ...(written.removed.length > 0 ? [`removed from permissions.${key} ${written.removed.join(', ')}`] : [])
      ]
      if (parts.length > 0) this.notice(record, 'info', `Saved to ${written.file}: ${parts.join('; ')}`)
    } catch (error) {
      this.notice(record, 'error', `Could not save ${what}: ${errorText(error)}`)
    }
  }

  private notice(record: Record_ | undefined, level: 'info' | 'warn' | 'error', text: string): void {
    if (!record) {
      this.kernel.log({ level, plugin: 'tools', message: text, time: Date.now() })
      return
    }
    this.record(record, { type: 'notice', level, text, source: 'approval' })
  }

  /** A failing recorder is reported; it must not turn an answer into a crash. */
  private record(record: Record_ | undefined, event: SessionEventInput): void {
    if (!record) return
    try {
      record(event)
    } catch (error) {
      this.kernel.reportError(error, { plugin: 'tools', phase: `record ${event.type}` })
    }
  }
}

/** Rule scopes match as the permission policy matches rules; older exact scopes by their tool and pattern. */
function matcherOf(scope: GrantScope): StoredGrant['matches'] {
  if (scope.rules !== undefined) return (tool, args, cwd) => rulesMatch(scope, tool, args, cwd)
  const exact = scopeMatcher(scope)
  return (tool, args) => tool === scope.tool && exact(args)
}

/** A scope as the session log keeps it (plain, unfrozen copies). */
function scopeEvent(scope: GrantScope): GrantScope {
  return {
    tool: scope.tool,
    pattern: { ...scope.pattern },
    description: scope.description,
    ...(scope.rules !== undefined ? { rules: [...scope.rules] } : {}),
    ...(scope.projectDir !== undefined ? { projectDir: scope.projectDir } : {})
  }
}

function publicAnswer(answer: ApprovalDecision): ApprovalAnswer {
  const out: ApprovalAnswer = { outcome: answer.outcome }
  if (answer.note !== undefined) out.note = answer.note
  if (answer.by !== undefined) out.by = answer.by
  return Object.freeze(out)
}
