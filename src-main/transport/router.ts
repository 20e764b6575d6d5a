// Answers contract calls for both transports: looks the method up, validates the input with the
// method's zod schema (the UI is untrusted input), runs the handler, validates its output, and
// always answers with a WireReply. It never throws.
import type { z } from 'zod'
import { Methods, type MethodName, type MethodOutput, type WireReply } from '../../src-shared/contract/ipc'
import { formatIssuePath, formatZodError } from '../../src-shared/validation'
import type { TransportLog } from './push-hub'
import type { TransportKind } from './host-core'

export { PushHub, type PushMessage, type PushSubscriber, type TransportLog } from './push-hub'

export interface CallerInfo {
  transport: TransportKind
}

/** A method's input after its schema parsed it (defaults applied, unknown keys stripped). */
export type MethodParsedInput<M extends MethodName> = z.output<(typeof Methods)[M]['input']>

export type Handlers = {
  [M in MethodName]: (input: MethodParsedInput<M>, caller: CallerInfo) => Promise<MethodOutput<M>>
}

export interface Router {
  invoke(method: string, input: unknown, caller: CallerInfo): Promise<WireReply>
}

export interface RouterOptions {
  /** Where host-side failures (handler errors, invalid outputs) are reported. Default: stderr. */
  log?: TransportLog
}

export const ErrorCodes = {
  unknownMethod: 'UNKNOWN_METHOD',
  invalidInput: 'INVALID_INPUT',
  handlerError: 'HANDLER_ERROR',
  invalidOutput: 'INVALID_OUTPUT'
} as const

type AnyHandler = (input: unknown, caller: CallerInfo) => Promise<unknown>

/**
 * Methods that carry values the contract cannot describe (a plugin's own RPC). Their input and
 * output go through JSON here, so Electron IPC (structured clone: Dates, Maps and `undefined`
 * survive, functions fail) and the WebSocket (JSON) give the renderer the same answer.
 */
export const JSON_NORMALIZED_METHODS: ReadonlySet<MethodName> = new Set<MethodName>(['plugins/call'])

export function isMethodName(method: string): method is MethodName {
  return Object.hasOwn(Methods, method)
}

export function createRouter(handlers: Handlers, options: RouterOptions = {}): Router {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[seam] ${message}`, error ?? ''))
  return {
    async invoke(method, input, caller) {
      try {
        if (typeof method !== 'string' || !isMethodName(method)) {
          return failure(ErrorCodes.unknownMethod, `unknown method '${String(method).slice(0, 100)}'`)
        }
        const spec = Methods[method]
        const normalize = JSON_NORMALIZED_METHODS.has(method)
        const jsonInput = normalize ? throughJson(input) : { ok: true as const, value: input }
        if (!jsonInput.ok) return failure(ErrorCodes.invalidInput, `${method} input is not JSON: ${jsonInput.reason}`, '(root)')
        const parsedInput = spec.input.safeParse(jsonInput.value)
        if (!parsedInput.success) {
          return failure(ErrorCodes.invalidInput, formatZodError(`${method} input`, parsedInput.error), firstField(parsedInput.error))
        }
        let output: unknown
        try {
          output = await (handlers[method] as AnyHandler)(parsedInput.data, caller)
        } catch (error) {
          return handlerFailure(method, error, log)
        }
        if (normalize) {
          const json = throughJson(output)
          if (!json.ok) {
            const message = `${method} output is not JSON: ${json.reason}`
            log(message)
            return failure(ErrorCodes.invalidOutput, message, '(root)')
          }
          output = json.value
        }
        const parsedOutput = spec.output.safeParse(output)
        if (!parsedOutput.success) {
          const message = formatZodError(`${method} output`, parsedOutput.error)
          log(`host bug: ${message}`)
          return failure(ErrorCodes.invalidOutput, message, firstField(parsedOutput.error))
        }
        return { ok: true, output: parsedOutput.data }
      } catch (error) {
        // Only reachable through a bug in the router itself; the contract still holds.
        log(`router failed on '${String(method)}'`, error)
        return failure(ErrorCodes.handlerError, errorMessage(error))
      }
    }
  }
}

/** The value the other side of a JSON wire would see: Dates as strings, Maps as {}, functions and undefined dropped. */
function throughJson(value: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch (error) {
    // BigInt, a cycle, or a toJSON that throws.
    return { ok: false, reason: errorMessage(error) }
  }
  return { ok: true, value: text === undefined ? undefined : JSON.parse(text) }
}

function failure(code: string, message: string, field?: string): WireReply {
  return { ok: false, error: field === undefined ? { code, message } : { code, message, field } }
}

/** The first failing field; for unknown keys of a strict object, the key itself. */
function firstField(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return '(root)'
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) {
    return formatIssuePath([...issue.path, issue.keys[0]!])
  }
  return formatIssuePath(issue.path)
}

function handlerFailure(method: string, error: unknown, log: TransportLog): WireReply {
  const code = codeOf(error)
  const field = typeof error === 'object' && error !== null ? (error as { field?: unknown }).field : undefined
  // Errors without their own code are unexpected: keep the stack on the host side.
  if (code === ErrorCodes.handlerError) log(`handler '${method}' failed`, error)
  return failure(code, errorMessage(error), typeof field === 'string' ? field : undefined)
}

function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code.length > 0 && code.length <= 64) return code
  }
  return ErrorCodes.handlerError
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}
