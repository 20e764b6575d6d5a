// What the pipeline's stages conclude: verdicts, deny texts, the result after a post-execute
// decision, and the notice for a failing tools/result listener. Pure helpers of pipeline.ts.
import type { ExecuteOptions } from '../../src-shared/host/services'
import type { ApprovalAnswer, CallVerdict, PostToolDecision, SealedCall, ToolResult } from '../../src-shared/host/tools'
import { errorText, type ListenerFailure } from '../../src-shared/kernel'
import { failure } from './normalize'

/** A call decided before dispatch: its verdict, and its result when it will not run. */
export interface DecidedCall {
  verdict: CallVerdict
  result?: ToolResult
}

/** A failing tools/result listener is logged by the kernel and, when the call has a session to record into, shown there as a notice. */
export function resultListenerNotice(call: SealedCall, record: NonNullable<ExecuteOptions['record']>): ListenerFailure {
  return (error, plugin) => {
    const text = `tools/result listener of plugin "${plugin}" failed on "${call.name}": ${errorText(error)}`
    record({ type: 'notice', ...(call.turnId !== undefined ? { turnId: call.turnId } : {}), level: 'error', text, source: plugin })
  }
}

/** A policy stage still pending when the grace after the caller's cancel ran out. */
export function abandonedIn(stage: 'rewrite' | 'pre-execute', seam: string, toolName: string): Required<DecidedCall> {
  const reason = `the call was cancelled while its ${seam} policy was still deciding`
  return { verdict: denied(stage, reason), result: failure('CANCELLED', `Tool "${toolName}" was not run: ${reason}.`) }
}

/** S14: the result is rebuilt from the frozen snapshot plus the decision, never from mutations. */
export function applyPostDecision(snapshot: ToolResult, decision: PostToolDecision): ToolResult {
  if (decision.action === 'accept') {
    return decision.content === undefined ? snapshot : Object.freeze({ ...snapshot, content: decision.content })
  }
  const base = decision.content ?? snapshot.content
  const blocked: ToolResult = { content: base === '' ? decision.feedback : `${base}\n\n${decision.feedback}`, isError: true, code: 'BLOCKED' }
  if (snapshot.structured !== undefined) blocked.structured = snapshot.structured
  return Object.freeze(blocked)
}

export function denied(stage: CallVerdict['stage'], reason: string, by?: string): CallVerdict {
  return Object.freeze(by === undefined ? { outcome: 'denied', stage, reason } : { outcome: 'denied', stage, reason, by })
}

/** The deny reason the model reads for an approval that did not allow the call. */
export function approvalDenyReason(answer: ApprovalAnswer & { reason?: string }, askReason: string): string {
  const note = answer.note?.trim()
  switch (answer.outcome) {
    case 'denied': {
      const base = answer.reason ?? 'the user denied this call'
      return note ? `${base}. The user said: ${note}` : base
    }
    case 'cancelled':
      return `${answer.reason ?? 'the approval request was cancelled'}${note ? ` (${note})` : ''}`
    default:
      return `approval was required (${askReason}) but ${answer.reason ?? 'no approval channel is available'}${note ? ` (${note})` : ''}`
  }
}
