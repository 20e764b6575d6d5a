// The Claude Code and Codex plugins the host's catalog knows (claudePlugins/list), and Seam's
// switch for one of them (claudePlugins/set-enabled) and its userConfig (claudePlugins/configure),
// for the plugin manager.
import { create } from 'zustand'
import type { ClaudePluginRow } from '../../../src-shared/contract/claude-plugins'
import type { HostApi } from '../../../src-shared/contract/ipc'
import { errorText } from '../../app/errors'
import { themeActions } from '../../app/theme'

export interface ClaudePluginsState {
  /** False when the claude-plugins entry is off: the section says so instead of an empty table. */
  available: boolean
  rows: ClaudePluginRow[]
  warnings: string[]
  error: string | null
}

const EMPTY: ClaudePluginsState = { available: true, rows: [], warnings: [], error: null }

export const useClaudePluginsStore = create<ClaudePluginsState>()(() => ({ ...EMPTY }))

export const claudePluginsActions = {
  async refresh(host: HostApi): Promise<void> {
    try {
      const { available, plugins, warnings } = await host.invoke('claudePlugins/list', {})
      useClaudePluginsStore.setState({ available, rows: plugins, warnings, error: null })
    } catch (error) {
      useClaudePluginsStore.setState({ error: errorText(error) })
    }
  },
  /** Throws the host's message (it names the field) for the confirmation dialog to show. */
  async setEnabled(host: HostApi, id: string, enabled: boolean): Promise<ClaudePluginRow> {
    const row = await host.invoke('claudePlugins/set-enabled', { id, enabled })
    useClaudePluginsStore.setState((state) => ({ rows: state.rows.map((r) => (r.id === row.id ? row : r)) }))
    // Its themes come or go: a window in one of them falls back (with a notice) or returns to it.
    void themeActions.refresh(host)
    return row
  },
  /** Sets userConfig values (null unsets one); throws the host's message, which names the field. */
  async configure(host: HostApi, id: string, values: Record<string, string | number | boolean | null>): Promise<void> {
    const row = await host.invoke('claudePlugins/configure', { id, values })
    useClaudePluginsStore.setState((state) => ({ rows: state.rows.map((r) => (r.id === row.id ? row : r)) }))
  },
  reset(): void {
    useClaudePluginsStore.setState({ ...EMPTY })
  }
}
