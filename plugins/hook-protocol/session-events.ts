// Builds the durable `hook/invoked` and `hook/result` session events (S22) from a handler's
// input, raw result and outcome, applying the size caps. The session log adds `ts` and `seq`.
import {
  HOOK_EVENT_INPUT_MAX_BYTES,
  HOOK_EVENT_OUTPUT_MAX_BYTES,
  type HookHandlerType,
  type HookInvokedEvent,
  type HookProtocolSource,
  type HookResultEvent
} from '@seam/sdk'
import { truncateUtf8 } from './output-buffer'
import type { HookExecution, HookOutcome } from './outcome'

export type UnstampedHookInvokedEvent = Omit<HookInvokedEvent, 'ts' | 'seq'>
export type UnstampedHookResultEvent = Omit<HookResultEvent, 'ts' | 'seq'>

export interface HookInvocation {
  invocationId: string
  source: HookProtocolSource
  event: string
  matcher?: string
  /** Command string, or the URL of an http handler. */
  command: string
  handlerType?: HookHandlerType
  sourceFile: string
  /** The JSON sent to the handler. */
  input: string
  toolCallToken?: string
  /** Shown by the UI while the hook runs. */
  statusMessage?: string
}

export function hookInvokedEvent(invocation: HookInvocation): UnstampedHookInvokedEvent {
  const input = truncateUtf8(invocation.input, HOOK_EVENT_INPUT_MAX_BYTES)
  const event: UnstampedHookInvokedEvent = {
    type: 'hook/invoked',
    invocationId: invocation.invocationId,
    source: invocation.source,
    event: invocation.event,
    command: invocation.command,
    sourceFile: invocation.sourceFile,
    input: input.text,
    inputTruncated: input.truncated
  }
  if (invocation.matcher !== undefined) event.matcher = invocation.matcher
  if (invocation.handlerType !== undefined) event.handlerType = invocation.handlerType
  if (invocation.toolCallToken !== undefined) event.toolCallToken = invocation.toolCallToken
  if (invocation.statusMessage !== undefined) event.statusMessage = invocation.statusMessage
  return event
}

export function hookResultEvent(
  invocation: Pick<HookInvocation, 'invocationId' | 'source' | 'event'>,
  execution: HookExecution,
  outcome: HookOutcome
): UnstampedHookResultEvent {
  const raw =
    execution.handlerType === 'command'
      ? { stdout: execution.stdout, stdoutCut: execution.stdoutTruncated, stderr: execution.stderr, stderrCut: execution.stderrTruncated }
      : { stdout: execution.body, stdoutCut: execution.bodyTruncated, stderr: '', stderrCut: false }
  const stdout = truncateUtf8(raw.stdout, HOOK_EVENT_OUTPUT_MAX_BYTES)
  const stderr = truncateUtf8(raw.stderr, HOOK_EVENT_OUTPUT_MAX_BYTES)
  const event: UnstampedHookResultEvent = {
    type: 'hook/result',
    invocationId: invocation.invocationId,
    source: invocation.source,
    event: invocation.event,
    exitCode: execution.handlerType === 'command' ? execution.exitCode : null,
    signal: execution.handlerType === 'command' ? execution.signal : null,
    durationMs: execution.durationMs,
    outcomeKind: outcome.kind,
    stdout: stdout.text,
    stdoutTruncated: stdout.truncated || raw.stdoutCut,
    stderr: stderr.text,
    stderrTruncated: stderr.truncated || raw.stderrCut
  }
  if (execution.handlerType === 'http' && execution.status !== null) event.httpStatus = execution.status
  if (outcome.decision !== undefined) event.decision = outcome.decision
  if (outcome.failureKind !== undefined) event.failureKind = outcome.failureKind
  if (outcome.errorMessage !== undefined) event.errorMessage = outcome.errorMessage
  return event
}
