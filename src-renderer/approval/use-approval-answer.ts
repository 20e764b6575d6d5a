// Answering one approval ask, for the dialog and the Board's inline card alike: one answer at a
// time (a second click while the first is on its way does nothing), the host's error shown, and
// the ask dropped from the queue once the host took the answer (or had settled it elsewhere).
import { useRef, useState } from 'react'
import type { ApprovalRequestPublic } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { approvalActions } from './approval-store'

export type ApprovalOutcome = 'allowed-once' | 'allowed-session' | 'allowed-always' | 'denied'
export type AlwaysSaveTo = 'workspace' | 'user'

export function useApprovalAnswer(request: ApprovalRequestPublic) {
  const host = useHost()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const busyRef = useRef(false)

  const answer = async (outcome: ApprovalOutcome, options: { note?: string; saveTo?: AlwaysSaveTo } = {}) => {
    if (busyRef.current) return
    busyRef.current = true
    setBusy(true)
    setError(null)
    const note = options.note?.trim()
    try {
      await host.invoke('approval/answer', {
        requestId: request.id,
        outcome,
        ...(outcome === 'denied' && note ? { note } : {}),
        ...(outcome === 'allowed-always' ? { saveTo: options.saveTo ?? 'workspace' } : {})
      })
      // ok: false means it was already settled elsewhere; either way this ask is over.
      approvalActions.settle(request.id)
    } catch (e) {
      busyRef.current = false
      setBusy(false)
      setError(errorText(e))
    }
  }

  return { answer, busy, error }
}
