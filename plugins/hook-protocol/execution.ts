// One view of a finished handler for the parsers, whether it was a command or an http handler.
import type { HookFailureKind } from '@seam/sdk'
import type { HookExecution } from './outcome'

export interface HandlerAnswer {
  /** Set when the handler gave no answer at all (could not run, timed out, aborted, bad HTTP status). */
  failure?: { kind: HookFailureKind; message: string }
  /** `null` when the process died of a signal. HTTP 2xx counts as 0. */
  exitCode: number | null
  signal: string | null
  stdout: string
  stdoutTruncated: boolean
  stderr: string
}

export function answerOf(result: HookExecution): HandlerAnswer {
  if (result.handlerType === 'http') {
    const answer: HandlerAnswer = { exitCode: 0, signal: null, stdout: result.body, stdoutTruncated: result.bodyTruncated, stderr: '' }
    if (result.failure) answer.failure = { kind: result.failure, message: result.errorMessage ?? result.failure }
    else if (result.status === null || result.status < 200 || result.status > 299) {
      answer.failure = { kind: 'http_status', message: `hook endpoint answered HTTP ${result.status}` }
    }
    return answer
  }
  const answer: HandlerAnswer = {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stdoutTruncated: result.stdoutTruncated,
    stderr: result.stderr
  }
  if (result.failure) answer.failure = { kind: result.failure, message: result.errorMessage ?? result.failure }
  return answer
}

/** `field.path: message; …` for a zod error, so a bad hook answer names the field at fault. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`)
    .join('; ')
}

/** The value of `text` as a JSON object, or `undefined` when it is not exactly one JSON object. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return isPlainObject(value) ? value : undefined
  } catch {
    return undefined // not JSON: the caller decides whether that is plain text or an error
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A trimmed, non-empty string, else `undefined`. */
export function nonEmpty(value: string | null | undefined): string | undefined {
  const text = value?.trim()
  return text ? text : undefined
}
