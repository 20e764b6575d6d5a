// The open session: trust banner, transcript, background tasks and the agent's plan (pinned above the composer), composer.
import { TrustBanner } from '../settings/TrustBanner'
import { Composer } from '../composer/Composer'
import { TodoChecklist } from '../todo/TodoChecklist'
import { TasksPanel } from '../tasks/TasksPanel'
import { useSessionStore } from './session-store'
import { Transcript } from './Transcript'

export function SessionView() {
  const sessionId = useSessionStore((state) => state.sessionId)
  const loading = useSessionStore((state) => state.loading)
  const error = useSessionStore((state) => state.error)
  const warnings = useSessionStore((state) => state.warnings)
  const agent = useSessionStore((state) => state.agent)
  return (
    <section className="session-view" aria-label="Session">
      <TrustBanner />
      {error && <p className="banner error" role="alert">Could not open the session: {error}</p>}
      {warnings.map((warning, i) => (
        <p key={i} className="banner warn" role="note">{warning}</p>
      ))}
      {loading ? <p className="muted loading">Opening session…</p> : <Transcript key={sessionId ?? 'none'} />}
      {agent?.running && (
        <div className="agent-state muted" role="status">
          Working…{agent.steering > 0 ? ` · ${agent.steering} steering` : ''}{agent.queued > 0 ? ` · ${agent.queued} queued` : ''}
        </div>
      )}
      <TasksPanel />
      <TodoChecklist />
      <Composer />
    </section>
  )
}
