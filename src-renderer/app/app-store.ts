// App-wide UI state fed by host pushes: the host's status, the connection, which page shows,
// the hook inspector, and recent plugin logs.
import { create } from 'zustand'
import type { AppStatus, PushPayload } from '../../src-shared/contract/ipc'

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed'
export type Page = 'chat' | 'settings' | 'plugins'
export type LogRecord = PushPayload<'log'>

const MAX_LOGS = 200

export interface AppState {
  status: AppStatus | null
  statusError: string | null
  connection: ConnectionState
  transport: 'electron' | 'web' | null
  page: Page
  inspector: { open: boolean; focus: string | null }
  logs: LogRecord[]
}

export const initialAppState: AppState = {
  status: null,
  statusError: null,
  connection: 'connecting',
  transport: null,
  page: 'chat',
  inspector: { open: false, focus: null },
  logs: []
}

export const useAppStore = create<AppState>()(() => ({ ...initialAppState }))

export const appActions = {
  setStatus(status: AppStatus): void {
    useAppStore.setState({ status, statusError: null })
  },
  setStatusError(message: string): void {
    useAppStore.setState({ statusError: message })
  },
  setConnection(connection: ConnectionState): void {
    useAppStore.setState({ connection })
  },
  setTransport(transport: 'electron' | 'web'): void {
    useAppStore.setState({ transport })
  },
  showPage(page: Page): void {
    useAppStore.setState({ page })
  },
  /** Opens the hook inspector, optionally scrolled to one invocation. */
  openInspector(focus: string | null = null): void {
    useAppStore.setState({ inspector: { open: true, focus } })
  },
  closeInspector(): void {
    useAppStore.setState({ inspector: { open: false, focus: null } })
  },
  addLogs(records: readonly LogRecord[]): void {
    useAppStore.setState((state) => ({ logs: [...state.logs, ...records].slice(-MAX_LOGS) }))
  },
  reset(): void {
    useAppStore.setState({ ...initialAppState })
  }
}

/** First run: the session view needs a workspace and a provider. */
export function needsSetup(status: AppStatus | null): boolean {
  return status !== null && (status.workspace === null || status.provider === null)
}
