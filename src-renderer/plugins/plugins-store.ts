// Installed plugins as the host reports them (plugins/list), refreshed on `plugins/changed`.
import { create } from 'zustand'
import type { HostApi, PluginInfo } from '../../src-shared/contract/ipc'
import { errorText } from '../app/errors'

export interface PluginsState {
  list: PluginInfo[]
  error: string | null
}

export const usePluginsStore = create<PluginsState>()(() => ({ list: [], error: null }))

export const pluginsActions = {
  async refresh(host: HostApi): Promise<void> {
    try {
      usePluginsStore.setState({ list: await host.invoke('plugins/list', {}), error: null })
    } catch (error) {
      usePluginsStore.setState({ error: errorText(error) })
    }
  },
  reset(): void {
    usePluginsStore.setState({ list: [], error: null })
  }
}
