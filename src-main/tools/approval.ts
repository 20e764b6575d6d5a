// The approval seam (S11). `request()` asks the answerers (listeners of 'approval/request', the
// first defined answer wins) and never rejects: no answerer, a throwing or malformed answerer and
// an aborted call all become a deny-side outcome. `settle()` lets an answer arriving from
// elsewhere (a dialog over IPC) resolve a pending request. "Allow for this session" creates a
// grant scoped exactly to what the dialog showed, kept in memory for that session only.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { SessionEventInput } from '../../src-shared/host/agent'
import type { ApprovalService } from '../../src-shared/host/services'
import type { ApprovalAnswer, ApprovalRequest, GrantScope, JsonObject, SessionGrant } from '../../src-shared/host/tools'
import { errorText, type Kernel } from '../../src-shared/kernel'
import { formatZodError, parseOrThrow } from '../../src-shared/validation'
import { scopeFor, scopeMatcher } from './grant-scope'

/** An answer as request() resolves it: `reason` says why, when the outcome was not the user's. */
export interface ApprovalDecision extends ApprovalAnswer {
  reason?: string
}

export type ApprovalInput = Omit<ApprovalRequest, 'id' | 'scope'> & { scope?: GrantScope }
type Record_ = (event: SessionEventInput) => void

export const ApprovalAnswerSchema = z.object({
  outcome: z.enum(['allowed-once', 'allowed-session', 'denied', 'cancelled', 'unavailable']),
  note: z.string().optional(),
  by: z.string().optional()
})

interface PendingApproval {
  request: ApprovalRequest
  finish(answer: ApprovalDecision): void
}

interface StoredGrant {
  grant: SessionGrant
  matches(args: Readonly<JsonObject>): boolean
}

export class ApprovalServiceImpl implements ApprovalService {
  private readonly open = new Map<string, PendingApproval>()
  private readonly sessions = new Map<string, Map<string, StoredGrant>>()

  constructor(private readonly kernel: Kernel) {}

  async request(input: ApprovalInput, record?: Record_): Promise<ApprovalDecision> {
    const request: ApprovalRequest = Object.freeze({
      id: `approval_${randomUUID()}`,
      sessionId: input.sessionId,
      tool: input.tool,
      args: input.args,
      token: input.token,
      reason: input.reason,
      scope: input.scope ?? scopeFor(input.tool, input.args),
      signal: input.signal,
      ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
      ...(input.askedBy !== undefined ? { askedBy: input.askedBy } : {})
    })
    this.record(record, {
      type: 'approval/asked',
      requestId: request.id,
      token: request.token,
      tool: request.tool,
      args: request.args,
      reason: request.reason,
      scope: { tool: request.scope.tool, pattern: { ...request.scope.pattern }, description: request.scope.description }
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
    if (answer.outcome === 'allowed-session') this.addGrant(request, record)
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

  matchGrant(sessionId: string, tool: string, args: Readonly<JsonObject>): SessionGrant | undefined {
    const grants = this.sessions.get(sessionId)
    if (!grants) return undefined
    for (const stored of grants.values()) {
      if (stored.grant.tool === tool && stored.matches(args)) return stored.grant
    }
    return undefined
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

  private addGrant(request: ApprovalRequest, record: Record_ | undefined): void {
    const grant: SessionGrant = Object.freeze({
      id: `grant_${randomUUID()}`,
      sessionId: request.sessionId,
      createdAt: Date.now(),
      tool: request.scope.tool,
      pattern: request.scope.pattern,
      description: request.scope.description
    })
    let grants = this.sessions.get(request.sessionId)
    if (!grants) this.sessions.set(request.sessionId, (grants = new Map()))
    grants.set(grant.id, { grant, matches: scopeMatcher(request.scope) })
    this.record(record, { type: 'grant/added', grantId: grant.id, scope: { tool: grant.tool, pattern: { ...grant.pattern }, description: grant.description } })
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

function publicAnswer(answer: ApprovalDecision): ApprovalAnswer {
  const out: ApprovalAnswer = { outcome: answer.outcome }
  if (answer.note !== undefined) out.note = answer.note
  if (answer.by !== undefined) out.by = answer.by
  return Object.freeze(out)
}
