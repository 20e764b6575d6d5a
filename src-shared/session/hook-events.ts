// Durable session events for external shell-hook invocations (S22): one `hook/invoked` when a
// Claude Code or Codex hook handler starts, one `hook/result` when it has been interpreted.
// Written by the hook-protocol library (plugins/hook-protocol) used by the bridges.
// No Node imports here: these schemas are read by the host and the renderer alike.
import { z } from 'zod'

/** Byte caps the writer applies before recording (UTF-8 bytes). */
export const HOOK_EVENT_INPUT_MAX_BYTES = 64 * 1024
export const HOOK_EVENT_OUTPUT_MAX_BYTES = 16 * 1024

export const HookProtocolSource = z.enum(['claude', 'codex'])
export type HookProtocolSource = z.infer<typeof HookProtocolSource>

export const HookHandlerType = z.enum(['command', 'http'])
export type HookHandlerType = z.infer<typeof HookHandlerType>

/** Why a hook gave no usable answer. */
export const HookFailureKind = z.enum([
  'spawn_error', // the process could not be started (missing cwd, shell not found)
  'timeout', // killed after its time budget
  'aborted', // killed because the caller aborted (session ended, turn cancelled)
  'nonzero_exit', // exited with a code that is neither 0 nor a well-formed blocking exit
  'signal', // ended by a signal nobody in Seam sent
  'bad_json', // stdout had to be JSON and was not
  'invalid_output', // JSON that fails the event's schema, or an answer the protocol rejects
  'unsupported', // a well-formed answer this protocol version does not act on
  'network_error', // http handler: connection failed
  'http_status' // http handler: non-2xx response
])
export type HookFailureKind = z.infer<typeof HookFailureKind>

export const HookOutcomeKind = z.enum(['ok', 'block', 'error'])
export type HookOutcomeKind = z.infer<typeof HookOutcomeKind>

export const HookPermissionDecision = z.enum(['allow', 'deny', 'ask', 'defer'])
export type HookPermissionDecision = z.infer<typeof HookPermissionDecision>

const sessionEventBase = {
  /** Epoch milliseconds when the event was recorded. */
  ts: z.number(),
  /** Position in the session log. */
  seq: z.number().int().nonnegative()
}

export const HookInvokedEvent = z.object({
  type: z.literal('hook/invoked'),
  ...sessionEventBase,
  /** Pairs this event with its `hook/result`. */
  invocationId: z.string().min(1),
  source: HookProtocolSource,
  /** Upstream event name, e.g. `PreToolUse`. */
  event: z.string().min(1),
  matcher: z.string().optional(),
  /** `command` handlers: the command string; `http` handlers: the URL. */
  command: z.string(),
  handlerType: HookHandlerType.optional(),
  /** Settings file the handler was declared in. */
  sourceFile: z.string(),
  /** The JSON sent on stdin (or as the HTTP body), cut to HOOK_EVENT_INPUT_MAX_BYTES. */
  input: z.string(),
  inputTruncated: z.boolean(),
  /** Sealed tool-call token when the hook ran for a tool call. */
  toolCallToken: z.string().optional(),
  /** The handler's statusMessage: what the UI shows while the hook runs. */
  statusMessage: z.string().optional()
})
export type HookInvokedEvent = z.infer<typeof HookInvokedEvent>

export const HookResultEvent = z.object({
  type: z.literal('hook/result'),
  ...sessionEventBase,
  invocationId: z.string().min(1),
  source: HookProtocolSource,
  event: z.string().min(1),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** `http` handlers: the response status, when one arrived. */
  httpStatus: z.number().int().optional(),
  /**
   * Sealed tool-call token of a hook that started before its call had one (PreToolUse runs
   * before sealing): its hook/invoked is written at once, so the UI shows it running, and the
   * result ties it to the call.
   */
  toolCallToken: z.string().optional(),
  durationMs: z.number().nonnegative(),
  decision: HookPermissionDecision.optional(),
  outcomeKind: HookOutcomeKind,
  /** Cut to HOOK_EVENT_OUTPUT_MAX_BYTES; the flag is also set when the runner already cut it. */
  stdout: z.string(),
  stdoutTruncated: z.boolean(),
  stderr: z.string(),
  stderrTruncated: z.boolean(),
  failureKind: HookFailureKind.optional(),
  errorMessage: z.string().optional()
})
export type HookResultEvent = z.infer<typeof HookResultEvent>

export const HookSessionEvent = z.discriminatedUnion('type', [HookInvokedEvent, HookResultEvent])
export type HookSessionEvent = z.infer<typeof HookSessionEvent>
