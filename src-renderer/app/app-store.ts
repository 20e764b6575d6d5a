// App-wide UI state fed by host pushes: the host's status, the connection, which page shows,
// the hook inspector, and recent plugin logs.
import { create } from 'zustand'
import type { AppStatus, PushPayload } from '../../src-shared/contract/ipc'

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed'
export type Page = 'chat' | 'board' | 'settings' | 'plugins'
export type LogRecord = PushPayload<'log'>

const MAX_LOGS = 200

export interface AppState {
  status: AppStatus | null
  statusError: string | null
  connection: ConnectionState
  transport: 'electron' | 'web' | null
  page: Page
  /** The settings section shown (an id of settings/sections.tsx, or `plugin:<uid>`). */
  settingsSection: string
  inspector: { open: boolean; focus: string | null }
  logs: LogRecord[]
}

export const initialAppState: AppState = {
  status: null,
  statusError: null,
  connection: 'connecting',
  transport: null,
  page: 'chat',
  settingsSection: 'provider',
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
    const go = () => useAppStore.setState({ page })
    if (page !== 'settings' && useAppStore.getState().page === 'settings' && leaveGuard?.(go)) return
    go()
  },
  /** Opens Settings at one section (deep links: the safety badge, "Fix in settings"); none keeps the last one shown. */
  openSettings(section?: string): void {
    const state = useAppStore.getState()
    const go = () => useAppStore.setState({ page: 'settings', ...(section ? { settingsSection: section } : {}) })
    if (state.page === 'settings' && section && section !== state.settingsSection && leaveGuard?.(go)) return
    go()
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
  /** `logs/recent` (start, reconnect): adds only the records not already held (pushes bring most of them). */
  mergeRecentLogs(records: readonly LogRecord[]): void {
    useAppStore.setState((state) => {
      const held = new Map<string, number>()
      for (const record of state.logs) held.set(logKey(record), (held.get(logKey(record)) ?? 0) + 1)
      const fresh = records.filter((record) => {
        const key = logKey(record)
        const count = held.get(key) ?? 0
        if (count > 0) held.set(key, count - 1)
        return count === 0
      })
      if (fresh.length === 0) return state
      return { logs: [...state.logs, ...fresh].sort((a, b) => a.time - b.time).slice(-MAX_LOGS) }
    })
  },
  reset(): void {
    useAppStore.setState({ ...initialAppState })
  }
}

/**
 * Settings' unsaved-changes guard: called before the page or section changes; it returns true when
 * it holds the change back (it asks the user, then calls `proceed` or not).
 */
type LeaveGuard = (proceed: () => void) => boolean
let leaveGuard: LeaveGuard | null = null

export function setLeaveGuard(guard: LeaveGuard): () => void {
  leaveGuard = guard
  return () => {
    if (leaveGuard === guard) leaveGuard = null
  }
}

function logKey(record: LogRecord): string {
  return JSON.stringify([record.time, record.level, record.plugin, record.message, record.detail ?? null])
}

/** First run: the session view needs a workspace and a provider. */
export function needsSetup(status: AppStatus | null): boolean {
  return status !== null && (status.workspace === null || status.provider === null)
}
