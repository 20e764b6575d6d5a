// The app: wires the stores to the host, then lays out header, sessions sidebar, the current
// page, the hook inspector, the status line and the approval dialog.
import { useEffect } from 'react'
import type { HostApi } from '../../src-shared/contract/ipc'
import { ApprovalDialog, useApprovalDialogOpen } from '../approval/ApprovalDialog'
import { useApprovalStore } from '../approval/approval-store'
import { HookInspector } from '../hooks/HookInspector'
import type { ModuleLoader } from '../plugins/client-runtime'
import { PluginManagerPage } from '../plugins/PluginManagerPage'
import { SessionsSidebar } from '../sessions/SessionsSidebar'
import { BoardPage } from '../board/BoardPage'
import { NewWorktreeDialog } from '../board/NewWorktreeDialog'
import { SettingsPage } from '../settings/SettingsPage'
import { SetupScreen } from '../setup/SetupScreen'
import { SessionView } from '../transcript/SessionView'
import { appActions, needsSetup, useAppStore, type ConnectionState } from './app-store'
import { CommandPalette } from './CommandPalette'
import { Header } from './Header'
import { HostProvider } from './host-context'
import { useLayoutStore } from './layout-store'
import { themeActions, useThemeStore } from './theme'
import { startRouter } from './router'
import { StatusLine } from './StatusLine'
import { wireHost } from './wire-host'

/** The transport's connection state, as an observable (the transport's ConnectionStatus). */
export interface ConnectionSource {
  getState(): ConnectionState
  subscribe(listener: (state: ConnectionState) => void): () => void
}

export interface AppProps {
  host: HostApi
  connection?: ConnectionSource
  /** How client entries are imported (tests pass their own). */
  loadModule?: ModuleLoader
  /** Keep the page, section and session in the URL's hash (deep links, Back/Forward): the real window does. */
  followUrl?: boolean
}

export function App({ host, connection, loadModule, followUrl = false }: AppProps) {
  useEffect(() => {
    const wiring = wireHost(host, loadModule ? { loadModule } : {})
    // Before the first resync: a linked session opens instead of the remembered one.
    const stopRouter = followUrl ? startRouter(host) : undefined
    let last: ConnectionState = connection?.getState() ?? 'connected'
    appActions.setConnection(last)
    void wiring.resync()
    const off = connection?.subscribe((state) => {
      appActions.setConnection(state)
      // A reconnect may have missed pushes: fetch the state again.
      if (state === 'connected' && last !== 'connected') void wiring.resync()
      last = state
    })
    return () => {
      off?.()
      stopRouter?.()
      wiring.dispose()
    }
  }, [host, connection, loadModule, followUrl])

  return (
    <HostProvider host={host}>
      <AppShell />
    </HostProvider>
  )
}

function AppShell() {
  const status = useAppStore((state) => state.status)
  const statusError = useAppStore((state) => state.statusError)
  const page = useAppStore((state) => state.page)
  const inspectorOpen = useAppStore((state) => state.inspector.open)
  const approvalOpen = useApprovalDialogOpen()
  const sidebarOpen = useLayoutStore((state) => state.sidebarOpen)
  const themeNotice = useThemeStore((state) => state.notice)
  return (
    <div className="app">
      <div className="app-frame" inert={approvalOpen}>
        <Header />
        {themeNotice && page !== 'settings' && (
          <p className="banner warn theme-notice" role="status">
            {themeNotice} <button type="button" onClick={() => themeActions.dismissNotice()}>Dismiss</button>
          </p>
        )}
        <div className="app-body">
          {status === null ? (
            <main className="loading muted">{statusError ? `Could not reach the host: ${statusError}` : 'Connecting to the host…'}</main>
          ) : needsSetup(status) ? (
            <SetupScreen />
          ) : (
            <>
              {sidebarOpen && <SessionsSidebar />}
              <main className="page" aria-label={page === 'chat' ? 'Chat' : page === 'board' ? 'Board' : page === 'settings' ? 'Settings page' : 'Plugins page'}>
                {page === 'chat' ? <SessionView /> : page === 'board' ? <BoardPage /> : page === 'settings' ? <SettingsPage /> : <PluginManagerPage />}
              </main>
              {inspectorOpen && <HookInspector />}
            </>
          )}
        </div>
        <StatusLine />
      </div>
      <ApprovalDialog />
      <NewWorktreeDialog />
      {status !== null && !needsSetup(status) && <CommandPalette />}
    </div>
  )
}
