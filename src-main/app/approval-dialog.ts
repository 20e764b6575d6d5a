// The desktop answerer of the approval seam (S11): an ask becomes a modal dialog in every
// connected UI. It resolves when the user answers, and to a deny when the turn is cancelled
// (the request's signal), when no UI is connected, or when a UI showing it goes away while the
// dialog is open (a reload, a closed window, a dropped connection).
import { definePlugin } from '../../src-shared/kernel'
import type { ApprovalAnswer, ApprovalRequest } from '../../src-shared/host/tools'
import type { ApprovalRequestPublic, PushName, PushPayload } from '../../src-shared/contract/ipc'
import '../../src-shared/host/tools'
import { callRisks } from '../../src-shared/host/call-risks'
import { filePreview } from './approval-preview'

export interface ConnectionCount {
  readonly count: number
  onChange(listener: (count: number, change: 'opened' | 'closed') => void): () => void
}

type Publish = <P extends PushName>(push: P, payload: PushPayload<P>) => void

interface Pending {
  request: ApprovalRequestPublic
  resolve(answer: ApprovalAnswer): void
  /** Removes the abort listener from the turn's signal (shared by every ask of the turn). */
  release(): void
}

export class ApprovalDialogs {
  private readonly open = new Map<string, Pending>()

  constructor(
    private readonly publish: Publish,
    private readonly connections: ConnectionCount
  ) {}

  /** Applied once per workspace tree; each instance settles only its own asks when disposed. */
  readonly plugin = definePlugin({
    name: 'approval-dialog',
    apply: (ctx) => {
      const mine = new Set<string>()
      ctx.on('approval/request', (request) => {
        mine.add(request.id)
        return this.ask(request, ctx.maybe('workspace')?.root ?? null).finally(() => mine.delete(request.id))
      })
      ctx.effect(() =>
        // Every open dialog is shown in every connected UI. When one of them goes away (a closed
        // window, a reload, a dropped connection) the asks it showed resolve to a deny, even if
        // another UI connected meanwhile: a reload must never leave a call waiting on a dialog
        // that is gone.
        this.connections.onChange((_count, change) => {
          if (change === 'closed') this.settleAll({ outcome: 'unavailable', by: 'desktop', note: 'the window showing this question was closed or reloaded' })
        })
      )
      ctx.onDispose(() => {
        for (const id of [...mine]) this.answer(id, { outcome: 'unavailable', by: 'desktop' })
      })
    }
  })

  pending(): ApprovalRequestPublic[] {
    return [...this.open.values()].map((p) => p.request)
  }

  answer(requestId: string, answer: ApprovalAnswer): boolean {
    const pending = this.open.get(requestId)
    if (!pending) return false
    this.finish(requestId, pending, answer)
    return true
  }

  private ask(request: ApprovalRequest, workspace: string | null): Promise<ApprovalAnswer> {
    if (this.connections.count === 0) {
      return Promise.resolve({ outcome: 'unavailable', by: 'desktop', note: 'no window is open to ask the user' })
    }
    return new Promise<ApprovalAnswer>((resolve) => {
      const { signal, ...rest } = request
      if (signal.aborted) return resolve({ outcome: 'cancelled', by: 'desktop' })
      const onAbort = () => this.answer(request.id, { outcome: 'cancelled', by: 'desktop' })
      const pending: Pending = {
        request: {
          id: rest.id, sessionId: rest.sessionId, tool: rest.tool, args: { ...rest.args }, token: rest.token, reason: rest.reason, scope: rest.scope,
          ...(rest.cwd !== undefined ? { cwd: rest.cwd } : {}),
          ...(rest.askedBy !== undefined ? { askedBy: rest.askedBy } : {}),
          ...(rest.agent !== undefined ? { agent: { ...rest.agent } } : {}),
          ...optional('file', filePreview(rest.tool, rest.args, rest.cwd)),
          ...optional('risks', nonEmpty(callRisks(rest.tool, rest.args, { workspace, ...(rest.cwd !== undefined ? { cwd: rest.cwd } : {}) })))
        },
        resolve,
        release: () => signal.removeEventListener('abort', onAbort)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.open.set(request.id, pending)
      this.publish('approval/requested', pending.request)
    })
  }

  private finish(requestId: string, pending: Pending, answer: ApprovalAnswer): void {
    this.open.delete(requestId)
    pending.release()
    pending.resolve({ ...answer, by: answer.by ?? 'desktop' })
    this.publish('approval/settled', { requestId, outcome: answer.outcome })
  }

  private settleAll(answer: ApprovalAnswer): void {
    for (const [id, pending] of [...this.open]) this.finish(id, pending, answer)
  }
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length > 0 ? list : undefined
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}
