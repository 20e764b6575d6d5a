// "Rewind to here" on a prompt, as Claude Code's rewind: shows what would be put back (files, and
// what changed since), then rewinds the conversation to before the message, restores the files
// and puts the message's text back into the composer.
import { useState } from 'react'
import type { RestoreOutcome } from '../../src-shared/contract/checkpoints'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { composerActions } from '../composer/composer-store'
import { isRewound } from './build-transcript'
import { RestoreDialog } from './RestoreDialog'
import { useSessionStore } from './session-store'

export function RewindAction({ seq }: { seq: number }) {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const busy = useSessionStore((state) => (state.agent?.running ?? false) || state.queued.length > 0)
  const rewound = useSessionStore((state) => isRewound(state.transcript, seq))
  const workspace = useSessionStore((state) => (state.events[0]?.type === 'session/header' ? state.events[0].workspace : undefined))
  const [preview, setPreview] = useState<RestoreOutcome | null>(null)
  const [error, setError] = useState<string | null>(null)
  if (rewound || !sessionId) return null

  const open = async () => {
    setError(null)
    try {
      setPreview(await host.invoke('checkpoints/rewind', { sessionId, messageSeq: seq, preview: true }))
    } catch (e) {
      setError(errorText(e))
    }
  }
  const rewind = async () => {
    // The user saw the files and what changed since: go ahead.
    const done = await host.invoke('checkpoints/rewind', { sessionId, messageSeq: seq, force: true })
    if (done.prompt !== undefined) composerActions.setDraft(done.prompt)
    composerActions.focus()
  }
  return (
    <>
      <button type="button" className="msg-action" aria-label="Rewind to this message" title="Rewind the conversation and the files to before this message" disabled={busy} onClick={() => void open()}>
        Rewind
      </button>
      {error && <span className="form-error" role="alert">{error}</span>}
      {preview && <RestoreDialog mode="rewind" outcome={preview} workspace={workspace} onConfirm={rewind} onClose={() => setPreview(null)} />}
    </>
  )
}
