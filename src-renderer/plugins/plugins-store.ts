// Installed plugins as the host reports them (plugins/list), refreshed on `plugins/changed`.
import { create } from 'zustand'
import type { HostApi, PluginInfo } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'

export interface PluginsState {
  list: PluginInfo[]
  /** The tools each plugin entry registered (plugins/tree), by entry id; empty when the tree could not be read. */
  tools: Record<string, string[]>
  error: string | null
}

export const usePluginsStore = create<PluginsState>()(() => ({ list: [], tools: {}, error: null }))

export const pluginsActions = {
  async refresh(host: HostApi): Promise<void> {
    try {
      usePluginsStore.setState({ list: await host.invoke('plugins/list', {}), error: null })
    } catch (error) {
      usePluginsStore.setState({ error: errorText(error) })
      return
    }
    try {
      const { entries } = await host.invoke('plugins/tree', {})
      usePluginsStore.setState({ tools: Object.fromEntries(entries.map((entry) => [entry.id, entry.tools])) })
    } catch {
      // The tool names are extra detail on the rows; the list above is what the page needs.
      usePluginsStore.setState({ tools: {} })
    }
  },
  reset(): void {
    usePluginsStore.setState({ list: [], tools: {}, error: null })
  }
}
