// What a failed turn offers: Retry (the same prompt, sent again) and, when the provider refused
// the key, "Fix in settings" (the provider form, cursor in the key field).
import { useState } from 'react'
import { appActions } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { fixProviderInSettings, isAuthFailure } from '../app/provider-health'
import { composerActions, useComposerStore } from '../composer/composer-store'
import { sessionActions, useSessionStore } from './session-store'
import type { TurnEndItem } from './transcript-types'

export function TurnFailedActions({ item }: { item: TurnEndItem }) {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const running = useSessionStore((state) => state.agent?.running ?? false)
  const isLast = useSessionStore((state) => state.transcript.items.at(-1)?.key === item.key)
  const prompt = useSessionStore((state) => {
    const message = state.events.find((e) => e.type === 'user/message' && e.turnId === item.turnId)
    return message?.type === 'user/message' ? (message.originalContent ?? message.content) : null
  })
  const [error, setError] = useState<string | null>(null)
  if (!isLast) return null

  const retry = async () => {
    if (!sessionId || !prompt) return
    setError(null)
    if (useComposerStore.getState().draft === prompt) composerActions.setDraft('')
    const queuedId = sessionActions.addQueued(prompt)
    try {
      const { queued } = await host.invoke('chat/send', { sessionId, content: prompt })
      sessionActions.setQueuedMode(queuedId, queued)
    } catch (e) {
      sessionActions.removeQueued(queuedId)
      composerActions.restore(prompt)
      setError(errorText(e))
    }
  }

  return (
    <span className="turn-actions">
      {prompt && <button type="button" disabled={running} onClick={() => void retry()}>Retry</button>}
      {item.error && isAuthFailure(item.error) && (
        <button type="button" onClick={() => fixProviderInSettings(() => appActions.openSettings('provider'))}>Fix in settings</button>
      )}
      {error && <span className="form-error" role="alert">{error}</span>}
    </span>
  )
}
