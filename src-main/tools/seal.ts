// Identity sealing (S9): before any policy runs, a call's identity (name, arguments, token,
// parent) is fixed as frozen plain JSON with an opaque token. Logs, UI, approval and the tool
// body all see this one object.
import { randomUUID } from 'node:crypto'
import type { JsonObject, SealedCall, ToolCallRequest } from '../../src-shared/host/tools'
import type { SubagentIdentity } from '../../src-shared/host/extensions'
import { APPROVAL_MODES } from '../../src-shared/host/approval-modes'
import { describeValue } from './normalize'

/** The first malformed identity field of a request, in words, or undefined. */
export function identityProblem(request: unknown): string | undefined {
  if (request === null || typeof request !== 'object') return `the call request is ${describeValue(request)}, not an object`
  const r = request as Record<keyof ToolCallRequest, unknown>
  if (typeof r.name !== 'string' || r.name === '') return field('name', r.name, 'a non-empty string')
  if (typeof r.callId !== 'string') return field('callId', r.callId, 'a string')
  if (typeof r.sessionId !== 'string') return field('sessionId', r.sessionId, 'a string')
  if (typeof r.cwd !== 'string') return field('cwd', r.cwd, 'a string')
  if (r.turnId !== undefined && typeof r.turnId !== 'string') return field('turnId', r.turnId, 'a string or nothing')
  if (r.parent !== undefined && typeof r.parent !== 'string') return field('parent', r.parent, 'a parent call token (string) or nothing')
  if (r.signal !== undefined && !(r.signal instanceof AbortSignal)) return field('signal', r.signal, 'an AbortSignal or nothing')
  if (r.agent !== undefined) {
    const agent = r.agent as { agentId?: unknown; agentType?: unknown; permissionMode?: unknown } | null
    if (agent === null || typeof agent !== 'object' || typeof agent.agentId !== 'string' || typeof agent.agentType !== 'string') return field('agent', r.agent, 'a subagent identity { agentId, agentType } or nothing')
    if (agent.permissionMode !== undefined && !(APPROVAL_MODES as readonly unknown[]).includes(agent.permissionMode)) return field('agent.permissionMode', agent.permissionMode, `one of ${APPROVAL_MODES.join(', ')} or nothing`)
  }
  if (r.progress !== undefined && typeof r.progress !== 'function') return field('progress', r.progress, 'a function or nothing')
  if (r.env !== undefined) {
    if (r.env === null || typeof r.env !== 'object') return field('env', r.env, 'an object of strings or nothing')
    for (const [key, value] of Object.entries(r.env)) {
      if (typeof value !== 'string') return field(`env.${key}`, value, 'a string')
    }
  }
  return undefined
}

function field(name: string, value: unknown, expected: string): string {
  return `${name}: expected ${expected}, got ${describeValue(value)}`
}

export interface SealInput {
  name: string
  /** Already materialized and frozen (normalize.ts). */
  args: Readonly<JsonObject>
  callId: string
  sessionId: string
  cwd: string
  turnId?: string
  parent?: string
  agent?: SubagentIdentity
  originalArgs?: Readonly<JsonObject>
  rewrittenBy?: string
}

/** Assigns the opaque token and freezes the identity. Absent optional fields are left out. */
export function seal(input: SealInput): SealedCall {
  const call: { -readonly [K in keyof SealedCall]: SealedCall[K] } = {
    name: input.name,
    args: input.args,
    token: newToken(),
    callId: input.callId,
    sessionId: input.sessionId,
    cwd: input.cwd
  }
  if (input.parent !== undefined) call.parent = input.parent
  if (input.agent !== undefined) {
    const { agentId, agentType, description, permissionMode } = input.agent
    call.agent = Object.freeze({ agentId, agentType, ...(typeof description === 'string' ? { description } : {}), ...(permissionMode !== undefined ? { permissionMode } : {}) })
  }
  if (input.turnId !== undefined) call.turnId = input.turnId
  if (input.originalArgs !== undefined) call.originalArgs = input.originalArgs
  if (input.rewrittenBy !== undefined) call.rewrittenBy = input.rewrittenBy
  return Object.freeze(call)
}

/**
 * A best-effort identity for a request whose identity is malformed, so the failure can still be
 * reported, recorded and observed like any other call (S16). Fields that are not strings become ''.
 */
export function sealMalformed(request: unknown, args: Readonly<JsonObject>): SealedCall {
  const r = (request !== null && typeof request === 'object' ? request : {}) as Record<string, unknown>
  const text = (value: unknown): string => (typeof value === 'string' ? value : '')
  return seal({
    name: text(r.name),
    args,
    callId: text(r.callId),
    sessionId: text(r.sessionId),
    cwd: text(r.cwd),
    turnId: typeof r.turnId === 'string' ? r.turnId : undefined,
    parent: typeof r.parent === 'string' ? r.parent : undefined
  })
}

/** Opaque: callers must not parse it. Random, so tokens never repeat across runs or sessions. */
export function newToken(): string {
  return `call_${randomUUID()}`
}

/**
 * The call with new arguments after an approval-time rewrite (a PermissionRequest `updatedInput`):
 * same identity and token (the approval and hook records name it), the arguments it runs with,
 * and the model's own in `originalArgs`.
 */
export function reseal(call: SealedCall, args: Readonly<JsonObject>, rewrittenBy: string): SealedCall {
  return Object.freeze({ ...call, args, originalArgs: call.originalArgs ?? call.args, rewrittenBy })
}
