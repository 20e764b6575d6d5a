// The error a contract call rejects with, whichever transport carried it.
import type { WireReply } from '../../src-shared/contract/ipc'

export type HostErrorCode =
  | 'INVALID_INPUT'
  | 'UNKNOWN_METHOD'
  | 'HANDLER_ERROR'
  | 'INVALID_OUTPUT'
  | 'BAD_MESSAGE'
  | 'FORBIDDEN'
  | 'TIMEOUT'
  | 'DISCONNECTED'
  | 'CLOSED'
  | 'TOO_LARGE'
  | (string & {})

export class HostCallError extends Error {
  readonly code: HostErrorCode
  readonly field?: string
  readonly method: string

  constructor(method: string, error: { code: string; message: string; field?: string }) {
    super(error.message)
    this.name = 'HostCallError'
    this.method = method
    this.code = error.code
    if (error.field !== undefined) this.field = error.field
  }
}

/** The output of a WireReply, or a HostCallError; a reply of any other shape is a BAD_MESSAGE. */
export function unwrapReply(method: string, reply: unknown): unknown {
  if (typeof reply !== 'object' || reply === null || typeof (reply as { ok?: unknown }).ok !== 'boolean') {
    throw new HostCallError(method, { code: 'BAD_MESSAGE', message: `the host sent a malformed reply to '${method}'` })
  }
  const wire = reply as WireReply
  if (wire.ok) return wire.output
  const error = wire.error as Partial<{ code: unknown; message: unknown; field: unknown }> | undefined
  throw new HostCallError(method, {
    code: typeof error?.code === 'string' ? error.code : 'HANDLER_ERROR',
    message: typeof error?.message === 'string' ? error.message : `'${method}' failed`,
    field: typeof error?.field === 'string' ? error.field : undefined
  })
}
