// The workspace's hook commands that run only once the workspace is trusted, each with its
// approval status (trust is pinned to the exact items a dialog showed).
import type { MethodOutput } from '../../src-shared/contract/ipc'
import { useAppStore } from '../app/app-store'
import { errorText } from '../app/errors'
import { useHost } from '../app/host-context'
import { useHostQuery } from '../app/use-host-query'

export type TrustPreview = MethodOutput<'workspace/trust-preview'>
export type TrustPreviewItem = TrustPreview['items'][number]

export interface TrustPreviewState {
  preview: TrustPreview | null
  error: string | null
  /** Trusting approves exactly `shown` (the items the dialog listed); untrusting forgets every approval. */
  setTrusted(trusted: boolean, shown?: readonly TrustPreviewItem[]): Promise<void>
}

export function useTrustPreview(): TrustPreviewState {
  const host = useHost()
  const workspace = useAppStore((state) => state.status?.workspace ?? null)
  const trusted = useAppStore((state) => state.status?.workspaceTrusted ?? false)
  const changes = useAppStore((state) => state.status?.trustChanges ?? 0)
  const { data: preview, error, setError, reload: load } = useHostQuery('workspace/trust-preview', [workspace, trusted, changes])

  const setTrusted = async (value: boolean, shown?: readonly TrustPreviewItem[]) => {
    try {
      await host.invoke('workspace/trust', value ? { trusted: true, approve: (shown ?? preview?.items ?? []).map((item) => item.hash) } : { trusted: false })
      await load()
    } catch (e) {
      setError(errorText(e))
    }
  }
  return { preview, error, setTrusted }
}
