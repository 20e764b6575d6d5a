// Test fixtures: raw handler results as the runners produce them (parsers are pure functions of these).
import type { CommandHookResult } from './runner'
import type { HttpHookResult } from './http-runner'

export function exited(exitCode: number, stdout = '', stderr = '', extra: Partial<CommandHookResult> = {}): CommandHookResult {
  return {
    handlerType: 'command',
    exitCode,
    signal: null,
    stdout,
    stderr,
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: 5,
    ...extra
  }
}

export function json(value: unknown, exitCode = 0, stderr = ''): CommandHookResult {
  return exited(exitCode, `${JSON.stringify(value)}\n`, stderr)
}

export function killed(failure: CommandHookResult['failure'], stdout = ''): CommandHookResult {
  return { ...exited(0, stdout), exitCode: null, signal: failure === 'spawn_error' ? null : 'SIGTERM', failure, errorMessage: `hook ${failure}` }
}

export function http(status: number | null, body = '', failure?: HttpHookResult['failure']): HttpHookResult {
  const result: HttpHookResult = { handlerType: 'http', status, body, bodyTruncated: false, durationMs: 5 }
  if (failure) {
    result.failure = failure
    result.errorMessage = failure
  }
  return result
}
