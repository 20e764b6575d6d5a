// Seam's provider error kinds as Claude Code's StopFailure error types (the CLI test,
// src-main/cli/hook-events.test.ts, runs StopFailure hooks end to end).
import { describe, expect, it } from 'vitest'
import { claudeStopFailureError } from './stop-failure'

describe('StopFailure error types', () => {
  it.each([
    [{ kind: 'rate_limit', message: 'slow down', status: 429 }, 'rate_limit'],
    [{ kind: 'auth', message: 'invalid x-api-key', status: 401 }, 'authentication_failed'],
    [{ kind: 'bad_request', message: 'Your credit balance is too low to access the Anthropic API.', status: 400 }, 'billing_error'],
    [{ kind: 'rate_limit', message: 'You exceeded your current quota (insufficient_quota)', status: 429 }, 'billing_error'],
    [{ kind: 'bad_request', message: 'payment', status: 402 }, 'billing_error'],
    [{ kind: 'bad_request', message: 'messages: field required', status: 400 }, 'invalid_request'],
    [{ kind: 'context_length', message: 'prompt is too long', status: 400 }, 'invalid_request'],
    [{ kind: 'server', message: 'Overloaded', status: 529 }, 'server_error'],
    [{ kind: 'network', message: 'ECONNREFUSED' }, 'unknown'],
    [{ kind: 'bad_response', message: 'not JSON' }, 'unknown']
  ] as const)('%o -> %s', (failure, expected) => {
    expect(claudeStopFailureError(failure)).toBe(expected)
  })
})
