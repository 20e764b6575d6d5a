// StopFailure <- agent/turn-failure: the turn ended because the model request failed (rate
// limit, authentication, server error…). Input `error` (Claude Code's error type, also the
// matcher target), `error_details` (the provider's own words) and `last_assistant_message`
// (claude-code-hooks.md §6.0, schema). As Claude Code documents it, the hooks' answers and exit
// codes are ignored: the turn has ended either way; runs and failures are recorded as for any hook.
import type { AgentHandle, TurnFailure } from '@seam/sdk'
import { occurrence, seeSession, type Bridge } from './bridge'

/** Claude Code's StopFailure error types (its documented matcher values). */
export type ClaudeStopFailureError = 'rate_limit' | 'authentication_failed' | 'billing_error' | 'invalid_request' | 'server_error' | 'max_output_tokens' | 'unknown'

/** What a provider says when the account cannot pay (Anthropic's "credit balance is too low", OpenAI's `insufficient_quota`, a 402). */
const BILLING = /credit balance|insufficient[_ ]quota|billing|payment required/i

/** Seam's provider error kinds as Claude Code's StopFailure error types. */
export function claudeStopFailureError(failure: Pick<TurnFailure, 'kind' | 'message' | 'status'>): ClaudeStopFailureError {
  if (failure.status === 402 || BILLING.test(failure.message)) return 'billing_error'
  switch (failure.kind) {
    case 'rate_limit':
      return 'rate_limit'
    case 'auth':
      return 'authentication_failed'
    case 'bad_request':
    case 'context_length':
      return 'invalid_request'
    case 'server':
      return 'server_error'
    default:
      // network, bad_response: no type of Claude Code's fits better.
      return 'unknown'
  }
}

export function onTurnFailure(bridge: Bridge) {
  return async (agent: AgentHandle, failure: TurnFailure): Promise<void> => {
    if (!bridge.invoker.has('StopFailure')) return
    const entry = seeSession(bridge, agent)
    const fields = { error: claudeStopFailureError(failure), error_details: failure.message, last_assistant_message: failure.lastAssistantText }
    await bridge.invoker.run(occurrence(bridge, 'StopFailure', entry, fields))
  }
}
