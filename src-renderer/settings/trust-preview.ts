// The workspace's hook commands that run only once the workspace is trusted.
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { useAppStore } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useHostQuery } from '../app/use-host-query'

export type TrustPreview = MethodOutput<'workspace/trust-preview'>

export function useTrustPreview(): { preview: TrustPreview | null; error: string | null; setTrusted(trusted: boolean): Promise<void> } {
  const host = useHost()
  const workspace = useAppStore((state) => state.status?.workspace ?? null)
  const trusted = useAppStore((state) => state.status?.workspaceTrusted ?? false)
  const { data: preview, error, setError, reload: load } = useHostQuery('workspace/trust-preview', [workspace, trusted])

  const setTrusted = async (value: boolean) => {
    try {
      await host.invoke('workspace/trust', { trusted: value })
      await load()
    } catch (e) {
      setError(errorText(e))
    }
  }
  return { preview, error, setTrusted }
}
