// What the model provider did last, apart from the host connection: a turn that failed on the
// provider marks it refusing (and whether the cause is the key), an answer marks it answering.
// The header shows it, so "connected" (the host) never reads as "the model works".
import { create } from 'zustand'
import type { SessionEvent } from '../../src-shared/session/events'

export type ProviderHealth = { state: 'unknown' } | { state: 'answering' } | { state: 'refusing'; error: string; auth: boolean }

export const useProviderHealth = create<ProviderHealth>()(() => ({ state: 'unknown' }))

/** A failure the user fixes by setting (or correcting) the API key. */
export function isAuthFailure(error: string): boolean {
  return /\b401\b|\b403\b|unauthori[sz]ed|api[ _-]?key|authentication|no key|missing key|invalid key|permission denied by the provider/i.test(error)
}

export const providerHealthActions = {
  /** Called for each event appended live (not for a replay of old ones). */
  observe(event: SessionEvent): void {
    if (event.type === 'assistant/message') useProviderHealth.setState({ state: 'answering' }, true)
    else if (event.type === 'turn/end' && event.reason === 'error') {
      const error = event.error ?? 'the turn failed'
      useProviderHealth.setState({ state: 'refusing', error, auth: isAuthFailure(error) }, true)
    }
  },
  /** The provider settings changed: nothing is known about the new one yet. */
  reset(): void {
    useProviderHealth.setState({ state: 'unknown' }, true)
  }
}

let keyFocusWanted = false

/** "Fix in settings": open the settings page with the cursor in the provider's API key field. */
export function fixProviderInSettings(showSettings: () => void): void {
  keyFocusWanted = true
  showSettings()
}

/** True once after fixProviderInSettings (the key field takes focus when it mounts). */
export function consumeKeyFocus(): boolean {
  const wanted = keyFocusWanted
  keyFocusWanted = false
  return wanted
}
