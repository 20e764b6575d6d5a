// The model picker's data (model/options): the model in use for the open session (or the Host's)
// and each provider preset's models. The composer reads `current.vision` for its attach control.
import { create } from 'zustand'
import type { HostApi, ModelOptions } from '../../src-shared/contract/ipc'

export interface ModelState {
  options: ModelOptions | null
  error: string | null
}

export const useModelStore = create<ModelState>()(() => ({ options: null, error: null }))

export const modelActions = {
  async refresh(host: HostApi, sessionId: string | null): Promise<void> {
    try {
      const options = await host.invoke('model/options', sessionId ? { sessionId } : {})
      useModelStore.setState({ options, error: null })
    } catch (error) {
      useModelStore.setState({ error: (error as Error).message })
    }
  },
  async select(host: HostApi, sessionId: string | null, provider: ModelOptions['providers'][number]['id'], model: string): Promise<void> {
    const options = await host.invoke('model/select', { ...(sessionId ? { sessionId } : {}), provider, model })
    useModelStore.setState({ options, error: null })
  }
}
