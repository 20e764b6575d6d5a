// The ACP answerer of the approval seam (S11): an ask becomes `session/request_permission` with
// its options (once, this session, always when the ask has rules, reject), and the client's answer becomes an ApprovalAnswer. A client that fails the
// request (an error, a dropped connection, an option Seam never offered) yields `unavailable`;
// a cancelled turn stops waiting at once (`cancelled`).
import { z } from 'zod'
import type { PermissionOption, RequestPermissionRequest, ToolCallUpdate } from '@agentclientprotocol/sdk'
import { definePlugin } from '../../src-shared/kernel'
import type { ApprovalAnswer, ApprovalRequest } from '../../src-shared/host/tools'
import '../../src-shared/host/tools'

export const OPTION_ALLOW_ONCE = 'allow-once'
export const OPTION_ALLOW_SESSION = 'allow-session'
export const OPTION_ALLOW_ALWAYS = 'allow-always'
export const OPTION_REJECT = 'reject'

/**
 * The options, each naming what it grants: the session option the rules it adds, the "always"
 * one also where it saves them (the workspace's `.claude/settings.local.json`), so the editor
 * shows the rule before anything is saved. A scope without rules offers no "always".
 */
export function permissionOptions(request: Pick<ApprovalRequest, 'scope'>): PermissionOption[] {
  const rules = request.scope.rules ?? []
  return [
    { optionId: OPTION_ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
    { optionId: OPTION_ALLOW_SESSION, name: `Allow for this session: ${request.scope.description}`, kind: 'allow_always' },
    ...(rules.length > 0
      ? [{ optionId: OPTION_ALLOW_ALWAYS, name: `Always allow ${rules.join(', ')} (saved in .claude/settings.local.json)`, kind: 'allow_always' as const }]
      : []),
    { optionId: OPTION_REJECT, name: 'Reject', kind: 'reject_once' }
  ]
}

const Meta = z.record(z.string(), z.unknown()).nullish()

/** The stable v1 response, plus Seam's optional deny note in `_meta.note` (ACP has no field for one). */
const PermissionResponse = z.object({
  outcome: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('cancelled') }),
    z.object({ outcome: z.literal('selected'), optionId: z.string(), _meta: Meta })
  ]),
  _meta: Meta
})

const BY = 'acp'

/** The client's answer as an approval outcome. */
export function answerOf(response: unknown): ApprovalAnswer {
  const parsed = PermissionResponse.safeParse(response)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { outcome: 'unavailable', by: BY, note: `the editor's answer was malformed (${issue?.path.join('.') || 'response'}: ${issue?.message})` }
  }
  const { outcome } = parsed.data
  if (outcome.outcome === 'cancelled') return { outcome: 'cancelled', by: BY }
  switch (outcome.optionId) {
    case OPTION_ALLOW_ONCE:
      return { outcome: 'allowed-once', by: BY }
    case OPTION_ALLOW_SESSION:
      return { outcome: 'allowed-session', by: BY }
    case OPTION_ALLOW_ALWAYS:
      return { outcome: 'allowed-always', by: BY, saveTo: 'workspace' }
    case OPTION_REJECT: {
      const note = noteOf(outcome._meta) ?? noteOf(parsed.data._meta)
      return { outcome: 'denied', by: BY, ...(note ? { note } : {}) }
    }
    default:
      return { outcome: 'unavailable', by: BY, note: `the editor chose an option Seam did not offer ("${outcome.optionId}")` }
  }
}

function noteOf(meta: Record<string, unknown> | null | undefined): string | undefined {
  const note = meta?.note
  return typeof note === 'string' && note.trim() !== '' ? note.trim() : undefined
}

export interface PermissionChannel {
  /** The tool call card the ask is about (its id must be the one the editor already shows). */
  toolCallFor(request: ApprovalRequest): ToolCallUpdate
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<unknown>
}

export async function askClient(channel: PermissionChannel, request: ApprovalRequest): Promise<ApprovalAnswer> {
  const params: RequestPermissionRequest = {
    sessionId: request.sessionId,
    toolCall: channel.toolCallFor(request),
    options: permissionOptions(request),
    // ACP has no field for who asks: a subagent's ask names it in the tool call's title and here.
    _meta: { seam: { reason: request.reason, ...(request.agent ? { agent: { ...request.agent } } : {}) } }
  }
  try {
    return answerOf(await channel.requestPermission(params, request.signal))
  } catch (error) {
    if (request.signal.aborted) return { outcome: 'cancelled', by: BY }
    return { outcome: 'unavailable', by: BY, note: `the editor did not answer the permission request (${(error as Error)?.message ?? String(error)})` }
  }
}

export type ApproveMode = 'ask' | 'allow' | 'deny'

/** The `approval` profile entry of an ACP session: ask the editor, or answer every ask the same way. */
export function acpApprovalPlugin(mode: ApproveMode, channel: () => PermissionChannel | undefined) {
  return definePlugin({
    name: `approval-acp-${mode}`,
    apply(ctx) {
      ctx.on('approval/request', async (request) => {
        if (mode === 'allow') return { outcome: 'allowed-once', by: 'acp --approve allow' }
        if (mode === 'deny') return { outcome: 'denied', by: 'acp --approve deny', note: 'denied by --approve deny' }
        const target = channel()
        if (!target) return { outcome: 'unavailable', by: BY, note: 'no editor is connected to this session' }
        return askClient(target, request)
      })
    }
  })
}
