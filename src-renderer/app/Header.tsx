// App name, workspace path, connection state, and the page switcher.
import { appActions, needsSetup, useAppStore, type Page } from './app-store'
import { ContextMeter } from './ContextMeter'
import { useProviderHealth } from './provider-health'
import { ModelPicker } from '../model/ModelPicker'
import { useModelStore } from '../model/model-store'

const PAGES: Array<{ page: Page; label: string }> = [
  { page: 'chat', label: 'Chat' },
  { page: 'settings', label: 'Settings' },
  { page: 'plugins', label: 'Plugins' }
]

/** The model provider's state, apart from the host connection. */
function ProviderState() {
  const provider = useAppStore((state) => state.status?.provider ?? null)
  // The open session's model (the picker's), else the provider in use.
  const current = useModelStore((state) => state.options?.current)
  const health = useProviderHealth()
  const model = current ? current.model : provider ? `${provider.model}` : 'no provider'
  const text = health.state === 'refusing' ? `${model}: ${health.auth ? 'key refused' : 'failing'}` : model
  return (
    <span className={`provider-state ${health.state}`} role="status" aria-label="Provider" title={health.state === 'refusing' ? health.error : undefined}>
      {text}
    </span>
  )
}

export function Header() {
  const status = useAppStore((state) => state.status)
  const connection = useAppStore((state) => state.connection)
  const page = useAppStore((state) => state.page)
  const inspectorOpen = useAppStore((state) => state.inspector.open)
  const setup = needsSetup(status)
  return (
    <header className="app-header">
      <span className="app-name">Seam</span>
      <span className="workspace path" title={status?.workspace ?? undefined} aria-label="Workspace">
        {status?.workspace ?? 'no workspace'}
      </span>
      {/* Only a workspace with something to trust (hooks, settings, MCP servers, a patch file) is "untrusted". */}
      {status && !status.workspaceTrusted && status.workspace && (status.trustNeeded ?? 0) > 0 && (
        <span className="badge warn" title="Workspace hooks, settings and servers do not run until you trust it">untrusted</span>
      )}
      {status?.workspaceTrusted && (status.trustChanges ?? 0) > 0 && (
        <span className="badge warn" role="status" aria-label="Unapproved hook changes" title="Hook commands new or changed since you trusted this workspace do not run until you approve them">
          {status.trustChanges} changed
        </span>
      )}
      {page === 'chat' && !setup && <ContextMeter />}
      <span className="conn-label" aria-hidden="true">host</span>
      <span className={`connection ${connection}`} role="status" aria-label="Connection">
        {connection}
      </span>
      {page === 'chat' && !setup && <ModelPicker />}
      {!setup && <ProviderState />}
      {!setup && (
        <nav className="page-nav" aria-label="Pages">
          {PAGES.map(({ page: p, label }) => (
            <button key={p} type="button" aria-current={page === p ? 'page' : undefined} className={page === p ? 'active' : ''} onClick={() => appActions.showPage(p)}>
              {label}
            </button>
          ))}
          <button type="button" aria-pressed={inspectorOpen} onClick={() => (inspectorOpen ? appActions.closeInspector() : appActions.openInspector())}>
            Hooks
          </button>
        </nav>
      )}
    </header>
  )
}
