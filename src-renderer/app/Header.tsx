// App name, workspace path, connection state, and the page switcher. In a narrow window the
// secondary pages (Plugins, the hook inspector) fold into an overflow menu; the sidebar toggle
// shows or hides the sessions list.
import { appActions, needsSetup, useAppStore, type Page } from './app-store'
import { ContextMeter } from './ContextMeter'
import { Circle, PanelLeftClose, PanelLeftOpen } from './icons'
import { layoutActions, useLayoutStore, useNarrow } from './layout-store'
import { OverflowMenu } from './OverflowMenu'
import { SafetyBadge } from './SafetyBadge'
import { useProviderHealth } from './provider-health'
import { ModelPicker } from '../model/ModelPicker'
import { useModelStore } from '../model/model-store'

const PAGES: Array<{ page: Page; label: string }> = [
  { page: 'chat', label: 'Chat' },
  { page: 'board', label: 'Board' },
  { page: 'settings', label: 'Settings' },
  { page: 'plugins', label: 'Plugins' }
]

/**
 * The model provider's state, apart from the host connection. Where the model picker shows the
 * model (the chat page), a healthy provider is said to screen readers only: the model once.
 */
function ProviderState({ pickerShown }: { pickerShown: boolean }) {
  const provider = useAppStore((state) => state.status?.provider ?? null)
  // The open session's model (the picker's), else the provider in use.
  const current = useModelStore((state) => state.options?.current)
  const health = useProviderHealth()
  const model = current ? current.model : provider ? `${provider.model}` : 'no provider'
  const text = health.state === 'refusing' ? `${model}: ${health.auth ? 'key refused' : 'failing'}` : model
  const hidden = pickerShown && current && health.state !== 'refusing'
  return (
    <span className={`provider-state ${health.state}${hidden ? ' sr-only' : ''}`} role="status" aria-label="Provider" title={health.state === 'refusing' ? health.error : undefined}>
      {text}
    </span>
  )
}

export function Header() {
  const status = useAppStore((state) => state.status)
  const connection = useAppStore((state) => state.connection)
  const page = useAppStore((state) => state.page)
  const inspectorOpen = useAppStore((state) => state.inspector.open)
  const sidebarOpen = useLayoutStore((state) => state.sidebarOpen)
  const narrow = useNarrow()
  const setup = needsSetup(status)
  const toggleInspector = () => (inspectorOpen ? appActions.closeInspector() : appActions.openInspector())
  const shownPages = narrow ? PAGES.filter((p) => p.page !== 'plugins' || page === 'plugins') : PAGES
  return (
    <header className="app-header">
      {!setup && status && (
        <button type="button" className="icon-button" aria-label={sidebarOpen ? 'Hide sessions' : 'Show sessions'} aria-expanded={sidebarOpen} aria-controls={sidebarOpen ? 'sessions-sidebar' : undefined} onClick={layoutActions.toggleSidebar}>
          {sidebarOpen ? <PanelLeftClose aria-hidden="true" size={16} /> : <PanelLeftOpen aria-hidden="true" size={16} />}
        </button>
      )}
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
      {!setup && <SafetyBadge />}
      {page === 'chat' && !setup && <ContextMeter />}
      {/* Connected: a dot (the word for screen readers); otherwise the state in words. */}
      <span className={`connection ${connection}`} role="status" aria-label="Connection" title={`Host connection: ${connection}`}>
        <Circle className="connection-dot" aria-hidden="true" />
        <span className={connection === 'connected' ? 'sr-only' : undefined}>{connection}</span>
      </span>
      {page === 'chat' && !setup && <ModelPicker />}
      {!setup && <ProviderState pickerShown={page === 'chat'} />}
      {!setup && (
        <nav className="page-nav" aria-label="Pages">
          {shownPages.map(({ page: p, label }) => (
            <button key={p} type="button" aria-current={page === p ? 'page' : undefined} className={page === p ? 'active' : ''} onClick={() => appActions.showPage(p)}>
              {label}
            </button>
          ))}
          {narrow ? (
            <OverflowMenu
              items={[
                ...(page === 'plugins' ? [] : [{ label: 'Plugins', onSelect: () => appActions.showPage('plugins') }]),
                { label: 'Hooks', checked: inspectorOpen, onSelect: toggleInspector }
              ]}
            />
          ) : (
            <button type="button" aria-pressed={inspectorOpen} onClick={toggleInspector}>
              Hooks
            </button>
          )}
        </nav>
      )}
    </header>
  )
}
