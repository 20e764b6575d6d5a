// "Allow for this session" grants of the open session (the Claude Code rules the dialog showed;
// they come back when the session is resumed), each revocable. Rules "Always allow" saved are
// listed with the other permission rules in force, by file.
import { useCallback, useEffect, useState } from 'react'
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useSessionStore } from '../transcript/session-store'

type Grant = MethodOutput<'grants/list'>[number]

export function GrantsList() {
  const host = useHost()
  const sessionId = useSessionStore((state) => state.sessionId)
  const [grants, setGrants] = useState<Grant[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(async () => {
    if (!sessionId) return
    try {
      setGrants(await host.invoke('grants/list', { sessionId }))
      setError(null)
    } catch (e) {
      setError(errorText(e))
    }
  }, [host, sessionId])

  useEffect(() => {
    setGrants(null)
    void load()
  }, [load])

  if (!sessionId) return <p className="muted">Open a session to see its grants.</p>

  const revoke = async (grantId: string) => {
    try {
      const { ok } = await host.invoke('grants/revoke', { sessionId, grantId })
      if (!ok) setError('The grant was already gone.')
      await load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <div className="grants">
      {grants === null ? (
        <p className="muted">Loading…</p>
      ) : grants.length === 0 ? (
        <p className="muted">No grants in this session.</p>
      ) : (
        <ul className="grant-list" aria-label="Session grants">
          {grants.map((grant) => (
            <li key={grant.id}>
              {grant.rules !== undefined ? (
                <span className="grant-rules">{grant.rules.map((rule) => <code key={rule}>{rule}</code>)}</span>
              ) : (
                <>
                  <span className="tool-name">{grant.tool}</span> <span>{grant.description}</span>
                </>
              )}
              <button type="button" aria-label={`Revoke ${grant.description}`} onClick={() => void revoke(grant.id)}>Revoke</button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="link" onClick={() => void load()}>Refresh</button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
