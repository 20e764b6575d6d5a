// First run: a workspace folder and a model provider, both needed before a session can start.
import { useAppStore } from '../app/app-store'
import { ProviderForm } from './ProviderForm'
import { WorkspaceForm } from './WorkspaceForm'
import { CircleCheck } from '../app/icons'

export function SetupScreen() {
  const status = useAppStore((state) => state.status)
  return (
    <main className="setup" aria-label="Set up Seam">
      <h1>Set up Seam</h1>
      <p className="muted">Seam needs a workspace folder the agent works in and a model provider to talk to.</p>
      <section className="settings-section">
        <h2>{status?.workspace ? <Done /> : '1. '}Workspace</h2>
        <WorkspaceForm />
      </section>
      <section className="settings-section">
        <h2>{status?.provider ? <Done /> : '2. '}Model provider</h2>
        <ProviderForm />
      </section>
    </main>
  )
}

/** A finished step's mark: the icon, and the word for screen readers. */
function Done() {
  return (
    <>
      <CircleCheck className="icon-inline step-done" aria-hidden="true" />
      <span className="sr-only">Done: </span>
    </>
  )
}
